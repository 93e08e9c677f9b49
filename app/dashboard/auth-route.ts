// The stylesheets, title and headers of every standalone dashboard page, signed in or not (app/routes/dashboard.tsx and the
// sign-up / sign-in routes): never cached, never framed, no Referer beyond this origin (sign-in links carry tokens).
import type { HeadersFunction, LinksFunction, MetaFunction } from "@remix-run/node";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import dashboardStyles from "./dashboard.css?url";
import { PAGE_HEADERS } from "../page-headers.ts";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: dashboardStyles },
];

export const headers: HeadersFunction = () => PAGE_HEADERS;

export const meta: MetaFunction = () => [
  { title: "Dashboard · Purchase Protection" },
  { name: "robots", content: "noindex" },
];
