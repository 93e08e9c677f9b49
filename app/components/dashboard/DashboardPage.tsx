// The dashboard's page: what needs the merchant's attention first (banners), then the account and storefront setup,
// 30 days of metrics, and the activity and privacy cards.
import { Badge, Banner, BlockStack, Button, Card, InlineStack, Layout, List, Page, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import type { Dashboard, DashboardPayout } from "../../shopify/dashboard.server.ts";
import { formatBps, formatMinorUnits, formatMoney } from "./format.ts";
import { ClaimPayoutsCard, DeadJobsCard, FeeRefundsCard, OrdersCard, WebhookEndpointsCard } from "./ActivityCards.tsx";
import { DataRequestsCard, EmailSnippetCard } from "./PrivacyCards.tsx";

export function DashboardPage({ dashboard }: { dashboard: Dashboard }) {
  return (
    <Page
      title="Purchase Protection"
      subtitle={dashboard.shop}
      titleMetadata={<Badge tone="attention">Test mode</Badge>}
    >
      <Layout>
        <Layout.Section>
          <AttentionBanners dashboard={dashboard} />
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <AccountCard dashboard={dashboard} />
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <StorefrontCard storefront={dashboard.storefront} />
        </Layout.Section>
        <Layout.Section>
          <BlockStack gap="400">
            <MetricsCard metrics={dashboard.metrics} />
            <OrdersCard orders={dashboard.orders} />
            <WebhookEndpointsCard endpoints={dashboard.webhookEndpoints} />
            <DeadJobsCard jobs={dashboard.deadJobs} />
            <FeeRefundsCard refunds={dashboard.feeRefunds} />
            <ClaimPayoutsCard payouts={dashboard.claimPayouts} />
            <DataRequestsCard requests={dashboard.dataRequests} />
            <EmailSnippetCard snippet={dashboard.emailSnippet} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function AttentionBanners({ dashboard }: { dashboard: Dashboard }) {
  const failing = dashboard.webhookEndpoints.filter((endpoint) => endpoint.status === "failing");
  const disabled = dashboard.webhookEndpoints.filter((endpoint) => endpoint.status === "disabled");
  const setupJob = dashboard.storefront.setupJob;
  return (
    <BlockStack gap="300">
      {dashboard.status === "uninstalled" && (
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
            through the API.
          </p>
          <List type="bullet">
            {failing.map((endpoint) => (
              <List.Item key={endpoint.id}>{endpoint.url}</List.Item>
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
      {dashboard.deadJobs.length > 0 && (
        <Banner
          tone="critical"
          title={`${dashboard.deadJobs.length} background job${dashboard.deadJobs.length === 1 ? "" : "s"} gave up after every retry`}
        >
          <p>See "Jobs that gave up" below for the errors.</p>
        </Banner>
      )}
      <FailedPayoutsBanner payouts={dashboard.feeRefunds} what="protection fee refund">
        A buyer cancelled within the free look and the fee could not be refunded on the order. See "Fee refunds needing
        attention" below for the errors.
      </FailedPayoutsBanner>
      <FailedPayoutsBanner payouts={dashboard.claimPayouts} what="claim payout">
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

function AccountCard({ dashboard }: { dashboard: Dashboard }) {
  const { program } = dashboard;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Account
          </Text>
          {dashboard.status === "installed" ? (
            <Badge tone="success">Installed</Badge>
          ) : (
            <Badge tone="critical">Uninstalled</Badge>
          )}
        </InlineStack>
        <Text as="p">
          Publishable key (public; the storefront uses it): <code>{dashboard.publishableKey}</code>
        </Text>
        <Text as="p">
          Secret key:{" "}
          <code>
            mch_{dashboard.mode}_…{dashboard.secretKeyLast4}
          </code>{" "}
          (kept sealed on the server)
        </Text>
        <Text as="p">
          Program terms: {formatBps(program.rateBps)} of the order amount, minimum fee{" "}
          {formatMinorUnits(program.minFeeCents)}, orders covered up to {formatMinorUnits(program.maxCoveredCents)} (in
          the order's currency).
        </Text>
      </BlockStack>
    </Card>
  );
}

function StorefrontCard({ storefront }: { storefront: Dashboard["storefront"] }) {
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

function MetricsCard({ metrics }: { metrics: Dashboard["metrics"] }) {
  const attach = metrics.attachRate === null ? "—" : `${(metrics.attachRate * 100).toFixed(1)} %`;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Last 30 days
        </Text>
        <InlineStack gap="800" wrap>
          <Figure label="Offers quoted" value={String(metrics.quotes.total)} />
          <Figure label="Accepted" value={String(metrics.quotes.confirmed)} />
          <Figure label="Attach rate" value={attach} />
          <Figure label="Active plans" value={String(metrics.plans.active)} />
          <Figure label="Voided" value={String(metrics.plans.voided + metrics.plans.cancelled)} />
          <Figure label="Claims" value={String(metrics.claims.total)} />
        </InlineStack>
        {metrics.fees.length === 0 ? (
          <Text as="p" tone="subdued">
            No protection fees yet.
          </Text>
        ) : (
          metrics.fees.map((fee) => (
            <Text as="p" key={fee.currency}>
              Fees {formatMoney(fee.feeCents, fee.currency)}, your share{" "}
              {formatMoney(fee.merchantShareCents, fee.currency)}
            </Text>
          ))
        )}
      </BlockStack>
    </Card>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <BlockStack gap="100">
      <Text as="span" tone="subdued">
        {label}
      </Text>
      <Text as="span" variant="headingLg">
        {value}
      </Text>
    </BlockStack>
  );
}
