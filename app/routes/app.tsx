// The embedded admin's layout. With Shopify credentials: authenticate.admin + App Bridge, as in Shopify's template.
// Without them (demo mode): a page naming what is missing, in place of the admin pages.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { authenticateAdmin, shopifyEnvProblems } from "../shopify.server.ts";
import { DemoModePage } from "../components/DemoModePage.tsx";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const problems = shopifyEnvProblems();
  if (problems.length > 0) return { demo: true, problems, apiKey: "" };
  await authenticateAdmin(request);
  return { demo: false, problems, apiKey: process.env.SHOPIFY_API_KEY ?? "" };
}

export default function AdminLayout() {
  const { demo, problems, apiKey } = useLoaderData<typeof loader>();
  if (demo) {
    return (
      <AppProvider isEmbeddedApp={false} apiKey="">
        <DemoModePage problems={problems} />
      </AppProvider>
    );
  }
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey}>
      <Outlet />
    </AppProvider>
  );
}

// Shopify's auth flow throws responses (redirects, bounce pages) whose headers must reach the browser.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
