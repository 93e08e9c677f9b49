// The open period's running balance, per currency (docs/api.md "The running balance"): what the merchant collected for us,
// the share it earned (at its rate), what came back for cancellations, refunds and claims, the net, which way the
// balance is owed, and when the statement closes. The overview and the Settlements page show it alike, in both shells.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Box, Card, Text } from "@shopify/polaris";
import type { RunningBalance } from "../../server/index.ts";
import type { BalancesData } from "./balance.server.ts";
import { useDashboardHref } from "./shell-context.tsx";
import { formatBps, formatMoney } from "../components/dashboard/format.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** "2026-11-30T00:15:00.000Z" → "30 Nov 2026": one fixed format, so server and browser render the same text. */
const dayOf = (ms: number) => {
  const day = new Date(ms);
  return `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]} ${day.getUTCFullYear()}`;
};

/** When the statement closes, in words: "Monday 30 Nov 2026 at 00:15 UTC". */
export const closingTime = (isoTime: string) => {
  const at = Date.parse(isoTime);
  return `${WEEKDAYS[new Date(at).getUTCDay()]} ${dayOf(at)} at ${isoTime.slice(11, 16)} UTC`;
};

/** A period [start, end) by its first and last day: "23 Nov 2026 – 29 Nov 2026". */
export const periodDays = (start: string, end: string) => `${dayOf(Date.parse(start))} – ${dayOf(Date.parse(end) - 1)}`;

/** Signed from the merchant's side: "+$3.10" owed to the merchant, "-$12.40" owed by it. */
export const signed = (cents: number, currency: string) => `${cents > 0 ? "+" : ""}${formatMoney(cents, currency)}`;

/** Which way the balance is owed, as a sentence naming both sides. */
export function owedSentence(balance: Pick<RunningBalance, "balanceCents" | "currency">, counterparty: string) {
  const amount = formatMoney(Math.abs(balance.balanceCents), balance.currency);
  if (balance.balanceCents < 0) return `You owe ${counterparty} ${amount}`;
  if (balance.balanceCents > 0) return `${counterparty} owes you ${amount}`;
  return `Nothing is owed either way`;
}

/** What a statement's lines are made of: the running balance, or a closed statement (no rate: it may have changed). */
export interface StatementFigures {
  currency: string;
  totals: Record<string, number>;
  merchantShareBps: number | null;
  lateEntries: { count: number; amountCents: number };
  netCents: number;
  openingBalanceCents: number;
  balanceCents: number;
  /** The last line's name: "Balance" while the period is open, "Closing balance" on a closed statement. */
  balanceLabel?: string;
}

/**
 * The statement's lines in words; the required ones always, the protection the merchant paid for, refund credits and
 * corrections when there are any.
 */
function linesOf(figures: StatementFigures, counterparty: string): [string, string][] {
  const { totals, currency } = figures;
  const share = figures.merchantShareBps === null ? "" : ` (your share: ${formatBps(figures.merchantShareBps)})`;
  const lines: [string, number | null][] = [
    [`Fees you collected for ${counterparty}`, totals.fee_collected ?? 0],
    [`Your share of those fees${share}`, totals.merchant_fee_share ?? 0],
    ["Protection you paid for your orders", totals.merchant_paid_fee || null],
    ["Your share credited for refunded orders", totals.merchant_refund_credit || null],
    ["Claims reimbursed to you", totals.claim_reimbursement ?? 0],
    ["Fees returned for cancelled protection", totals.fee_refunded ?? 0],
    [
      "Corrections (a cancelled fee's share taken back, a cancelled split plan's part returned, charges through Shopify, fixes)",
      totals.correction || null,
    ],
  ];
  const late = figures.lateEntries;
  return [
    ...lines.flatMap(([label, cents]): [string, string][] =>
      cents === null ? [] : [[label, signed(cents, currency)]],
    ),
    [
      `Late entries from closed periods: ${late.count} (counted in the lines above)`,
      signed(late.amountCents, currency),
    ],
    ["Net this period", signed(figures.netCents, currency)],
    ["Carried from the last statement", signed(figures.openingBalanceCents, currency)],
    [figures.balanceLabel ?? "Balance", signed(figures.balanceCents, currency)],
  ];
}

/** The lines as a two-column table, "+ owed to you, - owed by you" under it. */
export function StatementLines({
  figures,
  counterparty,
  label,
}: {
  figures: StatementFigures;
  counterparty: string;
  /** The table's accessible name: "Running balance, USD". */
  label: string;
}) {
  return (
    <BlockStack gap="200">
      <table className="plain-table" aria-label={`${label}, line by line`}>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col" style={{ textAlign: "right" }}>
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {linesOf(figures, counterparty).map(([label, amount], index, lines) => (
            <tr key={label}>
              <th scope="row" style={{ fontWeight: index === lines.length - 1 ? 650 : 450, background: "none" }}>
                {label}
              </th>
              <td
                style={{ textAlign: "right", whiteSpace: "nowrap", fontWeight: index === lines.length - 1 ? 650 : 450 }}
              >
                {amount}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Text as="p" tone="subdued">
        + is owed to you, - is owed by you.
      </Text>
    </BlockStack>
  );
}

function CurrencyBalance({ balance, counterparty }: { balance: RunningBalance; counterparty: string }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {`Running balance, ${balance.currency}: ${periodDays(balance.periodStart, balance.periodEnd)} (open)`}
        </Text>
        <Text as="p" variant="headingLg">
          {owedSentence(balance, counterparty)}
        </Text>
        <Text as="p">
          {`This ${balance.period} statement closes ${closingTime(balance.closesAt)}; until then the figures grow with every order.`}
        </Text>
        <StatementLines figures={balance} counterparty={counterparty} label={`Running balance, ${balance.currency}`} />
      </BlockStack>
    </Card>
  );
}

/**
 * The running balance of each currency, from the page's loader data (`loadBalances`, spread into it). `statementsLink`:
 * a link to the Settlements page (the overview's card).
 */
export function BalanceCard({ statementsLink = false }: { statementsLink?: boolean }) {
  const { balances, counterparty } = useLoaderData() as unknown as BalancesData;
  const href = useDashboardHref();
  return (
    <BlockStack gap="300">
      {balances.length === 0 ? (
        <Card>
          <BlockStack gap="200">
            <Text as="h2" variant="headingMd">
              Running balance
            </Text>
            <Text as="p">No money has moved yet: your first protected purchase starts the balance.</Text>
          </BlockStack>
        </Card>
      ) : (
        balances.map((balance) => (
          <CurrencyBalance key={balance.currency} balance={balance} counterparty={counterparty} />
        ))
      )}
      {statementsLink && (
        // Cards reach the screen's edges on a phone; the link keeps the cards' inset.
        <Box paddingInline={{ xs: "400", sm: "0" }}>
          <a href={href("settlements")}>Statements and their entries (CSV)</a>
        </Box>
      )}
    </BlockStack>
  );
}
