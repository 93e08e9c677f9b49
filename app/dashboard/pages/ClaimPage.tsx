import { useActionData, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, FormLayout, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { ClaimData } from "./claim.server.ts";
import { DashboardForm, useAccess, useDashboardHref } from "../shell-context.tsx";
import { DownloadLink, OutcomeBanners, refusalOf, type FormOutcome } from "../page-parts.tsx";
import { formatMoney, formatTime } from "../../components/dashboard/format.ts";
import { claimStatusLabel, reasonLabel, remedyLabel, timelineKindLabel } from "../labels.ts";

export function ClaimPage() {
  const { claim, title, reasonNames } = useLoaderData() as unknown as ClaimData;
  const result = useActionData() as FormOutcome | undefined;
  const failure = refusalOf(result);
  const { canChange } = useAccess();
  const href = useDashboardHref();
  const remedy = claim.resolution?.remedy ?? "refund";
  const [kind, setKind] = useState<string>(failure?.values.kind ?? remedy);
  const [amount, setAmount] = useState(failure?.values.amount ?? "");
  const [reference, setReference] = useState(failure?.values.reference ?? "");
  const files = (id: string) => href("claims", `/${claim.id}/evidence/${id}`);
  return (
    <Page
      title={title}
      subtitle={`${reasonLabel(reasonNames, claim.reason)} · order ${claim.orderId}`}
      backAction={{ content: "Claims", url: href("claims") }}
      titleMetadata={<Badge>{claimStatusLabel(claim.status)}</Badge>}
    >
      <Layout>
        <OutcomeBanners outcome={result} />
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                What the buyer asked for
              </Text>
              <dl className="facts">
                <div>
                  <dt>Amount</dt>
                  <dd>{formatMoney(claim.amountCents, claim.currency)}</dd>
                </div>
                <div>
                  <dt>Happened</dt>
                  <dd>{formatTime(claim.occurredAt)}</dd>
                </div>
                <div>
                  <dt>Filed</dt>
                  <dd>{formatTime(claim.createdAt)}</dd>
                </div>
                <div>
                  <dt>Decision</dt>
                  <dd>
                    {claim.decision
                      ? `${claim.decision.message} (${claim.decision.decidedBy === "rule" ? "by your rules" : "by the claims team"}, ${formatTime(claim.decision.decidedAt)})`
                      : "not yet"}
                  </dd>
                </div>
              </dl>
              <Text as="p">{claim.description}</Text>
              {claim.evidence.length > 0 ? (
                <ul>
                  {claim.evidence.map((file) => (
                    <li key={file.id}>
                      <DownloadLink href={files(file.id)} fileName={file.fileName}>
                        {`${file.fileName} (${Math.ceil(file.byteSize / 1024)} KB)`}
                      </DownloadLink>
                    </li>
                  ))}
                </ul>
              ) : (
                <Text as="p" tone="subdued">
                  No files.
                </Text>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Timeline
              </Text>
              <ol className="timeline">
                {claim.timeline.map((entry) => (
                  <li key={entry.id}>
                    <Text
                      as="p"
                      tone="subdued"
                    >{`${formatTime(entry.at)} · ${timelineKindLabel(entry.kind)}${entry.status ? ` · ${claimStatusLabel(entry.status)}` : ""}`}</Text>
                    {entry.text ? <Text as="p">{entry.text}</Text> : null}
                  </li>
                ))}
              </ol>
            </BlockStack>
          </Card>
        </Layout.Section>
        {claim.status === "approved" && claim.resolution?.channel === "shopify" ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Paid on the Shopify order
                </Text>
                <Text as="p">{`Approved: ${remedyLabel(claim.resolution.remedy)} of ${formatMoney(claim.resolution.amountCents, claim.resolution.currency)}. The app makes it on the Shopify order and marks the claim paid; there is nothing to confirm.`}</Text>
                {claim.resolution.error ? (
                  <Text as="p" tone="critical">{`The last attempt failed: ${claim.resolution.error}`}</Text>
                ) : null}
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        {claim.status === "approved" && claim.resolution?.channel === "merchant" && canChange("claims") ? (
          <Layout.Section>
            <Card>
              <DashboardForm noValidate>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Confirm what you did
                  </Text>
                  <Text as="p">{`Approved: ${remedyLabel(claim.resolution.remedy)} of ${formatMoney(claim.resolution.amountCents, claim.resolution.currency)}. Once you have paid or reshipped, confirm it here: the buyer is told and the amount is owed to you on your next statement.`}</Text>
                  <FormLayout>
                    <FormLayout.Group>
                      <Select
                        label="What you did"
                        name="kind"
                        value={kind}
                        onChange={setKind}
                        error={failure?.errors.kind}
                        options={[
                          { label: "Refunded the buyer", value: "refund" },
                          { label: "Sent a replacement", value: "replacement" },
                        ]}
                      />
                      <TextField
                        label={`Amount (${claim.resolution.currency})`}
                        name="amount"
                        value={amount}
                        onChange={setAmount}
                        autoComplete="off"
                        inputMode="decimal"
                        placeholder={formatMoney(claim.resolution.amountCents, claim.resolution.currency)}
                        helpText="Empty: the approved amount. A replacement: what the goods you sent are worth."
                        error={failure?.errors.amount}
                      />
                      <TextField
                        label="Your reference"
                        name="reference"
                        value={reference}
                        onChange={setReference}
                        autoComplete="off"
                        error={failure?.errors.reference}
                      />
                    </FormLayout.Group>
                    <Button submit variant="primary">
                      Confirm
                    </Button>
                  </FormLayout>
                </BlockStack>
              </DashboardForm>
            </Card>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
