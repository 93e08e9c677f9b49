import { Banner, BlockStack, Card, Link, List, Page, Text } from "@shopify/polaris";
import type { EnvProblem } from "../shopify.server.ts";

/** The admin in demo mode: what is missing, how to connect to Shopify, and how to try the API without it. */
export function DemoModePage({ problems }: { problems: EnvProblem[] }) {
  const names = [...new Set(problems.map((p) => p.name))];
  return (
    <Page title="Purchase Protection" subtitle="Demo mode: not connected to Shopify">
      <BlockStack gap="400">
        <Banner
          tone="warning"
          title={`Shopify is not configured: ${names.join(", ")} ${names.length === 1 ? "is" : "are"} missing or invalid`}
        >
          <p>
            The Shopify admin, installation and Shopify webhooks are switched off until these environment variables are
            set:
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
                Or set them yourself (client id and secret from the Partner Dashboard, the app's public https URL, and
                the scopes of <code>shopify.app.toml</code>, e.g.{" "}
                <code>read_orders,write_orders,read_products,write_products</code>) and restart the app.
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
              database, creates a test-mode demo merchant with its keys, starts the API and prints a copy-paste quote →
              confirm walkthrough.
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
      </BlockStack>
    </Page>
  );
}
