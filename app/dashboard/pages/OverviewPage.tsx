import type { ReactNode } from "react";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Card, DataTable, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import type { OverviewData } from "./overview.server.ts";
import { OVERVIEW_WINDOWS } from "./overview-windows.ts";
import { ActivityChart } from "../ActivityChart.tsx";
import { NeedsAction } from "../NeedsAction.tsx";
import { useDashboardHref } from "../shell-context.tsx";
import { formatMoney, formatTime } from "../../components/dashboard/format.ts";
import { formatDuration } from "../../ui/format.ts";
import { BalanceCard } from "../BalanceCard.tsx";
import { GettingStarted } from "../GettingStarted.tsx";

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="h2" variant="headingSm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {value}
        </Text>
      </BlockStack>
    </Card>
  );
}

/**
 * Confirms refused with customer_email_required in the last 30 days (docs/api.md "The buyer's address"): buyers who chose
 * protection and got no plan because the page sent no address. What to fix, in a sentence.
 */
function NoAddressNotice({ buyers }: { buyers: number }) {
  const who = buyers === 1 ? "1 buyer" : `${buyers} buyers`;
  return (
    <Banner tone="warning" title={`${who} chose protection but got no plan: your page sent no buyer e-mail`}>
      <p>
        In the last 30 days, confirms came without the buyer&apos;s e-mail address and were refused
        (customer_email_required): no plan was made, so those buyers cannot claim. Pass the address on every confirm:
        the widget reads the checkout form&apos;s e-mail field, a customer-email attribute or{" "}
        <code>{"confirm({ orderId, customerEmail })"}</code>; a server sends customer_email with the quote or the
        confirm. See &quot;The buyer&apos;s address&quot; in the API reference (docs/api.md).
      </p>
    </Banner>
  );
}

/** `top` and `bottom`: what a shell adds (the Shopify admin: the shop's banners, setup and activity). */
export function OverviewPage({ top, bottom }: { top?: ReactNode; bottom?: ReactNode }) {
  const { days, metrics, activity, buyersWithoutAddress, decisions } = useLoaderData() as unknown as OverviewData;
  const href = useDashboardHref();
  const attach = metrics.attachRate === null ? "—" : `${Math.round(metrics.attachRate * 100)} %`;
  const claimRows = Object.entries(metrics.claims.byStatus).map(([status, count]) => [status, String(count)]);
  return (
    <Page title="Overview" subtitle={`The last ${days} days`}>
      <Layout>
        {top && <Layout.Section>{top}</Layout.Section>}
        <GettingStarted />
        <Layout.Section>
          <NeedsAction />
        </Layout.Section>
        {buyersWithoutAddress > 0 && (
          <Layout.Section>
            <NoAddressNotice buyers={buyersWithoutAddress} />
          </Layout.Section>
        )}
        <Layout.Section>
          <BalanceCard statementsLink />
        </Layout.Section>
        <Layout.Section>
          <InlineStack gap="300">
            {OVERVIEW_WINDOWS.map((window) =>
              window === days ? (
                <Text as="span" key={window} fontWeight="bold">
                  {`${window} days`}
                </Text>
              ) : (
                <a key={window} href={href("overview", `?days=${window}`)}>{`${window} days`}</a>
              ),
            )}
          </InlineStack>
        </Layout.Section>
        <Layout.Section>
          <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
            <Figure label="Offers quoted" value={String(metrics.quotes.total)} />
            <Figure label="Attach rate" value={attach} />
            <Figure label="Protected purchases" value={String(metrics.plans.active)} />
            <Figure label="Claims" value={String(metrics.claims.total)} />
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Offers and protected purchases per day
              </Text>
              <ActivityChart activity={activity} title={`Offers quoted and purchases protected, last ${days} days`} />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Fees and your share
              </Text>
              {metrics.fees.length === 0 ? (
                <Text as="p">No protected purchases yet.</Text>
              ) : (
                <DataTable
                  columnContentTypes={["text", "numeric", "numeric"]}
                  headings={["Currency", "Fees", "Your share"]}
                  rows={metrics.fees.map((fee) => [
                    fee.currency,
                    formatMoney(fee.feeCents, fee.currency),
                    formatMoney(fee.merchantShareCents, fee.currency),
                  ])}
                />
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Claims by status
              </Text>
              {claimRows.length === 0 ? (
                <Text as="p">No claims in this period.</Text>
              ) : (
                <DataTable columnContentTypes={["text", "numeric"]} headings={["Status", "Claims"]} rows={claimRows} />
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <ClaimDecisions decisions={decisions} days={days} />
        </Layout.Section>
        {bottom && <Layout.Section>{bottom}</Layout.Section>}
      </Layout>
    </Page>
  );
}

/**
 * How this merchant's claims were decided in the window: those whose decision (approved or denied) was made in it, the
 * share the program's claim rules decided on their own, and the median time from filing to the decision.
 */
function ClaimDecisions({ decisions, days }: { decisions: OverviewData["decisions"]; days: number }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Claim decisions
        </Text>
        <Text as="p" tone="subdued">
          {`Claims approved or denied in the last ${days} days (since ${formatTime(decisions.period.from)}),`} whenever
          they were filed.
        </Text>
        {decisions.decided === 0 ? (
          <Text as="p">No claim was decided in this period.</Text>
        ) : (
          <InlineGrid columns={{ xs: 1, md: 3 }} gap="300">
            <Figure label="Claims decided" value={String(decisions.decided)} />
            <Figure
              label="Decided automatically"
              value={`${Math.round(decisions.automaticShare! * 100)} % (${decisions.automatic})`}
            />
            <Figure label="Median time to a decision" value={formatDuration(decisions.medianDecisionMs!)} />
          </InlineGrid>
        )}
      </BlockStack>
    </Card>
  );
}
