import { Banner, BlockStack, Card, Link, List, Page, Text } from "@shopify/polaris";
import type { EnvProblem } from "../shopify.server.ts";

/** The pages `npm run demo` serves beside this one (DEMO=on). */
const DEMO_PAGES = [
  { href: "/demo", title: "Storefront demo", what: "a checkout page with the widget" },
  { href: "/portal", title: "Buyer portal", what: "coverage, free-look cancellation, claims" },
  { href: "/dashboard", title: "Merchant dashboard", what: "keys, program, purchases, claims, Go live" },
  { href: "/ops", title: "Claims console", what: "the claims team's queue" },
];

/**
 * The admin in demo mode: what is missing, how to connect to Shopify (with the SCOPES of shopify.app.toml, `scopes`;
 * null when the toml cannot be read), how to try the API without it and, while the demo runs, its other pages.
 */
export function DemoModePage({
  problems,
  scopes = null,
  demoRunning = false,
}: {
  problems: EnvProblem[];
  scopes?: string[] | null;
  demoRunning?: boolean;
}) {
  const names = [...new Set(problems.map((p) => p.name))];
  return (
    <main>
      <Page title="Purchase Protection" subtitle="Demo mode: not connected to Shopify">
        <BlockStack gap="400">
          <Banner
            tone="warning"
            title={`Shopify is not configured: ${names.join(", ")} ${names.length === 1 ? "is" : "are"} missing or invalid`}
          >
            <p>
              The Shopify admin, installation and Shopify webhooks are switched off until these environment variables
              are set:
            </p>
            <List type="bullet">
              {problems.map((p) => (
                <List.Item key={`${p.name}:${p.problem}`}>
                  <code>{p.name}</code> {p.problem}
                </List.Item>
              ))}
            </List>
          </Banner>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Connect to Shopify
              </Text>
              <List type="number">
                <List.Item>
                  Run <code>npm run dev</code> (<code>shopify app dev</code>): the Shopify CLI links the app in your
                  Partner account and sets <code>SHOPIFY_API_KEY</code>, <code>SHOPIFY_API_SECRET</code>,{" "}
                  <code>SHOPIFY_APP_URL</code> and <code>SCOPES</code> for you.
                </List.Item>
                <List.Item>
                  Or set them yourself and restart the app: the client id and secret from the Partner Dashboard, the
                  app's public https URL, and{" "}
                  {scopes ? (
                    <>
                      the {scopes.length} scopes of <code>shopify.app.toml</code>:
                      <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                        <code>SCOPES={scopes.join(",")}</code>
                      </pre>
                    </>
                  ) : (
                    <>
                      the scopes of <code>shopify.app.toml</code> (<code>[access_scopes] scopes</code>).
                    </>
                  )}
                </List.Item>
              </List>
            </BlockStack>
          </Card>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Try it without Shopify
              </Text>
              <p>
                The protection API works without Shopify. Run <code>npm run demo</code>: it migrates the local SQLite
                database, creates a test-mode demo merchant with its keys, starts the API and prints a copy-paste quote
                → confirm walkthrough.
              </p>
              <p>
                This app serves the same API at <code>/api/v1</code>; see{" "}
                <Link url="/api/v1/openapi.json" target="_blank">
                  the OpenAPI document
                </Link>
                .
              </p>
            </BlockStack>
          </Card>
          {demoRunning && (
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  The demo's pages
                </Text>
                <List type="bullet">
                  {DEMO_PAGES.map((page) => (
                    <List.Item key={page.href}>
                      <Link url={page.href}>{page.title}</Link> (<code>{page.href}</code>): {page.what}
                    </List.Item>
                  ))}
                </List>
                <p>
                  The sign-in links for the dashboard and the claims console are in the block <code>npm run demo</code>{" "}
                  printed.
                </p>
              </BlockStack>
            </Card>
          )}
        </BlockStack>
      </Page>
    </main>
  );
}
