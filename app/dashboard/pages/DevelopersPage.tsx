import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, DescriptionList, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import type { DevelopersData } from "./developers.server.ts";
import { CopyButton } from "../page-parts.tsx";
import { Snippet } from "../GettingStarted.tsx";
import { useDashboardHref } from "../shell-context.tsx";
import { apiBaseOf } from "../snippets.ts";
import { formatBps, formatMoney } from "../../components/dashboard/format.ts";

/** An id or URL the integrator copies: shown whole (wrapped, never cut) with its copy button. */
function CopyableValue({ label, value, name }: { label: string; value: string; name: string }) {
  return (
    <BlockStack gap="100">
      <Text as="h3" variant="headingSm">
        {label}
      </Text>
      <InlineStack gap="200" blockAlign="center" wrap>
        <code className="snippet-inline" data-value={name}>
          {value}
        </code>
        <CopyButton value={value} label={`Copy the ${label.charAt(0).toLowerCase()}${label.slice(1)}`} />
      </InlineStack>
    </BlockStack>
  );
}

/** Minor units of every currency the program takes: "$1.00 · €1.00 · £1.00" (terms apply in the order's currency). */
type ListedProgram = DevelopersData["programs"][number];

/** A limit of each of the program's currencies, each in its own money ("$1.00 · ¥150 · KWD 0.300"). */
const inEach = (program: ListedProgram, limit: "minFeeCents" | "maxCoveredCents") =>
  program.currencies
    .map((currency) =>
      formatMoney(program.currencyLimits[currency as keyof ListedProgram["currencyLimits"]]?.[limit] ?? 0, currency),
    )
    .join(" · ");

const TS_VERIFY = `// Express: keep the raw body — the signature covers the exact bytes.
app.post("/hooks/protection", express.raw({ type: "application/json" }), async (req, res) => {
  const ok = await client.webhooks.verifyWebhook(
    req.body,
    req.get("X-Service-Signature"),
    process.env.PROTECTION_WEBHOOK_SECRET!, // the endpoint's whsec_… secret
  );
  if (!ok) return res.sendStatus(400);
  const event = JSON.parse(req.body.toString("utf8"));
  res.sendStatus(200); // deduplicate on X-Service-Event-Id: retries resend the same event
});`;

const PHP_VERIFY = `$rawBody = file_get_contents('php://input'); // the exact bytes: the signature covers them
$header = $_SERVER['HTTP_X_SERVICE_SIGNATURE'] ?? null;
if (!$client->webhooks->verifyWebhook($rawBody, $header, getenv('PROTECTION_WEBHOOK_SECRET'))) {
    http_response_code(400);
    exit;
}
$event = json_decode($rawBody, true);`;

export function DevelopersPage() {
  const { merchantId, mode, origin, programs } = useLoaderData() as unknown as DevelopersData;
  const href = useDashboardHref();
  return (
    <Page title="Developers" subtitle={`What your integration needs, in ${mode} mode`}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                Your account
              </Text>
              <CopyableValue label="Merchant id" value={merchantId} name="merchant-id" />
              <CopyableValue label="API base URL" value={apiBaseOf(origin)} name="api-base" />
              <Text as="p">
                Every request sends a key: <code>Authorization: Bearer mch_{mode}_…</code> from your server, the
                publishable <code>wk_{mode}_…</code> key from the widget. Keys are on{" "}
                <a href={href("keys")}>API keys</a>; endpoints and their signing secrets on{" "}
                <a href={href("webhooks")}>Webhooks</a>. The OpenAPI document is at{" "}
                <code>{`${apiBaseOf(origin)}/openapi.json`}</code>.
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                Protection programs
              </Text>
              <Text as="p">
                Every quote names a program as <code>protection_program_id</code>; it prices the offer. Your server can
                read them too: <code>GET /programs</code> with your secret key.
              </Text>
              {programs.map((program) => (
                <BlockStack gap="200" key={program.id}>
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h3" variant="headingSm">
                      {program.name}
                    </Text>
                    {program.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}
                  </InlineStack>
                  <InlineStack gap="200" blockAlign="center" wrap>
                    <code className="snippet-inline" data-value="program-id">
                      {program.id}
                    </code>
                    <CopyButton value={program.id} label={`Copy the program id of ${program.name}`} />
                  </InlineStack>
                  <DescriptionList
                    items={[
                      { term: "Rate", description: `${formatBps(program.rateBps)} of the covered amount` },
                      { term: "Minimum fee", description: inEach(program, "minFeeCents") },
                      {
                        term: "Maximum covered amount",
                        description: inEach(program, "maxCoveredCents"),
                      },
                      { term: "Currencies", description: program.currencies.join(", ") },
                      {
                        term: "Product categories",
                        description:
                          program.productCategories.length === 0 ? "Any" : program.productCategories.join(", "),
                      },
                      { term: "Your share of each fee", description: formatBps(program.merchantShareBps) },
                      {
                        term: "Statements",
                        description: program.settlementPeriod === "weekly" ? "Weekly" : "Monthly",
                      },
                    ]}
                  />
                </BlockStack>
              ))}
              <Text as="p">
                Change the terms on <a href={href("program")}>Program</a>.
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                Verifying webhooks
              </Text>
              <Text as="p">
                Each delivery is a POST of the event as JSON with these headers. Verify the signature on the raw body
                before you parse it, and answer 2xx within 10 seconds; anything else is retried.
              </Text>
              <DescriptionList
                items={[
                  {
                    term: "X-Service-Event-Id",
                    description: "The event id (evt_…), the same on every retry: deduplicate on it.",
                  },
                  { term: "X-Service-Timestamp", description: "Unix seconds when this attempt was signed." },
                  {
                    term: "X-Service-Signature",
                    description:
                      "t=<unix seconds>,v1=<hex HMAC-SHA256 of t.rawBody under the endpoint's whsec_ secret>; two v1 for 24 h after a rotation.",
                  },
                ]}
              />
              <Text as="p">
                The SDKs check all of it: the HMAC in constant time, any v1, a timestamp within 300 seconds.
              </Text>
              <Snippet id="verify-typescript" title="TypeScript SDK: verify a delivery" text={TS_VERIFY} level="h3" />
              <Snippet id="verify-php" title="PHP SDK: verify a delivery" text={PHP_VERIFY} level="h3" />
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
