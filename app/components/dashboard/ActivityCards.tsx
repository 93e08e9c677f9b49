// What happened lately in the shop: the protected orders, the background jobs that gave up and the fee refunds and
// claim payouts that did not go through.
import type { ReactNode } from "react";
import { Badge, BlockStack, Card, Text } from "@shopify/polaris";
import type {
  DashboardClaimPayout,
  DashboardFeeRefund,
  DashboardJob,
  DashboardOrder,
  DashboardPayout,
} from "../../shopify/dashboard.server.ts";
import { formatMoney, formatTime } from "./format.ts";

export function OrdersCard({ orders }: { orders: DashboardOrder[] }) {
  const money = (cents: number | null, currency: string) => (cents === null ? "—" : formatMoney(cents, currency));
  return (
    <ListCard
      title="Protected orders"
      empty="No protected orders yet. They appear here when a buyer opts in."
      columns={[
        ["Order", "text"],
        ["Reference", "text"],
        ["Fee", "numeric"],
        ["Line price", "numeric"],
        ["Status", "text"],
        ["Reference on order", "text"],
      ]}
      rows={orders.map((order) => [
        order.orderId,
        order.referenceNumber ?? "—",
        money(order.feeCents, order.currency),
        <>
          {money(order.linePriceCents, order.currency)}{" "}
          {order.feeMismatch && <Badge tone="warning">Fee mismatch</Badge>}
        </>,
        <Badge tone={order.status === "protected" ? "success" : undefined}>{order.status}</Badge>,
        order.referenceWritten ? "Written" : "Pending",
      ])}
    />
  );
}

export function DeadJobsCard({ jobs }: { jobs: DashboardJob[] }) {
  return (
    <ListCard
      title="Jobs that gave up"
      empty="None: every background job succeeded or is still being retried."
      columns={[
        ["Job", "text"],
        ["Attempts", "numeric"],
        ["Last error", "text"],
        ["Gave up", "text"],
      ]}
      rows={jobs.map((job) => [job.kind, job.attempts, job.lastError ?? "—", formatTime(job.updatedAt)])}
    />
  );
}

export function FeeRefundsCard({ refunds }: { refunds: DashboardFeeRefund[] }) {
  return (
    <PayoutsCard
      title="Fee refunds needing attention"
      empty="None: every protection fee of a free-look cancellation was refunded on its order."
      amountHeading="Fee"
      owedHeading="Cancelled"
      payouts={refunds}
    >
      A failed refund is not tried again: refund the protection line of the order in the Shopify admin, to the original
      payment method.
    </PayoutsCard>
  );
}

const REMEDIES = { refund: "Refund", replacement: "Replacement" };

export function ClaimPayoutsCard({ payouts }: { payouts: DashboardClaimPayout[] }) {
  return (
    <PayoutsCard
      title="Claim payouts needing attention"
      empty="None: every approved claim was paid on its order."
      amountHeading="Amount"
      owedHeading="Approved"
      payouts={payouts}
      leading={[
        ["Claim", (payout) => payout.claimId],
        ["Remedy", (payout) => REMEDIES[payout.remedy]],
      ]}
    >
      A failed payout is not tried again: refund the amount to the original payment method (or send the replacement) in
      the Shopify admin, then tell the claims team so the claim is closed.
    </PayoutsCard>
  );
}

/**
 * Money owed back on orders that did not go through (fee refunds, claim payouts): the order, the plan's reference, the
 * amount, whether its job is still retrying, and its last error; `leading` columns come first.
 */
function PayoutsCard<Payout extends DashboardPayout>({
  title,
  empty,
  amountHeading,
  owedHeading,
  payouts,
  leading = [],
  children,
}: {
  title: string;
  empty: string;
  amountHeading: string;
  owedHeading: string;
  payouts: Payout[];
  leading?: [heading: string, cell: (payout: Payout) => ReactNode][];
  /** What the merchant does about a failed one. */
  children: ReactNode;
}) {
  return (
    <ListCard
      title={title}
      empty={empty}
      columns={[
        ...leading.map(([heading]): Column => [heading, "text"]),
        ["Order", "text"],
        ["Reference", "text"],
        [amountHeading, "numeric"],
        ["Status", "text"],
        ["Attempts", "numeric"],
        ["Last error", "text"],
        [owedHeading, "text"],
      ]}
      rows={payouts.map((payout) => [
        ...leading.map(([, cell]) => cell(payout)),
        payout.orderId,
        payout.referenceNumber,
        formatMoney(payout.amountCents, payout.currency),
        payout.status === "failed" ? <Badge tone="critical">Failed</Badge> : <Badge tone="attention">Retrying</Badge>,
        payout.attempts,
        payout.lastError,
        formatTime(payout.createdAt),
      ])}
    >
      <Text as="p" tone="subdued">
        {children}
      </Text>
    </ListCard>
  );
}

type Column = [heading: string, type: "text" | "numeric"];

/** A titled card with a table of `rows` (and `children` under it), or the `empty` sentence when there is no row. */
export function ListCard({
  title,
  empty,
  columns,
  rows,
  children,
}: {
  title: string;
  empty: string;
  columns: Column[];
  rows: ReactNode[][];
  children?: ReactNode;
}) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {rows.length === 0 ? (
          <Text as="p" tone="subdued">
            {empty}
          </Text>
        ) : (
          // A plain table in a focusable region (as TableCard, app/dashboard/page-parts.tsx): it scrolls sideways on a
          // phone and keyboards can scroll it too (Polaris's DataTable fails axe-core's scrollable-region rule).
          <div className="table-region" role="region" aria-label={title} tabIndex={0}>
            <table className="plain-table">
              <thead>
                <tr>
                  {columns.map(([heading, type]) => (
                    <th key={heading} scope="col" style={type === "numeric" ? { textAlign: "right" } : undefined}>
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row, index) => (
                  <tr key={index}>
                    {row.map((cell, column) => (
                      <td key={column} style={columns[column][1] === "numeric" ? { textAlign: "right" } : undefined}>
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {rows.length > 0 && children}
      </BlockStack>
    </Card>
  );
}
