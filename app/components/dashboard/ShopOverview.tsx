// What the overview in the Shopify admin shows of the shop, above and below the dashboard's own overview: what needs
// the merchant's attention first (banners), the storefront setup, the latest protected orders, and the jobs, payouts
// and customer data requests to look at (app/shopify/dashboard.server.ts reads them).
import { Badge, Banner, BlockStack, Button, Card, InlineStack, List, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import type { DashboardPayout, ShopOverview } from "../../shopify/dashboard.server.ts";
import { ClaimPayoutsCard, DeadJobsCard, FeeRefundsCard, OrdersCard } from "./ActivityCards.tsx";
import { DataRequestsCard } from "./PrivacyCards.tsx";

/** The shop's setup and activity, below the overview's charts. */
export function ShopActivity({ overview }: { overview: ShopOverview }) {
  return (
    <BlockStack gap="400">
      <StorefrontCard storefront={overview.storefront} />
      <OrdersCard orders={overview.orders} />
      <DeadJobsCard jobs={overview.deadJobs} />
      <FeeRefundsCard refunds={overview.feeRefunds} />
      <ClaimPayoutsCard payouts={overview.claimPayouts} />
      <DataRequestsCard requests={overview.dataRequests} />
    </BlockStack>
  );
}

/** What needs the merchant first, as banners for the top of the overview. */
export function ShopAttention({ overview }: { overview: ShopOverview }) {
  const failing = overview.webhookEndpoints.filter((endpoint) => endpoint.status === "failing");
  const disabled = overview.webhookEndpoints.filter((endpoint) => endpoint.status === "disabled");
  const setupJob = overview.storefront.setupJob;
  return (
    <BlockStack gap="300">
      {overview.status === "uninstalled" && (
        <Banner tone="critical" title="The app is uninstalled from this shop">
          <p>Its keys are revoked: no new plan can be made until the app is installed again.</p>
        </Banner>
      )}
      {failing.length > 0 && (
        <Banner
          tone="critical"
          title={`${failing.length} webhook endpoint${failing.length === 1 ? " is" : "s are"} failing: delivery stopped`}
        >
          <p>
            Each failed every delivery for 3 days, so retries stopped. Fix the receiver, then enable the endpoint again
            on the Webhooks page.
          </p>
          <List type="bullet">
            {failing.map((endpoint) => (
              <List.Item key={endpoint.id}>
                {endpoint.lastAttempt?.error ? `${endpoint.url}: ${endpoint.lastAttempt.error}` : endpoint.url}
              </List.Item>
            ))}
          </List>
        </Banner>
      )}
      {disabled.length > 0 && (
        <Banner
          tone="warning"
          title={`${disabled.length} webhook endpoint${disabled.length === 1 ? " is" : "s are"} disabled`}
        >
          <p>
            Disabled by you, or because the receiver answered 410 Gone. No event is sent to{" "}
            {disabled.length === 1 ? "it" : "them"}.
          </p>
        </Banner>
      )}
      {overview.deadJobs.length > 0 && (
        <Banner
          tone="critical"
          title={`${overview.deadJobs.length} background job${overview.deadJobs.length === 1 ? "" : "s"} gave up after every retry`}
        >
          <p>See "Jobs that gave up" below for the errors.</p>
        </Banner>
      )}
      <FailedPayoutsBanner payouts={overview.feeRefunds} what="protection fee refund">
        A buyer cancelled within the free look and the fee could not be refunded on the order. See "Fee refunds needing
        attention" below for the errors.
      </FailedPayoutsBanner>
      <FailedPayoutsBanner payouts={overview.claimPayouts} what="claim payout">
        An approved claim could not be refunded or replaced on the order. See "Claim payouts needing attention" below
        for the errors.
      </FailedPayoutsBanner>
      {setupJob && (
        <Banner
          tone={setupJob.status === "dead" ? "critical" : "info"}
          title={setupJob.status === "dead" ? "Storefront setup failed" : "Storefront setup is in progress"}
        >
          <p>
            {setupJob.status === "dead"
              ? "The protection product could not be created"
              : `Attempt ${setupJob.attempts + 1} is pending`}
            {setupJob.lastError ? `: ${setupJob.lastError}` : "."}
          </p>
        </Banner>
      )}
    </BlockStack>
  );
}

/** "<n> <what>(s) failed", when any of the payouts gave up. */
function FailedPayoutsBanner({
  payouts,
  what,
  children,
}: {
  payouts: DashboardPayout[];
  what: string;
  children: ReactNode;
}) {
  const failed = payouts.filter((payout) => payout.status === "failed").length;
  if (failed === 0) return null;
  return (
    <Banner tone="critical" title={`${failed} ${what}${failed === 1 ? "" : "s"} failed`}>
      <p>{children}</p>
    </Banner>
  );
}

function StorefrontCard({ storefront }: { storefront: ShopOverview["storefront"] }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Storefront setup
        </Text>
        <InlineStack gap="200" blockAlign="center">
          <Text as="span">Protection product:</Text>
          {storefront.productCreated ? (
            <Badge tone="success">{`Created, ${storefront.tierCount} fee tiers`}</Badge>
          ) : (
            <Badge tone="attention">Not created yet</Badge>
          )}
        </InlineStack>
        <Text as="p">Turn on the Purchase Protection app embed in your theme so buyers see the offer in the cart.</Text>
        <InlineStack>
          <Button url={storefront.themeEmbedUrl} target="_blank" variant="primary">
            Activate the theme embed
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
