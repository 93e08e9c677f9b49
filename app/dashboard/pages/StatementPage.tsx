// A closed settlement statement (docs/api.md "Settlement"): its period, which way its closing balance was owed, its lines
// in words (as the running balance shows them), every entry (late ones marked) and its CSV. Never recomputed: what the
// statement and its bound entries say.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import type { StatementData } from "./settlements.server.ts";
import type { DashboardStatementCharge } from "../../shopify/dashboard.server.ts";
import { useDashboardHref } from "../shell-context.tsx";
import { DownloadLink, TableCard } from "../page-parts.tsx";
import { formatMoney, formatTime } from "../../components/dashboard/format.ts";
import { periodDays, signed, StatementLines } from "../BalanceCard.tsx";

/** Each ledger kind in words, as the merchant reads it. */
const KIND_WORDS: Record<string, string> = {
  fee_collected: "Fee collected for us",
  merchant_fee_share: "Your share of the fee",
  merchant_paid_fee: "Protection you paid for your orders",
  fee_refunded: "Fee returned (cancelled protection)",
  merchant_refund_credit: "Your share credited (refunded order)",
  claim_reimbursement: "Claim reimbursed to you",
  correction: "Correction",
};

/** Which way the closing balance was owed, in the past tense. */
function closedSentence(closingBalanceCents: number, currency: string, counterparty: string) {
  const amount = formatMoney(Math.abs(closingBalanceCents), currency);
  if (closingBalanceCents < 0) return `At its close you owed ${counterparty} ${amount}`;
  if (closingBalanceCents > 0) return `At its close ${counterparty} owed you ${amount}`;
  return "At its close nothing was owed either way";
}

/** What a Shopify charge's status means to the merchant. */
const CHARGE_STATUS_WORDS: Record<DashboardStatementCharge["status"], string> = {
  none: "Nothing to charge",
  pending: "Being charged",
  waiting_cap: "Waiting: it would pass your usage cap (raise it on the overview)",
  waiting_subscription: "Waiting for an active subscription (approve it on the overview)",
  charged: "Charged",
  failed: "Not chargeable through Shopify: settled outside Shopify",
  before_billing: "Closed before charges went through Shopify",
};

/** A live statement of a Shopify shop: what was charged for it through Shopify's billing, or carried forward. */
function ShopifyChargeCard({ charge }: { charge: DashboardStatementCharge }) {
  return (
    <Layout.Section>
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            Shopify charge
          </Text>
          <dl className="facts">
            <dt>Status</dt>
            <dd>{CHARGE_STATUS_WORDS[charge.status]}</dd>
            <dt>Amount</dt>
            <dd>{formatMoney(charge.amountCents, charge.currency)}</dd>
            {charge.carriedForwardCents > 0 && (
              <>
                <dt>Carried forward to you</dt>
                <dd>{formatMoney(charge.carriedForwardCents, charge.currency)}</dd>
              </>
            )}
            <dt>Shopify usage charge</dt>
            <dd>{charge.usageRecordId ?? "None yet"}</dd>
          </dl>
        </BlockStack>
      </Card>
    </Layout.Section>
  );
}

export function StatementPage() {
  const { statement, counterparty, shopifyCharge } = useLoaderData() as unknown as StatementData & {
    /** In the Shopify admin only (app/routes/app.settlements_.$id.tsx); null for a statement not charged there. */
    shopifyCharge?: DashboardStatementCharge | null;
  };
  const href = useDashboardHref();
  const late = statement.entries.filter((entry) => entry.lateFrom !== null);
  const days = periodDays(statement.periodStart, statement.periodEnd);
  return (
    <Page
      title={`Statement ${days}`}
      subtitle={`${statement.currency}, ${statement.period === "partial" ? "a partial" : `a ${statement.period}`} period, closed ${formatTime(statement.createdAt)}`}
      backAction={{ content: "Settlements", url: href("settlements") }}
    >
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingLg">
                {closedSentence(statement.closingBalanceCents, statement.currency, counterparty)}
              </Text>
              <StatementLines
                label={`Statement ${days}, ${statement.currency}`}
                counterparty={counterparty}
                figures={{
                  currency: statement.currency,
                  totals: statement.totals,
                  merchantShareBps: null,
                  lateEntries: {
                    count: late.length,
                    amountCents: late.reduce((cents, entry) => cents + entry.amountCents, 0),
                  },
                  netCents: statement.netCents,
                  openingBalanceCents: statement.openingBalanceCents,
                  balanceCents: statement.closingBalanceCents,
                  balanceLabel: "Closing balance",
                }}
              />
              <DownloadLink
                href={href("settlements", `/${statement.id}/entries.csv`)}
                fileName={`statement-${statement.id}.csv`}
              >
                {`Download its ${statement.entryCount} entries (CSV)`}
              </DownloadLink>
            </BlockStack>
          </Card>
        </Layout.Section>
        {shopifyCharge && <ShopifyChargeCard charge={shopifyCharge} />}
        <TableCard
          label={`The statement's entries`}
          headings={["When (UTC)", "What", "Amount", "Source", "Note"]}
          rowCount={statement.entries.length}
          empty="No entries: nothing moved in this period."
        >
          {statement.entries.map((entry) => (
            <tr key={entry.id}>
              <td style={{ whiteSpace: "nowrap" }}>{formatTime(entry.createdAt)}</td>
              <td>{KIND_WORDS[entry.kind] ?? entry.kind}</td>
              <td style={{ whiteSpace: "nowrap", textAlign: "right" }}>{signed(entry.amountCents, entry.currency)}</td>
              <td>{entry.sourceId}</td>
              <td>
                {entry.lateFrom
                  ? `Late: occurred in ${periodDays(entry.lateFrom.periodStart, entry.lateFrom.periodEnd)}, already closed`
                  : ""}
              </td>
            </tr>
          ))}
        </TableCard>
      </Layout>
    </Page>
  );
}
