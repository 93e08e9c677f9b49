// The portal's page frame, its CSRF field and the buyer's locale and time: plain HTML that works without JavaScript
// (Remix's <Form> falls back to a normal form post). The form pieces the console shares are ../ui/form-parts.tsx.
import { useSyncExternalStore, type ReactNode } from "react";
import { Form, useRouteLoaderData } from "@remix-run/react";
import { messages } from "./messages.ts";
import { DEFAULT_LOCALE, formatDateTime } from "../ui/format.ts";

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

/** What the evidence file inputs offer to pick (the API decides by the bytes, not by this). */
export const EVIDENCE_ACCEPT = ".jpg,.jpeg,.png,.webp,.heic,.pdf";
