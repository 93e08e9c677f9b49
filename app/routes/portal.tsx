// The buyer portal's layout (/portal/*): our pages' small stylesheet and its own (no Polaris or App Bridge: a
// buyer-facing site), the headers of every portal page, and the error page for what the pages throw (a refused CSRF
// token, a missing claim).
import {
  json,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { isRouteErrorResponse, Outlet, useRouteError } from "@remix-run/react";
import pageStyles from "../ui/pages.css?url";
import portalStyles from "../portal/portal.css?url";
import { portalMessages } from "../portal/messages.ts";
import { htmlLang, languageChoices } from "../portal/locale.ts";
import { pseudoLocaleAllowed, requestLocale } from "../portal/locale.server.ts";
import { usePortalText, type PortalLanguage } from "../portal/ui.tsx";
import { PAGE_HEADERS } from "../page-headers.ts";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: pageStyles },
  { rel: "stylesheet", href: portalStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: portalMessages.format(data?.locale ?? "en", "siteName") },
];

/** Every portal page (child routes inherit these): never framed, never cached (a buyer's plan and claims). */
export const headers: HeadersFunction = () => PAGE_HEADERS;

/**
 * The buyer's locale for every portal page (usePortalLocale, usePortalText): its words, money and dates; `htmlLang`
 * is the page's `<html lang>` (app/root.tsx), `languages` what the switcher offers.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const locale = await requestLocale(request);
  const language: PortalLanguage = {
    locale,
    htmlLang: htmlLang(locale),
    languages: languageChoices(pseudoLocaleAllowed()),
  };
  return json(language, { headers: PAGE_HEADERS });
}

export default function PortalLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = usePortalText();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const sentence = t(status === 403 ? "forbidden" : status === 404 ? "notFound" : "genericError");
  return (
    <div className="portal">
      <main id="main" className="portal-main">
        <h1>{t("siteName")}</h1>
        <p role="alert">{sentence}</p>
        <p>
          <a href="/portal">{t("lookup.title")}</a>
        </p>
      </main>
    </div>
  );
}
