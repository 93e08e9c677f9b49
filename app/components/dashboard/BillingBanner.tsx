// The app's usage charges on Shopify, on top of the overview in the Shopify admin (docs/shopify.md "Billing"): the
// approval the merchant still owes (a new subscription, a raised cap) as a link that leaves the admin's iframe for
// Shopify's confirmation page, charges waiting and why, and why live protection is paused. Nothing while all is well.
import { Banner, BlockStack, Button, List } from "@shopify/polaris";
import type { DashboardBilling } from "../../shopify/dashboard.server.ts";
import { DashboardForm } from "../../dashboard/shell-context.tsx";
import { formatMoney } from "./format.ts";

const ENDED = new Set(["CANCELLED", "FROZEN", "DECLINED", "EXPIRED"]);

/** Shopify's confirmation page, opened in the top window: it cannot load inside the admin's iframe. */
function ApproveButton({ url, children }: { url: string; children: string }) {
  return (
    <Button url={url} target="_top" variant="primary">
      {children}
    </Button>
  );
}

function IntentButton({ intent, children }: { intent: "billing-subscribe" | "billing-raise-cap"; children: string }) {
  return (
    <DashboardForm>
      <input type="hidden" name="intent" value={intent} />
      <Button submit variant="primary">
        {children}
      </Button>
    </DashboardForm>
  );
}

export function BillingBanner({ billing }: { billing: DashboardBilling }) {
  const { subscription, waiting } = billing;
  const owed = waiting.length > 0 && (
    <List type="bullet">
      {waiting.map((charge) => (
        <List.Item key={charge.statementId}>
          {`Statement ${charge.statementId}: ${formatMoney(charge.amountCents, charge.currency)}, ${
            charge.status === "waiting_cap" ? "waiting for a higher cap" : "waiting for an active subscription"
          }`}
        </List.Item>
      ))}
    </List>
  );
  if (!subscription)
    return (
      <Banner tone="info" title="Usage charges are being set up with Shopify">
        <p>Approve them here once they are ready: going live needs them.</p>
      </Banner>
    );
  const cap = (cents: number) => formatMoney(cents, subscription.currency);
  if (ENDED.has(subscription.status))
    return (
      <Banner
        tone="critical"
        title={`Live protection is paused: your subscription is ${subscription.status.toLowerCase()}`}
      >
        <BlockStack gap="200">
          <p>
            What your buyers owe us is charged through Shopify, so new live offers are refused until you approve the
            app&apos;s usage charges again. Test mode works as before, and what you owe is kept.
          </p>
          {owed}
          {subscription.confirmationUrl ? (
            <ApproveButton url={subscription.confirmationUrl}>Approve charges in Shopify</ApproveButton>
          ) : (
            <IntentButton intent="billing-subscribe">Set up usage charges again</IntentButton>
          )}
        </BlockStack>
      </Banner>
    );
  if (subscription.status !== "ACTIVE")
    return (
      <Banner tone="warning" title="Approve the app's usage charges">
        <BlockStack gap="200">
          <p>
            {`Each settlement statement you owe is charged through Shopify, up to ${cap(subscription.cappedAmountCents)} per 30 days${
              subscription.test ? " (a test subscription: this development store is not charged)" : ""
            }. Going live needs your approval.`}
          </p>
          {subscription.confirmationUrl && (
            <ApproveButton url={subscription.confirmationUrl}>Approve charges in Shopify</ApproveButton>
          )}
        </BlockStack>
      </Banner>
    );
  if (waiting.length === 0) return null;
  return (
    <Banner tone="warning" title="A charge is waiting: it would pass your usage cap">
      <BlockStack gap="200">
        <p>
          {`Used ${cap(subscription.balanceUsedCents)} of ${cap(subscription.cappedAmountCents)} this 30-day cycle. Raise the cap and the waiting charges go through.`}
        </p>
        {owed}
        {subscription.confirmationUrl && subscription.requestedCapCents !== null ? (
          <ApproveButton url={subscription.confirmationUrl}>
            {`Approve the new cap of ${cap(subscription.requestedCapCents)} in Shopify`}
          </ApproveButton>
        ) : (
          <IntentButton intent="billing-raise-cap">Raise the cap</IntentButton>
        )}
      </BlockStack>
    </Banner>
  );
}
