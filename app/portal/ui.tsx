// The portal's page frame, its CSRF field and the buyer's locale and time: plain HTML that works without JavaScript
// (Remix's <Form> falls back to a normal form post). The form pieces the console shares are ../ui/form-parts.tsx.
import { useSyncExternalStore, type ReactNode } from "react";
import { Form, useLocation, useRouteLoaderData } from "@remix-run/react";
import { PSEUDO_LOCALE } from "@purchase-protection/contract";
import { portalMessages, type PortalText } from "./messages.ts";
import { DEFAULT_LOCALE, formatDateTime } from "../ui/format.ts";

/** What the portal layout's loader says of the buyer's language (routes/portal.tsx). */
export interface PortalLanguage {
  locale: string;
  htmlLang: string;
  /** The languages the switcher offers, each named in itself. */
  languages: { value: string; name: string }[];
}

const usePortalLanguage = () => useRouteLoaderData<PortalLanguage>("routes/portal");

/** The buyer's locale, from the portal layout's loader (locale.ts portalLocale). */
export function usePortalLocale(): string {
  return usePortalLanguage()?.locale ?? DEFAULT_LOCALE;
}

/** The portal's words in the buyer's language. */
export function usePortalText(): PortalText {
  return portalMessages.in(usePortalLocale());
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
  const t = usePortalText();
  return (
    <div className="portal">
      <a className="skip" href="#main">
        {t("skipToContent")}
      </a>
      <header className="portal-header">
        <div className="portal-header-inner">
          <div>
            <p className="portal-brand">{t("siteName")}</p>
            {merchantName ? <p className="portal-merchant">{t("protectedBy", { merchant: merchantName })}</p> : null}
          </div>
          <div className="portal-header-actions">
            <LanguageSwitcher csrf={csrf} t={t} />
            {signedIn ? (
              <Form method="post" action="/portal/sign-out" className="portal-signout">
                <CsrfField token={csrf} />
                <button type="submit" className="button button-quiet">
                  {t("signOut")}
                </button>
              </Form>
            ) : null}
          </div>
        </div>
      </header>
      <main id="main" className="portal-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="portal-footer">
        <nav aria-label={t("footerNav")}>
          <ul>
            {signedIn ? (
              <li>
                <a href="/portal/plan">{t("planLink")}</a>
              </li>
            ) : null}
            <li>
              <a href="/portal/terms">{t("termsLink")}</a>
            </li>
          </ul>
        </nav>
        <p>{t("footerNote")}</p>
      </footer>
    </div>
  );
}

/**
 * The language switcher: a labelled select and its button, a plain form post (/portal/language) that works without
 * JavaScript and comes back to this page; each language is named in itself, in its own `lang`.
 */
function LanguageSwitcher({ csrf, t }: { csrf: string; t: PortalText }) {
  const language = usePortalLanguage();
  const location = useLocation();
  if (!language) return null;
  return (
    <Form method="post" action="/portal/language" className="portal-language">
      <CsrfField token={csrf} />
      <input type="hidden" name="back" value={`${location.pathname}${location.search}`} />
      <label htmlFor="portal-language">{t("language")}</label>
      <select
        id="portal-language"
        name="language"
        defaultValue={language.locale === PSEUDO_LOCALE ? PSEUDO_LOCALE : language.locale.split("-")[0]}
      >
        {language.languages.map((choice) => (
          <option key={choice.value} value={choice.value} lang={choice.value}>
            {choice.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button-quiet">
        {t("languageSubmit")}
      </button>
    </Form>
  );
}

export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name="csrf" value={token} />;

/** What the evidence file inputs offer to pick (the API decides by the bytes, not by this). */
export const EVIDENCE_ACCEPT = ".jpg,.jpeg,.png,.webp,.heic,.pdf";
