// Counts and sums over a merchant's rows in one mode, for the metrics report. Every figure covers the rows created in
// [fromMs, toMs), but the claim decisions' figures: the decisions made in it (across merchants too, for the console),
// and the amounts paid on claims: those paid in it.
import type { Mode } from "../vocabulary/ids.ts";
import type { Queryable } from "./database.ts";
import { DAY_MS } from "../vocabulary/time.ts";

export interface MetricsScope {
  merchantId: string;
  mode: Mode;
  fromMs: number;
  toMs: number;
}

export interface StatusCount<S extends string = string> {
  status: S;
  count: number;
}

const IN_SCOPE = "merchant_id = ? AND mode = ? AND created_at >= ? AND created_at < ?";
const scopeParams = (scope: MetricsScope) => [scope.merchantId, scope.mode, scope.fromMs, scope.toMs];

/** Quotes per status, open ones split by whether they had expired at `nowMs`. */
export async function countQuotesByStatus(
  tx: Queryable,
  scope: MetricsScope,
  nowMs: number,
): Promise<(StatusCount & { expired: boolean })[]> {
  const rows = await tx.all<{ status: string; expired: number; n: number | string }>(
    `SELECT status, CASE WHEN status = 'open' AND expires_at <= ? THEN 1 ELSE 0 END AS expired, COUNT(*) AS n
     FROM quotes WHERE ${IN_SCOPE} GROUP BY 1, 2`,
    // By ordinal: PostgreSQL does not see a CASE repeated with its own placeholder as the selected expression.
    [nowMs, ...scopeParams(scope)],
  );
  return rows.map((row) => ({ status: row.status, expired: Number(row.expired) === 1, count: Number(row.n) }));
}

export function countPlansByStatus(tx: Queryable, scope: MetricsScope): Promise<StatusCount[]> {
  return countByStatus(tx, "plans", scope);
}

export function countClaimsByStatus(tx: Queryable, scope: MetricsScope): Promise<StatusCount[]> {
  return countByStatus(tx, "claims", scope);
}

async function countByStatus(tx: Queryable, table: "plans" | "claims", scope: MetricsScope): Promise<StatusCount[]> {
  const rows = await tx.all<{ status: string; n: number | string }>(
    `SELECT status, COUNT(*) AS n FROM ${table} WHERE ${IN_SCOPE} GROUP BY status`,
    scopeParams(scope),
  );
  return rows.map((row) => ({ status: row.status, count: Number(row.n) }));
}

