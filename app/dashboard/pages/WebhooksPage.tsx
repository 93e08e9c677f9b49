import { useActionData, useLoaderData } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  Checkbox,
  FormLayout,
  IndexTable,
  InlineStack,
  Layout,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import type { WebhookEndpoint } from "../../../server/index.ts";
import type { WebhooksData } from "./webhooks.server.ts";
import type { ActionFailure } from "../../form-actions.server.ts";
import { ConfirmedAction, OutcomeBanners, refusalOf, ShownOnce, type FormOutcome } from "../page-parts.tsx";
import { endpointStatusLabel } from "../labels.ts";
import { DashboardForm, useAccess, useDashboardHref, useDashboardShell } from "../shell-context.tsx";
import { formatTime } from "../../components/dashboard/format.ts";

type WebhooksResult = FormOutcome<{ revealed?: { url: string; secret: string } }>;

function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.status === "enabled") return <Badge tone="success">{endpointStatusLabel("enabled")}</Badge>;
  if (endpoint.status === "failing")
    return (
      <Badge tone="critical">{`${endpointStatusLabel("failing")} since ${formatTime(endpoint.failingSince ?? endpoint.updatedAt)}`}</Badge>
    );
  return <Badge>{endpointStatusLabel(endpoint.status)}</Badge>;
}

/**
 * An endpoint's URL and events: "Add an endpoint" here, and the endpoint's own page where it also says whether events
 * are sent to it (a failing or disabled endpoint starts again when enabled). Saving never changes the secret.
 */
export function EndpointForm({
  intent,
  eventTypes,
  failure,
  initial,
  submitLabel,
}: {
  intent: "create" | "update";
  eventTypes: readonly string[];
  failure?: ActionFailure;
  initial?: { url: string; events: readonly string[]; enabled: boolean };
  submitLabel: string;
}) {
  const [url, setUrl] = useState(failure?.values.url ?? initial?.url ?? "");
  const [all, setAll] = useState(initial ? initial.events.includes("*") : true);
  const [chosen, setChosen] = useState<string[]>(initial ? initial.events.filter((type) => type !== "*") : []);
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const toggle = (type: string) => (checked: boolean) =>
    setChosen((current) => (checked ? [...current, type] : current.filter((value) => value !== type)));
  return (
    <DashboardForm noValidate>
      <input type="hidden" name="intent" value={intent} />
      <FormLayout>
        <TextField
          label="Endpoint URL"
          name="url"
          type="url"
          value={url}
          onChange={setUrl}
          autoComplete="off"
          placeholder="https://example.com/webhooks/protection"
          error={failure?.errors.url}
        />
        <fieldset className="event-types">
          <legend>Events to send</legend>
          <Checkbox label="All events" name="events" value="*" checked={all} onChange={setAll} />
          {!all
            ? eventTypes.map((type) => (
                <Checkbox
                  key={type}
                  label={type}
                  name="events"
                  value={type}
                  checked={chosen.includes(type)}
                  onChange={toggle(type)}
                />
              ))
            : null}
          {failure?.errors.events ? (
            <Text as="p" tone="critical">
              {failure.errors.events}
            </Text>
          ) : null}
        </fieldset>
        {initial ? (
          <>
            <input type="hidden" name="status" value={enabled ? "enabled" : "disabled"} />
            <Checkbox
              label="Send events to this endpoint"
              helpText="Turning it on again restarts delivery to a failing or disabled endpoint."
              checked={enabled}
              onChange={setEnabled}
            />
          </>
        ) : null}
        <Button submit variant="primary">
          {submitLabel}
        </Button>
      </FormLayout>
    </DashboardForm>
  );
}

export function WebhooksPage() {
  const { endpoints, eventTypes } = useLoaderData() as unknown as WebhooksData;
  const result = useActionData() as WebhooksResult | undefined;
  const { canChange } = useAccess();
  const { mode } = useDashboardShell();
  const href = useDashboardHref();
  const failure = refusalOf(result);
  return (
    <Page title="Webhooks" subtitle={`Endpoints that receive your ${mode}-mode events, signed with their secret`}>
      <Layout>
        {result?.ok && result.revealed ? (
          <ShownOnce
            title="Copy the signing secret now: it is shown only once"
            label={`Signing secret of ${result.revealed.url}`}
            value={result.revealed.secret}
            advice="Verify each delivery's X-Service-Signature with it (the SDKs' verifyWebhook does)."
          />
        ) : null}
        <OutcomeBanners outcome={result} />
        {canChange("webhooks") ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Add an endpoint
                </Text>
                <EndpointForm
                  intent="create"
                  eventTypes={eventTypes}
                  failure={failure?.form === "create" ? failure : undefined}
                  submitLabel="Add the endpoint"
                />
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <IndexTable
              resourceName={{ singular: "endpoint", plural: "endpoints" }}
              itemCount={endpoints.length}
              selectable={false}
              headings={[{ title: "URL" }, { title: "Events" }, { title: "Status" }, { title: "Actions" }]}
              emptyState={<Text as="p">No endpoints yet.</Text>}
            >
              {endpoints.map((endpoint, index) => (
                <IndexTable.Row id={endpoint.id} key={endpoint.id} position={index}>
                  <IndexTable.Cell>
                    <a href={href("webhooks", `/${endpoint.id}`)}>
                      <code>{endpoint.url}</code>
                    </a>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {endpoint.events.includes("*") ? "All events" : endpoint.events.join(", ")}
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <EndpointStatus endpoint={endpoint} />
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {canChange("webhooks") ? (
                      <InlineStack gap="200">
                        <DashboardForm>
                          <input type="hidden" name="intent" value="rotate" />
                          <input type="hidden" name="endpointId" value={endpoint.id} />
                          <Button submit accessibilityLabel={`Rotate the secret of ${endpoint.url}`}>
                            Rotate the secret
                          </Button>
                        </DashboardForm>
                        <ConfirmedAction
                          action="Delete"
                          accessibilityLabel={`Delete ${endpoint.url}`}
                          question={`Delete the endpoint ${endpoint.url}? Nothing more is sent to it, and its deliveries log and signing secret go with it.`}
                          confirmLabel="Yes, delete it"
                        >
                          <input type="hidden" name="intent" value="delete" />
                          <input type="hidden" name="endpointId" value={endpoint.id} />
                        </ConfirmedAction>
                      </InlineStack>
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
