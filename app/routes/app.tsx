// The embedded dashboard's layout (/app, inside the Shopify admin): authenticate.admin + App Bridge, as in Shopify's
// template, with App Bridge's navigation menu listing the dashboard's pages (app/dashboard/access.ts) and the mode
// banner on every page. The pages are the standalone dashboard's (app/dashboard/pages), under the embedded shell
// (app/dashboard/embedded.server.ts). Without Shopify credentials (demo mode): a page naming what is missing, the
// SCOPES shopify.app.toml asks for and, in `npm run demo`, the demo's other pages.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";
import { Card, Page, Text } from "@shopify/polaris";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import dashboardStyles from "../dashboard/dashboard.css?url";
import { shopifyEnvProblems } from "../shopify.server.ts";
import { embeddedShell } from "../dashboard/embedded.server.ts";
import { DashboardShellProvider } from "../dashboard/shell-context.tsx";
import { ShellMain, useNavigation } from "../dashboard/ShellParts.tsx";
import { DemoModePage } from "../components/DemoModePage.tsx";
import { protectionRuntime } from "../protection-api.server.ts";
import { shopifyAppTomlScopes } from "../shopify/app-toml-scopes.server.ts";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: dashboardStyles },
];

export const meta: MetaFunction = () => [{ title: "Purchase Protection" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const problems = shopifyEnvProblems();
  if (problems.length > 0) {
    const setup = { scopes: shopifyAppTomlScopes(), demoRunning: protectionRuntime().config.DEMO === "on" };
    return { demo: true as const, problems, setup, apiKey: "", shell: null };
  }
  return {
    demo: false as const,
    problems,
    setup: null,
    apiKey: process.env.SHOPIFY_API_KEY ?? "",
    shell: await embeddedShell(request),
  };
}

// Inside the admin, App Bridge moves the menu's links into the admin's own navigation; the landmark around it is what
// a page without App Bridge (its script unreachable) shows them in.
function Navigation() {
  return (
    <nav aria-label="Dashboard">
      <NavMenu>
        {useNavigation().map((link) => (
          <Link key={link.page} to={link.href} rel={link.home ? "home" : undefined}>
            {link.title}
          </Link>
        ))}
      </NavMenu>
    </nav>
  );
}

export default function AdminLayout() {
  const { demo, problems, setup, apiKey, shell } = useLoaderData<typeof loader>();
  if (demo) {
    return (
      <AppProvider isEmbeddedApp={false} apiKey="">
        <DemoModePage problems={problems} {...setup} />
      </AppProvider>
    );
  }
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey}>
      {shell ? (
        <DashboardShellProvider value={shell}>
          <Navigation />
          <ShellMain />
        </DashboardShellProvider>
      ) : (
        <Page title="Purchase Protection">
          <Card>
            <Text as="p">The app is being set up for this shop. Reload the page in a moment.</Text>
          </Card>
        </Page>
      )}
    </AppProvider>
  );
}

// Shopify's auth flow throws responses (redirects, bounce pages) whose headers must reach the browser.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
