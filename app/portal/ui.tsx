// The portal's page frame and form pieces: plain HTML that works without JavaScript (Remix's <Form> falls back to a
// normal form post), with the accessibility parts in one place (labels, hints and errors tied to their fields, an
// error summary that links to each field and takes focus).
import { useEffect, useRef, useSyncExternalStore, type ReactNode } from "react";
import { Form, useRouteLoaderData } from "@remix-run/react";
import { messages } from "./messages.ts";
import { DEFAULT_LOCALE } from "./locale.ts";
import { formatDateTime } from "./format.ts";

/** The buyer's locale, from the portal layout's loader (their Accept-Language). */
export function usePortalLocale(): string {
  return useRouteLoaderData<{ locale: string }>("routes/portal")?.locale ?? DEFAULT_LOCALE;
}

/**
 * An instant in the buyer's own time zone: rendered in UTC on the server (named: "10:14 UTC"), redrawn in the
 * browser's zone once the page runs, the zone named too ("05:14 EST"). The <time> element carries the UTC instant.
 */
export function LocalTime({ iso }: { iso: string }) {
  const locale = usePortalLocale();
  const text = useHydrated()
    ? formatDateTime(iso, locale, Intl.DateTimeFormat().resolvedOptions().timeZone)
    : formatDateTime(iso, locale);
  return <time dateTime={iso}>{text}</time>;
}

/** For a browser-only value that does not change while the page is open. */
export const subscribeToNothing = () => () => {};

/**
 * False on the server and while the page hydrates, true once it runs in the browser (then React renders again): what
 * only the browser knows (its time zone, its today) is shown from then on, without a hydration mismatch.
 */
export const useHydrated = () =>
  useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );

export function PortalShell({
  merchantName,
  signedIn,
  csrf,
  children,
}: {
  merchantName?: string;
  signedIn?: boolean;
  csrf: string;
  children: ReactNode;
}) {
  return (
    <div className="portal">
      <a className="skip" href="#main">
        {messages.skipToContent}
      </a>
      <header className="portal-header">
        <div className="portal-header-inner">
          <div>
            <p className="portal-brand">{messages.siteName}</p>
            {merchantName ? <p className="portal-merchant">{messages.protectedBy(merchantName)}</p> : null}
          </div>
          {signedIn ? (
            <Form method="post" action="/portal/sign-out" className="portal-signout">
              <CsrfField token={csrf} />
              <button type="submit" className="button button-quiet">
                {messages.signOut}
              </button>
            </Form>
          ) : null}
        </div>
      </header>
      <main id="main" className="portal-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="portal-footer">
        <nav aria-label="Portal">
          <ul>
            {signedIn ? (
              <li>
                <a href="/portal/plan">{messages.planLink}</a>
              </li>
            ) : null}
            <li>
              <a href="/portal/terms">{messages.termsLink}</a>
            </li>
          </ul>
        </nav>
        <p>{messages.footerNote}</p>
      </footer>
    </div>
  );
}

export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name="csrf" value={token} />;

export type FieldErrors = Record<string, string>;

/** The error summary above a form: a heading, then one link per field error (or the form's own error). */
export function ErrorSummary({ errors, formError }: { errors?: FieldErrors; formError?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const entries = Object.entries(errors ?? {});
  const shown = Boolean(formError) || entries.length > 0;
  // With JavaScript the summary takes focus when it appears; without, the page loads with it near the top.
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown, formError, errors]);
  if (!shown) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1} ref={ref}>
      <h2 id="error-summary-title">{messages.errorSummary}</h2>
      <ul>
        {formError ? <li>{formError}</li> : null}
        {entries.map(([field, message]) => (
          <li key={field}>
            <a href={`#${field}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A labelled control with its hint and error, wired by id (aria-describedby, aria-invalid). */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: (props: { id: string; name: string; "aria-describedby"?: string; "aria-invalid"?: true }) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className={error ? "field field-error" : "field"}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {children({
        id,
        name: id,
        "aria-describedby": describedBy || undefined,
        "aria-invalid": error ? true : undefined,
      })}
    </div>
  );
}

export const Notice = ({ children }: { children: ReactNode }) => (
  <div className="notice" role="status">
    {children}
  </div>
);

/** What the evidence file inputs offer to pick (the API decides by the bytes, not by this). */
export const EVIDENCE_ACCEPT = ".jpg,.jpeg,.png,.webp,.heic,.pdf";
