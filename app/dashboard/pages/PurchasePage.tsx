import { useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, Layout, Page, Text } from "@shopify/polaris";
import type { PurchaseData } from "./purchases.server.ts";
import { OutcomeBanners, type FormOutcome } from "../page-parts.tsx";
import { DashboardForm, useAccess, useDashboardHref } from "../shell-context.tsx";
import { PurchaseStatus } from "./PurchasesPage.tsx";
import { formatMoney, formatTime } from "../../components/dashboard/format.ts";

function Facts({ facts }: { facts: [string, string][] }) {
  return (
    <dl className="facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function PurchasePage() {
  const { purchase } = useLoaderData() as unknown as PurchaseData;
  const result = useActionData() as FormOutcome | undefined;
  const { canChange } = useAccess();
  const href = useDashboardHref();
  const consent = purchase.consent;
  return (
    <Page
      title={purchase.referenceNumber}
      subtitle={`Order ${purchase.orderId}`}
      backAction={{ content: "Purchases", url: href("purchases") }}
      titleMetadata={<PurchaseStatus purchase={purchase} />}
    >
      <Layout>
        <OutcomeBanners outcome={result} />
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Protection
              </Text>
              <Facts
                facts={[
                  ["Fee", formatMoney(purchase.feeCents, purchase.currency)],
                  ["Covered amount", formatMoney(purchase.coveredAmountCents, purchase.currency)],
                  ["Purchased", formatTime(purchase.purchasedAt)],
                  ["Free look ends", formatTime(purchase.freeLookEndsAt)],
                  ...(purchase.voidedAt
                    ? [
                        ["Voided", `${formatTime(purchase.voidedAt)} (${purchase.voidReason ?? "—"})`] as [
                          string,
                          string,
                        ],
                      ]
                    : []),
                  ...(purchase.cancelledAt
                    ? [["Cancelled by the buyer", formatTime(purchase.cancelledAt)] as [string, string]]
                    : []),
                ]}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
        {consent ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Consent record
                </Text>
                <Facts
                  facts={[
                    ["Accepted", formatTime(consent.acceptedAt)],
                    ["Where", consent.surface],
                    ["Quote", consent.quoteId],
                    ["Fee shown", formatMoney(consent.feeCents, consent.currency)],
                    ["Covered reasons", consent.coveredReasons.join(", ")],
                    ["Terms", consent.termsUrl],
                  ]}
                />
                <Text as="h3" variant="headingSm">
                  Disclosure the buyer accepted
                </Text>
                <Text as="p">{consent.disclosureText}</Text>
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        {purchase.status === "active" && canChange("purchases") ? (
          <Layout.Section>
            <Card>
              <DashboardForm>
                <input type="hidden" name="purchaseId" value={purchase.id} />
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Void
                  </Text>
                  <Text as="p">
                    Void the protection when the order is cancelled before it ships. The buyer is not charged for it.
                  </Text>
                  <div>
                    <Button submit tone="critical">
                      Void this protection
                    </Button>
                  </div>
                </BlockStack>
              </DashboardForm>
            </Card>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
