// The console's page frame: plain server-rendered HTML that works without JavaScript, light theme, desktop-first and
// usable at 390 px. The form pieces (labelled fields with hints and errors, the error summary, notices) are the app's
// (app/ui/form-parts.tsx), and so is the stylesheet's basics (app/ui/pages.css); ops.css adds the wide layout and tables.
import type { ReactNode } from "react";
import { Form } from "@remix-run/react";
import { ROLE_LABELS } from "./labels.ts";

export { ErrorSummary, Field, Notice, type FieldErrors } from "../ui/form-parts.tsx";

export interface ShellStaff {
  email: string;
  role: string;
}

export function OpsShell({ staff, children }: { staff?: ShellStaff; children: ReactNode }) {
  return (
    <div className="portal ops">
      <a className="skip" href="#main">
        Skip to main content
      </a>
      <header className="portal-header">
        <div className="ops-header-inner">
          <p className="portal-brand">Claims console</p>
          {staff ? (
            <nav aria-label="Console" className="ops-nav">
              <ul>
                <li>
                  <a href="/ops">Queue</a>
                </li>
                {staff.role === "admin" ? (
                  <>
                    <li>
                      <a href="/ops/staff">Staff</a>
                    </li>
                    <li>
                      <a href="/ops/audit">Audit log</a>
                    </li>
                  </>
                ) : null}
              </ul>
            </nav>
          ) : null}
          {staff ? (
            <div className="ops-who">
              <span className="muted">
                {staff.email} · {ROLE_LABELS[staff.role] ?? staff.role}
              </span>
              <Form method="post" action="/ops/sign-out">
                <button type="submit" className="button button-quiet">
                  Sign out
                </button>
              </Form>
            </div>
          ) : null}
        </div>
      </header>
      <main id="main" className="ops-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/** A wide table that scrolls sideways on a narrow screen (focusable, so the keyboard can scroll it too). */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A status as a coloured badge (the badge colours of app/ui/pages.css). */
export const StatusBadge = ({ status, label }: { status: string; label: string }) => (
  <span className={`badge badge-${status}`}>{label}</span>
);

/** A claim against the review promise (CLAIM_REVIEW_BUSINESS_DAYS): said in words, not by colour alone. */
export const ReviewMarkerBadge = ({ marker }: { marker: "overdue" | "due_soon" | null }) =>
  marker === "overdue" ? (
    <span className="marker marker-overdue">Past the review promise</span>
  ) : marker === "due_soon" ? (
    <span className="marker marker-soon">Review due soon</span>
  ) : null;