export async function countMerchantRefundedOrders(tx: Queryable, scope: MetricsScope): Promise<number> {
  const row = await tx.get<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM orders WHERE ${IN_SCOPE} AND status = 'merchant_refunded'`,
    scopeParams(scope),
  );
  return Number(row?.n ?? 0);
}

// The active plans of a window (p) and the merchant's share of each one's fee (pp: its quote's program), rounded half
// up per plan: one text for the report's totals and the analytics' days. The share is of what the buyer paid, as the
// ledger's merchant_fee_share (docs/api.md "Who pays"): a split plan's buyer part, nothing of a merchant-paid plan. Joined, not looked up per plan: PostgreSQL
// then hashes the quotes once, 3 times faster over a year than 100,000 look-ups (bench/metrics.ts).
const ACTIVE_PLAN_FEES = `FROM plans p JOIN quotes q ON q.id = p.quote_id JOIN protection_programs pp ON pp.id = q.program_id
     WHERE p.merchant_id = ? AND p.mode = ? AND p.created_at >= ? AND p.created_at < ? AND p.status = 'active'`;
const SHARE_CENTS = "SUM((p.buyer_fee_cents * pp.merchant_share_bps + 5000) / 10000)";
// The whole fee, what buyers paid of it (revenue) and what the merchant paid (cost: the rest, so the covering index
// plans_metrics_period_idx, which holds fee_cents and buyer_fee_cents, still answers).
const FEE_PARTS = `SUM(p.fee_cents) AS fee, SUM(p.buyer_fee_cents) AS "buyerFee",
  SUM(p.fee_cents - p.buyer_fee_cents) AS "merchantFee"`;

/**
 * Fees of active plans, split by who paid them, and the merchant's share of each (rounded half up per plan), summed
 * per currency.
 */
export async function sumActivePlanFees(
  tx: Queryable,
  scope: MetricsScope,
): Promise<
  { currency: string; feeCents: number; buyerFeeCents: number; merchantFeeCents: number; merchantShareCents: number }[]
> {
  const rows = await tx.all<
    Record<"fee" | "buyerFee" | "merchantFee" | "share", number | string> & { currency: string }
  >(
    `SELECT p.currency, ${FEE_PARTS}, ${SHARE_CENTS} AS share
     ${ACTIVE_PLAN_FEES}
     GROUP BY p.currency ORDER BY p.currency`,
    scopeParams(scope),
  );
  return rows.map((row) => ({
    currency: row.currency,
    feeCents: Number(row.fee),
    buyerFeeCents: Number(row.buyerFee),
    merchantFeeCents: Number(row.merchantFee),
    merchantShareCents: Number(row.share),
  }));
}

/** Per UTC day (epoch day number): how many rows of `table` were created. Days without rows are absent. */
export async function countPerDay(
  tx: Queryable,
  table: "quotes" | "plans",
  scope: MetricsScope,
): Promise<{ day: number; count: number }[]> {
  const rows = await tx.all<{ day: number | string; n: number | string }>(
    `SELECT created_at / ${DAY_MS} AS day, COUNT(*) AS n FROM ${table} WHERE ${IN_SCOPE} GROUP BY 1 ORDER BY 1`,
    scopeParams(scope),
  );
  return rows.map((row) => ({ day: Number(row.day), count: Number(row.n) }));
}

/** One UTC day (epoch day number) and currency of the analytics, with the figures one query counted for it. */
export type DayFigures<K extends string> = { day: number; currency: string } & Record<K, number>;

/** Rows grouped by (day, currency), every other column a number (PostgreSQL's SUM answers a string). */
async function perDay<K extends string>(tx: Queryable, sql: string, params: (string | number)[]) {
  const rows = await tx.all<Record<string, number | string | null>>(sql, params);
  return rows.map((row) => {
    const figures: Record<string, number | string> = {};
    for (const [key, value] of Object.entries(row))
      figures[key] = key === "currency" ? String(value) : Number(value ?? 0);
    return figures as DayFigures<K>;
  });
}

/**
 * Offers shown (quotes created) per day and currency: how many, how many confirmed and declined (the rest were
 * abandoned: still open or expired), and the order value of all of them and of the confirmed ones.
 */
export function quoteFiguresPerDay(tx: Queryable, scope: MetricsScope) {
  return perDay<"shown" | "confirmed" | "declined" | "shownValue" | "confirmedValue">(
    tx,
    `SELECT created_at / ${DAY_MS} AS day, currency, COUNT(*) AS shown,
       SUM(CASE WHEN status = 'confirmed' THEN 1 ELSE 0 END) AS confirmed,
       SUM(CASE WHEN status = 'declined' THEN 1 ELSE 0 END) AS declined,
       SUM(order_amount_cents) AS "shownValue",
       SUM(CASE WHEN status = 'confirmed' THEN order_amount_cents ELSE 0 END) AS "confirmedValue"
     FROM quotes WHERE ${IN_SCOPE} GROUP BY 1, 2`,
    scopeParams(scope),
  );
}

/**
 * Fees of the plans created on the day that are still active (whole, buyers' and the merchant's parts), and the
 * merchant's share of them, per currency.
 */
export function feeFiguresPerDay(tx: Queryable, scope: MetricsScope) {
  return perDay<"fee" | "buyerFee" | "merchantFee" | "share">(
    tx,
    `SELECT p.created_at / ${DAY_MS} AS day, p.currency, ${FEE_PARTS}, ${SHARE_CENTS} AS share
     ${ACTIVE_PLAN_FEES} GROUP BY 1, 2`,
    scopeParams(scope),
  );
}

/**
 * Claims per day and currency: filed (by created_at), decided (by decided_at: the standing approvals — approved or
 * paid since — and denials) and paid (paid_amount_cents, by resolved_at, when they were paid).
 */
export async function claimFiguresPerDay(tx: Queryable, scope: MetricsScope) {
  const owner = [scope.merchantId, scope.mode];
  const [filed, decided, paid] = await Promise.all([
    perDay<"filed">(
      tx,
      `SELECT created_at / ${DAY_MS} AS day, currency, COUNT(*) AS filed FROM claims WHERE ${IN_SCOPE} GROUP BY 1, 2`,
      scopeParams(scope),
    ),
    perDay<"decided" | "approved">(
      tx,
      `SELECT decided_at / ${DAY_MS} AS day, currency, COUNT(*) AS decided,
         SUM(CASE WHEN status IN ('approved', 'paid') THEN 1 ELSE 0 END) AS approved
       FROM claims WHERE merchant_id = ? AND mode = ? AND decided_at >= ? AND decided_at < ? GROUP BY 1, 2`,
      [...owner, scope.fromMs, scope.toMs],
    ),
    perDay<"paid">(
      tx,
      `SELECT resolved_at / ${DAY_MS} AS day, currency, SUM(paid_amount_cents) AS paid FROM claims
       WHERE merchant_id = ? AND mode = ? AND status = 'paid' AND resolved_at >= ? AND resolved_at < ? GROUP BY 1, 2`,
      [...owner, scope.fromMs, scope.toMs],
    ),
  ]);
  return { filed, decided, paid };
}

/** Claims filed in the window per covered reason. */
export async function countClaimsByReason(
  tx: Queryable,
  scope: MetricsScope,
): Promise<{ reason: string; count: number }[]> {
  const rows = await tx.all<{ reason: string; n: number | string }>(
    `SELECT reason, COUNT(*) AS n FROM claims WHERE ${IN_SCOPE} GROUP BY reason`,
    scopeParams(scope),
  );
  return rows.map((row) => ({ reason: row.reason, count: Number(row.n) }));
}

/** Whose claims' decisions: one merchant in one mode (the dashboard), or any merchant and either mode (the console). */
export interface DecisionScope {
  merchantId?: string;
  mode?: Mode;
  /** Only the claims in this currency (the analytics' figures per currency); any when absent. */
  currency?: string;
  fromMs: number;
  toMs: number;
}

export interface DecisionFigures {
  /** Claims whose standing decision (approved or denied) was made in [fromMs, toMs). */
  decided: number;
  /** Of them, those a claim rule decided (decided_by 'rule:…'). */
  automatic: number;
  /** The middle one or two of their times from filing to the decision, in ms, shortest first: the median's terms. */
  middleDecisionMs: number[];
}

/**
 * The claims decided in the window, how many of them by a rule, and the middle of their filing-to-decision times
 * (counted first, then read by offset: both dialects, no percentile function, never every row).
 */
export async function findDecisionFigures(tx: Queryable, scope: DecisionScope): Promise<DecisionFigures> {
  const where = [
    "decided_at IS NOT NULL",
    "decided_at >= ?",
    "decided_at < ?",
    ...(scope.merchantId === undefined ? [] : ["merchant_id = ?"]),
    ...(scope.mode === undefined ? [] : ["mode = ?"]),
    ...(scope.currency === undefined ? [] : ["currency = ?"]),
  ].join(" AND ");
  const params = [
    scope.fromMs,
    scope.toMs,
    ...(scope.merchantId === undefined ? [] : [scope.merchantId]),
    ...(scope.mode === undefined ? [] : [scope.mode]),
    ...(scope.currency === undefined ? [] : [scope.currency]),
  ];
  const totals = await tx.get<{ n: number | string; automatic: number | string | null }>(
    `SELECT COUNT(*) AS n, SUM(CASE WHEN decided_by LIKE 'rule:%' THEN 1 ELSE 0 END) AS automatic
     FROM claims WHERE ${where}`,
    params,
  );
  const decided = Number(totals?.n ?? 0);
  if (decided === 0) return { decided: 0, automatic: 0, middleDecisionMs: [] };
  const middle = await tx.all<{ ms: number | string }>(
    `SELECT decided_at - created_at AS ms FROM claims WHERE ${where} ORDER BY 1, id LIMIT ? OFFSET ?`,
    [...params, decided % 2 === 0 ? 2 : 1, Math.floor((decided - 1) / 2)],
  );
  return {
    decided,
    automatic: Number(totals?.automatic ?? 0),
    middleDecisionMs: middle.map((row) => Number(row.ms)),
  };
}
