import { useActionData, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import type { WebhookEndpointData } from "./webhook-endpoint.server.ts";
import { DashboardForm, useAccess, useDashboardHref } from "../shell-context.tsx";
import { NextPage, OutcomeBanners, refusalOf, TableCard, type FormOutcome } from "../page-parts.tsx";
import { EndpointForm } from "./WebhooksPage.tsx";
import { formatTime } from "../../components/dashboard/format.ts";
import { deliveryOutcomeLabel, endpointStatusLabel } from "../labels.ts";

export function WebhookEndpointPage() {
  const { endpoint, attempts, nextAfter, eventTypes } = useLoaderData() as unknown as WebhookEndpointData;
  const result = useActionData() as FormOutcome | undefined;
  const failure = refusalOf(result);
  const { canChange } = useAccess();
  const href = useDashboardHref();
  return (
    <Page
      title={endpoint.url}
      subtitle={endpoint.events.includes("*") ? "All events" : endpoint.events.join(", ")}
      backAction={{ content: "Webhooks", url: href("webhooks") }}
      titleMetadata={
        <Badge tone={endpoint.status === "enabled" ? "success" : "critical"}>
          {endpointStatusLabel(endpoint.status)}
        </Badge>
      }
    >
      <Layout>
        <OutcomeBanners outcome={result} />
        {canChange("webhooks") ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Endpoint
                </Text>
                <EndpointForm
                  // A saved change comes back in the loader's data: the form starts from it again.
                  key={`${endpoint.url} ${endpoint.events.join(",")} ${endpoint.status}`}
                  intent="update"
                  eventTypes={eventTypes}
                  failure={failure?.form === "update" ? failure : undefined}
                  initial={{ url: endpoint.url, events: endpoint.events, enabled: endpoint.status !== "disabled" }}
                  submitLabel="Save the endpoint"
                />
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        {canChange("webhooks") ? (
          <Layout.Section>
            <Card>
              <DashboardForm>
                <input type="hidden" name="intent" value="test" />
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Test event
                  </Text>
                  <Text as="p">
                    Sends this endpoint a signed webhook_endpoint.test event whose data is the endpoint itself, to check
                    your receiver before real events arrive. It is sent to no other endpoint.
                  </Text>
                  <InlineStack>
                    <Button submit>Send a test event</Button>
                  </InlineStack>
                </BlockStack>
              </DashboardForm>
            </Card>
          </Layout.Section>
        ) : null}
        <TableCard
          label="Deliveries"
          headings={["When", "Event", "Outcome", "Status", "Latency", "Answer or error", "Again"]}
          rowCount={attempts.length}
          empty="No deliveries yet."
        >
          {attempts.map((attempt) => (
            <tr key={attempt.id}>
              <td>{formatTime(attempt.attemptedAt)}</td>
              <td>
                <code>{attempt.eventId}</code>
              </td>
              <td>
                <Badge tone={attempt.outcome === "succeeded" ? "success" : "critical"}>
                  {deliveryOutcomeLabel(attempt.outcome)}
                </Badge>
              </td>
              <td>{attempt.statusCode ?? "—"}</td>
              <td>{`${attempt.durationMs} ms`}</td>
              <td className="excerpt">{attempt.error ?? attempt.responseExcerpt ?? ""}</td>
              <td>
                {canChange("webhooks") ? (
                  <DashboardForm>
                    <input type="hidden" name="eventId" value={attempt.eventId} />
                    <Button submit accessibilityLabel={`Send again: ${attempt.eventId}`}>
                      Send again
                    </Button>
                  </DashboardForm>
                ) : null}
              </td>
            </tr>
          ))}
        </TableCard>
        <NextPage href={href("webhooks", `/${endpoint.id}`)} filters={{}} after={nextAfter} label="Older deliveries" />
      </Layout>
    </Page>
  );
}
