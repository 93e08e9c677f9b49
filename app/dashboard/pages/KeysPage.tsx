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
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { ApiKeySummary } from "../../../server/index.ts";
import type { KeysData } from "./keys.server.ts";
import { ConfirmedAction, OutcomeBanners, refusalOf, ShownOnce, type FormOutcome } from "../page-parts.tsx";
import { DashboardForm, useAccess } from "../shell-context.tsx";
import { formatTime } from "../../components/dashboard/format.ts";

type KeysResult = FormOutcome<{ revealed?: { display: string; secret: string; label: string | null } }>;

/** "Checkout server (mch_live_…abcd)", or the display alone for a key without a label. */
const keyName = (apiKey: { display: string; label: string | null }) =>
  apiKey.label ? `${apiKey.label} (${apiKey.display})` : apiKey.display;

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
        // Without an overlap the old key stops at once, like a revocation: that one asks first.
        <ConfirmedAction
          action="Rotate"
          accessibilityLabel={`Rotate ${keyName(apiKey)}`}
          question={`Rotate ${keyName(apiKey)} with no overlap? The old key is refused from this moment: every page or server still using it stops working.`}
          confirmLabel="Yes, rotate it now"
          asksFirst={overlap === "none"}
        >
          <input type="hidden" name="intent" value="rotate" />
          <input type="hidden" name="keyId" value={apiKey.id} />
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
        </ConfirmedAction>
      ) : null}
      <ConfirmedAction
        action="Revoke now"
        accessibilityLabel={`Revoke now: ${keyName(apiKey)}`}
        question={`Revoke ${keyName(apiKey)} now? Every request made with it is refused from this moment, and it cannot be turned back on.`}
        confirmLabel="Yes, revoke it"
      >
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="keyId" value={apiKey.id} />
      </ConfirmedAction>
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
  const [label, setLabel] = useState(failure?.form === "mint" ? (failure.values.label ?? "") : "");
  // A key minted: the next one starts unnamed, so it does not take this one's label by accident (state adjusted
  // while rendering the new answer, as React advises, not in an effect).
  const [answered, setAnswered] = useState(result);
  if (result !== answered) {
    setAnswered(result);
    if (result?.ok && result.form === "mint") setLabel("");
  }
  return (
    <Page title="API keys" subtitle="Minted, rotated and revoked only here: no API offers it.">
      <Layout>
        {result?.ok && result.revealed ? (
          <ShownOnce
            title="Copy the key now: it is shown only once"
            label={`New key ${keyName(result.revealed)}`}
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
                    <TextField
                      label="Label"
                      name="label"
                      value={label}
                      onChange={setLabel}
                      autoComplete="off"
                      placeholder="Checkout server"
                      helpText="What the key is for, so the list below says which server or page holds it."
                      error={failure?.form === "mint" ? failure.errors.label : undefined}
                    />
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
                      <BlockStack gap="100">
                        {apiKey.label ? (
                          <Text as="span" fontWeight="semibold">
                            {apiKey.label}
                          </Text>
                        ) : null}
                        <Text as="span" fontWeight={apiKey.label ? undefined : "semibold"}>
                          <code>{apiKey.display}</code>
                        </Text>
                      </BlockStack>
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
