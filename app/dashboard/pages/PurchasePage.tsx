import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { PurchaseData } from "./purchases.server.ts";
import { OutcomeBanners, refusalOf, type FormOutcome } from "../page-parts.tsx";
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

/** What each e-mail to the buyer announces, as the merchant reads it. */
const EMAIL_NAMES: Record<PurchaseData["emails"][number]["template"], string> = {
  welcome_protected: "Protection active (welcome)",
  free_look_cancelled: "Cancelled in the free look",
  claim_received: "Claim received",
  claim_information_needed: "More information needed",
  claim_reopened: "Claim back under review (parcel moving again)",
  claim_decided: "Claim decided",
  claim_paid: "Claim paid",
};

function emailOutcome(email: PurchaseData["emails"][number]): string {
  switch (email.status) {
    case "sent":
      return `Sent ${formatTime(email.sentAt!)}`;
    case "pending":
      return "Waiting to be sent";
    case "skipped":
      return "Not sent: what it announced no longer held";
    case "failed":
      return "Not delivered: the mail server refused it after every retry";
    case "suppressed":
      return `Not sent: ${email.suppressedBecause}`;
  }
}

/** The buyer's e-mails: each with its outcome; one held back by a sending cap says which. */
function BuyerEmails({ emails }: { emails: PurchaseData["emails"] }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          E-mails to the buyer
        </Text>
        {emails.length === 0 ? (
          <Text as="p">None: the purchase has no buyer e-mail address.</Text>
        ) : (
          <Facts
            facts={emails.map((email) => [
              `${EMAIL_NAMES[email.template]}, ${formatTime(email.queuedAt)}`,
              emailOutcome(email),
            ])}
          />
        )}
      </BlockStack>
    </Card>
  );
}

/**
 * The protection fee owed back after a free-look cancellation: on another cart the merchant refunds it through their
 * own cart and confirms it here (the API's POST /purchases/{id}/fee-refund); a Shopify shop's is refunded by the app.
 */
function FeeRefundCard({
  purchase,
  canConfirm,
  result,
}: {
  purchase: PurchaseData["purchase"];
  canConfirm: boolean;
  result: FormOutcome | undefined;
}) {
  const refund = purchase.feeRefund!;
  const failure = refusalOf(result)?.form === "fee_refund" ? refusalOf(result) : undefined;
  const [reference, setReference] = useState(failure?.values.reference ?? "");
  const amount = formatMoney(refund.amountCents, refund.currency);
  const pendingOnCart = refund.status === "pending" && refund.channel === "merchant";
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd" id="fee-refund">
          {pendingOnCart ? "Protection fee to refund" : "Protection fee refund"}
        </Text>
        <Facts
          facts={[
            ["Amount", amount],
            ["Cancelled by the buyer", purchase.cancelledAt ? formatTime(purchase.cancelledAt) : "—"],
            [
              "Status",
              refund.status === "refunded"
                ? `Refunded ${refund.refundedAt ? formatTime(refund.refundedAt) : ""}`.trim()
                : refund.channel === "shopify"
                  ? "Pending: the Shopify app refunds it on the order"
                  : "Waiting for you to refund it",
            ],
            ...(refund.reference ? [["Your reference", refund.reference] as [string, string]] : []),
          ]}
        />
        {pendingOnCart && canConfirm ? (
          <DashboardForm>
            <input type="hidden" name="intent" value="fee_refund" />
            <input type="hidden" name="purchaseId" value={purchase.id} />
            <BlockStack gap="300">
              <Text as="p">
                {`The buyer cancelled within the free look, so the ${amount} protection fee goes back to them. Refund it through your cart or payment processor, then confirm it here: the purchase then shows it as refunded, and it leaves Needs your action.`}
              </Text>
              <TextField
                label="Your reference (optional)"
                name="reference"
                id="reference"
                value={reference}
                onChange={setReference}
                autoComplete="off"
                helpText="The payment processor's refund id or your order note, up to 200 characters."
                error={failure?.errors.reference}
              />
              <div>
                <Button submit variant="primary">
                  I refunded the fee: confirm
                </Button>
              </div>
            </BlockStack>
          </DashboardForm>
        ) : null}
      </BlockStack>
    </Card>
  );
}

export function PurchasePage() {
  const { purchase, emails } = useLoaderData() as unknown as PurchaseData;
  const suppressed = emails.filter((email) => email.status === "suppressed");
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
        {suppressed.length > 0 ? (
          <Layout.Section>
            <Banner tone="warning" title="An e-mail to the buyer was not sent">
              <p>
                {`A sending cap held back ${suppressed.length === 1 ? "one e-mail" : `${suppressed.length} e-mails`} to this buyer (see E-mails to the buyer below). It will not be sent later: tell the buyer their reference number, ${purchase.referenceNumber}, yourself if they need it.`}
              </p>
            </Banner>
          </Layout.Section>
        ) : null}
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
        {purchase.feeRefund ? (
          <Layout.Section>
            <FeeRefundCard purchase={purchase} canConfirm={canChange("purchases")} result={result} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BuyerEmails emails={emails} />
        </Layout.Section>
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
