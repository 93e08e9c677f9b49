import { useActionData, useLoaderData } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  FormLayout,
  IndexTable,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
} from "@shopify/polaris";
import { useState } from "react";
import type { ApiKeySummary } from "../../../server/index.ts";
import type { KeysData } from "./keys.server.ts";
import { OutcomeBanners, refusalOf, ShownOnce, type FormOutcome } from "../page-parts.tsx";
import { DashboardForm, useAccess } from "../shell-context.tsx";
import { formatTime } from "../../components/dashboard/format.ts";

type KeysResult = FormOutcome<{ revealed?: { display: string; secret: string } }>;

const KIND_LABEL: Record<ApiKeySummary["kind"], string> = {
  secret: "Secret (mch_)",
  restricted: "Restricted (rk_)",
  publishable: "Publishable (wk_)",
};

function KeyState({ apiKey }: { apiKey: ApiKeySummary }) {
  if (apiKey.state === "active") return <Badge tone="success">Active</Badge>;
  if (apiKey.state === "expiring") return <Badge tone="attention">{`Works until ${formatTime(apiKey.endsAt!)}`}</Badge>;
  return <Badge>Revoked</Badge>;
}

/** Rotate (a kind the viewer may mint) and revoke (any key) for a key still in force. */
function KeyActions({ apiKey, mayRotate }: { apiKey: ApiKeySummary; mayRotate: boolean }) {
  const [overlap, setOverlap] = useState("24h");
  if (apiKey.state === "revoked") return null;
  return (
    <InlineStack gap="200" blockAlign="end">
      {apiKey.state === "active" && mayRotate ? (
        <DashboardForm>
          <input type="hidden" name="intent" value="rotate" />
          <input type="hidden" name="keyId" value={apiKey.id} />
          <InlineStack gap="200" blockAlign="end">
            <Select
              label={`Old ${apiKey.display} keeps working for`}
              name="overlap"
              value={overlap}
              onChange={setOverlap}
              options={[
                { label: "No overlap", value: "none" },
                { label: "1 hour", value: "1h" },
                { label: "24 hours", value: "24h" },
                { label: "7 days", value: "7d" },
              ]}
            />
            <Button submit>Rotate</Button>
          </InlineStack>
        </DashboardForm>
      ) : null}
      <DashboardForm>
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="keyId" value={apiKey.id} />
        <Button submit tone="critical" accessibilityLabel={`Revoke now: ${apiKey.display}`}>
          Revoke now
        </Button>
      </DashboardForm>
    </InlineStack>
  );
}

export function KeysPage() {
  // In the Shopify admin: the keys the app holds for the shop's orders and storefront (app/routes/app.developers.keys.tsx).
  const { keys, mintable, appKeys = [] } = useLoaderData() as unknown as KeysData & { appKeys?: string[] };
  const result = useActionData() as KeysResult | undefined;
  const { canChange } = useAccess();
  const kinds = (Object.keys(KIND_LABEL) as ApiKeySummary["kind"][]).filter((each) => mintable.includes(each));
  const [kind, setKind] = useState<string>(kinds[0] ?? "publishable");
  const [mode, setMode] = useState("test");
  const failure = refusalOf(result);
  return (
    <Page title="API keys" subtitle="Minted, rotated and revoked only here: no API offers it.">
      <Layout>
        {result?.ok && result.revealed ? (
          <ShownOnce
            title="Copy the key now: it is shown only once"
            label={`New key ${result.revealed.display}`}
            value={result.revealed.secret}
            advice="After you leave this page only its last four characters are shown. Store it in your server's secrets."
          />
        ) : null}
        <OutcomeBanners outcome={result} />
        {canChange("keys") ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Mint a key
                </Text>
                <Text as="p">
                  Test keys see only test data and live keys only live data. Live keys work once you have gone live.
                </Text>
                <DashboardForm>
                  <input type="hidden" name="intent" value="mint" />
                  <FormLayout>
                    <FormLayout.Group>
                      <Select
                        label="Kind"
                        name="kind"
                        value={kind}
                        onChange={setKind}
                        error={failure?.form === "mint" ? failure.errors.kind : undefined}
                        options={kinds.map((each) => ({ label: KIND_LABEL[each], value: each }))}
                        helpText={
                          kinds.includes("restricted")
                            ? "A restricted key (servers only) calls every API route but those that move money: it cannot void, report refunds, resolve claims or refund fees."
                            : undefined
                        }
                      />
                      <Select
                        label="Mode"
                        name="mode"
                        value={mode}
                        onChange={setMode}
                        error={failure?.form === "mint" ? failure.errors.mode : undefined}
                        options={[
                          { label: "Test", value: "test" },
                          { label: "Live", value: "live" },
                        ]}
                      />
                    </FormLayout.Group>
                    <Button submit variant="primary">
                      Mint the key
                    </Button>
                  </FormLayout>
                </DashboardForm>
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <IndexTable
              resourceName={{ singular: "key", plural: "keys" }}
              itemCount={keys.length}
              selectable={false}
              headings={[
                { title: "Key" },
                { title: "Kind" },
                { title: "State" },
                { title: "Created" },
                { title: "Actions" },
              ]}
              emptyState={<Text as="p">No keys yet: mint a test secret key to start.</Text>}
            >
              {keys.map((apiKey, index) => (
                <IndexTable.Row id={apiKey.id} key={apiKey.id} position={index}>
                  <IndexTable.Cell>
                    <InlineStack gap="200" blockAlign="center">
                      <Text as="span" fontWeight="semibold">
                        <code>{apiKey.display}</code>
                      </Text>
                      {appKeys.includes(apiKey.display) ? <Badge tone="info">Held by the Shopify app</Badge> : null}
                    </InlineStack>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{KIND_LABEL[apiKey.kind]}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <KeyState apiKey={apiKey} />
                  </IndexTable.Cell>
                  <IndexTable.Cell>{formatTime(apiKey.createdAt)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {canChange("keys") && !appKeys.includes(apiKey.display) ? (
                      <KeyActions apiKey={apiKey} mayRotate={mintable.includes(apiKey.kind)} />
                    ) : null}
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
