// The claims team's console (/ops/*): our pages' stylesheet plus its own, headers that keep its pages out of frames,
// caches and other sites' Referer, and the error page for what the pages throw (a refused POST, a reviewer on an
// admin page, a missing claim).
import type { HeadersFunction, LinksFunction, MetaFunction } from "@remix-run/node";
import { Outlet, useRouteError } from "@remix-run/react";
import pageStyles from "../ui/pages.css?url";
import opsStyles from "../ops/ops.css?url";
import { PAGE_HEADERS } from "../page-headers.ts";
import { routeErrorText } from "../ui/route-error.ts";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: pageStyles },
  { rel: "stylesheet", href: opsStyles },
];

export const meta: MetaFunction = () => [{ title: "Claims console" }, { name: "robots", content: "noindex" }];

/** Every console page (child routes inherit these); a sign-in link's token never leaves in a Referer. */
export const headers: HeadersFunction = () => PAGE_HEADERS;

export default function OpsLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const { sentence } = routeErrorText(useRouteError());
  return (
    <div className="portal ops">
      <main id="main" className="ops-main">
        <h1>Claims console</h1>
        <p role="alert">{sentence}</p>
        <p>
          <a href="/ops">Back to the queue</a>
        </p>
      </main>
    </div>
  );
}
