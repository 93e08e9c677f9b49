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
import { messages } from "../portal/messages.ts";
import { localeFrom } from "../portal/locale.ts";
import { PAGE_HEADERS } from "../page-headers.ts";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: pageStyles },
  { rel: "stylesheet", href: portalStyles },
];

export const meta: MetaFunction = () => [{ title: messages.siteName }];

/** Every portal page (child routes inherit these): never framed, never cached (a buyer's plan and claims). */
export const headers: HeadersFunction = () => PAGE_HEADERS;

/** The buyer's locale for every portal page (usePortalLocale): money and dates are written their way. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  json({ locale: localeFrom(request.headers.get("Accept-Language")) }, { headers: PAGE_HEADERS });

export default function PortalLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const sentence = status === 403 ? messages.forbidden : status === 404 ? messages.notFound : messages.genericError;
  return (
    <div className="portal">
      <main id="main" className="portal-main">
        <h1>{messages.siteName}</h1>
        <p role="alert">{sentence}</p>
        <p>
          <a href="/portal">{messages.lookup.title}</a>
        </p>
      </main>
    </div>
  );
}
