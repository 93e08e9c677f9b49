// The standalone merchant dashboard's layout (/dashboard/*): the signed-in member's shell — Polaris navigation
// listing only the pages their role may open (app/dashboard/access.ts), the mode banner and switch on every page, and
// sign out everywhere. Pages render inside it through DashboardShellProvider.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { Banner, BlockStack, Box, Button, InlineStack, Page, Text } from "@shopify/polaris";
import { standaloneShell } from "../dashboard/standalone.server.ts";
import { DashboardForm, DashboardShellProvider } from "../dashboard/shell-context.tsx";
import { ShellMain, useNavigation } from "../dashboard/ShellParts.tsx";
import { routeErrorText } from "../ui/route-error.ts";

export { links, headers, meta } from "../dashboard/auth-route.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  const { shell, member } = await standaloneShell(request);
  return json({ shell, email: member.email });
}

function Navigation() {
  return (
    <nav aria-label="Dashboard" className="dashboard-nav">
      <ul>
        {useNavigation().map((link) => (
          <li key={link.page}>
            <a href={link.href} aria-current={link.current ? "page" : undefined}>
              {link.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default function DashboardLayout() {
  const { shell, email } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp={false} apiKey="">
      <DashboardShellProvider value={shell}>
        <div className="dashboard">
          <a className="skip-link" href="#main">
            Skip to content
          </a>
          <header className="dashboard-header">
            <Box padding="400">
              <InlineStack align="space-between" blockAlign="center" gap="300">
                <Text as="p" variant="headingMd">
                  {shell.merchantName}
                </Text>
                <InlineStack gap="300" blockAlign="center">
                  <Text as="p" tone="subdued">
                    {`${email} · ${shell.role}`}
                  </Text>
                  <DashboardForm action={`${shell.basePath}/sign-out`}>
                    <Button submit>Sign out everywhere</Button>
                  </DashboardForm>
                </InlineStack>
              </InlineStack>
            </Box>
            <Navigation />
          </header>
          <ShellMain />
        </div>
      </DashboardShellProvider>
    </AppProvider>
  );
}

export function ErrorBoundary() {
  const { status, sentence } = routeErrorText(useRouteError());
  return (
    <AppProvider isEmbeddedApp={false} apiKey="">
      <main id="main">
        <Page title="Dashboard">
          <BlockStack gap="300">
            <Banner tone="critical" title={status === 403 ? "Not allowed" : "Something went wrong"}>
              <p role="alert">{sentence}</p>
            </Banner>
            <Text as="p">
              <a href="/dashboard">Back to the dashboard</a>
            </Text>
          </BlockStack>
        </Page>
      </main>
    </AppProvider>
  );
}
