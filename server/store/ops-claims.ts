// The claims team's reads across merchants (/ops): the queue of claims with their merchant, and one claim with what
// deciding it needs (its owner, decision and payout columns, the order, the program's claim rules, a Shopify shop's
// payout state). Scoped by nothing but the filters: only the console, behind a staff session, calls these.
import { RISK_LEVELS, type ClaimStatus, type RiskLevel } from "../vocabulary/claims.ts";
import type { Mode } from "../vocabulary/ids.ts";
import { placeholders, type Queryable, type SqlValue } from "./database.ts";
import type { ClaimPayoutState } from "../vocabulary/claims.ts";
import type { OrderLine, ShipTo } from "../vocabulary/orders.ts";

export interface QueueFilters {
  statuses: readonly ClaimStatus[];
  /** Only approved claims whose last Shopify payout attempt failed. */
  payoutErrorOnly: boolean;
  reason?: string;
  mode?: Mode;
  merchantId?: string;
  /** Part of the plan's reference number (upper case): the search box. */
  reference?: string;
  /** Only the claims this staff member took ("Mine"). */
  assigneeStaffId?: string;
  /** Only claims assessed at one of these risk levels. */
  riskLevels?: readonly RiskLevel[];
  /** `oldest` first (filing time, then id), `newest` first, or highest `risk` first (oldest first within a level). */
  order: QueueOrder;
  /** The last row of the previous page: rows after it in `order` (its `riskRank` counts in the `risk` order only). */
  after?: { riskRank: number; createdAt: number; id: string };
}

export const QUEUE_ORDERS = ["oldest", "risk", "newest"] as const;
export type QueueOrder = (typeof QUEUE_ORDERS)[number];

/** A risk level as a number that sorts: high 3, elevated 2, low 1; a claim never assessed 0 (after every level). */
export const riskRank = (level: RiskLevel | null): number => (level === null ? 0 : RISK_LEVELS.indexOf(level) + 1);
const RISK_RANK_SQL = `CASE r.level ${RISK_LEVELS.map((level) => `WHEN '${level}' THEN ${riskRank(level)}`).join(" ")} ELSE 0 END`;

/** Each order's ORDER BY and its keyset condition for the rows after a cursor (ties broken by id: a stable order). */
const ORDERS: Record<QueueOrder, { by: string; after: string }> = {
  oldest: { by: "c.created_at, c.id", after: "(c.created_at > ? OR (c.created_at = ? AND c.id > ?))" },
  newest: { by: "c.created_at DESC, c.id DESC", after: "(c.created_at < ? OR (c.created_at = ? AND c.id < ?))" },
  risk: {
    by: `${RISK_RANK_SQL} DESC, c.created_at, c.id`,
    after: `(${RISK_RANK_SQL} < ? OR (${RISK_RANK_SQL} = ? AND (c.created_at > ? OR (c.created_at = ? AND c.id > ?))))`,
  },
};

export interface QueueRecord {
  id: string;
  merchantId: string;
  merchantName: string;
  mode: Mode;
  referenceNumber: string;
  reason: string;
  status: ClaimStatus;
  amountCents: number;
  currency: string;
  evidenceCount: number;
  payoutError: string | null;
  assigneeStaffId: string | null;
  assigneeEmail: string | null;
  /** The claim's risk level; null: not assessed (filed before claims were). */
  riskLevel: RiskLevel | null;
  /** When the review clock last started (REVIEW_FROM). */
  reviewFrom: number;
  createdAt: number;
  updatedAt: number;
}

interface QueueRow {
  id: string;
  merchant_id: string;
  merchant_name: string;
  mode: Mode;
  reference_number: string;
  reason: string;
  status: ClaimStatus;
  amount_cents: number;
  currency: string;
  evidence_count: number;
  payout_error: string | null;
  assignee_staff_id: string | null;
  assignee_email: string | null;
  risk_level: RiskLevel | null;
  review_from: number;
  created_at: number;
  updated_at: number;
}

/**
 * When the claims team's review clock last started: the buyer's answer to a question (the service's move back to
 * under_review) or, before any, the filing.
 */
const REVIEW_FROM = `COALESCE((SELECT MAX(t.created_at) FROM claim_timeline t
   WHERE t.claim_id = c.id AND t.kind = 'status_changed' AND t.status = 'under_review' AND t.actor = 'service'),
  c.created_at)`;

/** The queue in the filters' order: `limit` rows at most. */
export async function listQueue(tx: Queryable, filters: QueueFilters, limit: number): Promise<QueueRecord[]> {
  const where = [`c.status IN (${placeholders(filters.statuses)})`];
  const params: SqlValue[] = [...filters.statuses];
  if (filters.payoutErrorOnly) where.push("c.payout_error IS NOT NULL");
  for (const [clause, value] of [
    ["c.reason = ?", filters.reason],
    ["c.mode = ?", filters.mode],
    ["c.merchant_id = ?", filters.merchantId],
    ["c.assignee_staff_id = ?", filters.assigneeStaffId],
  ] as const) {
    if (value === undefined) continue;
    where.push(clause);
    params.push(value);
  }
  if (filters.riskLevels !== undefined) {
    where.push(`r.level IN (${placeholders(filters.riskLevels)})`);
    params.push(...filters.riskLevels);
  }
  if (filters.reference !== undefined) {
    // Reference numbers are upper-case letters, digits and hyphens: the search text holds nothing LIKE reads as a pattern.
    where.push("p.reference_number LIKE ?");
    params.push(`%${filters.reference}%`);
  }
  const order = ORDERS[filters.order];
  if (filters.after) {
    const { riskRank: rank, createdAt, id } = filters.after;
    where.push(order.after);
    params.push(...(filters.order === "risk" ? [rank, rank] : []), createdAt, createdAt, id);
  }
  const rows = await tx.all<QueueRow>(
    `SELECT c.id, c.merchant_id, m.name AS merchant_name, c.mode, p.reference_number, c.reason, c.status,
            c.amount_cents, c.currency, c.payout_error, c.created_at, c.updated_at, c.assignee_staff_id,
            s.email AS assignee_email, r.level AS risk_level, ${REVIEW_FROM} AS review_from,
            (SELECT COUNT(*) FROM claim_evidence e WHERE e.claim_id = c.id) AS evidence_count
     FROM claims c JOIN plans p ON p.id = c.plan_id JOIN merchants m ON m.id = c.merchant_id
     LEFT JOIN staff_accounts s ON s.id = c.assignee_staff_id
     LEFT JOIN claim_risk_assessments r ON r.claim_id = c.id
     WHERE ${where.join(" AND ")}
     ORDER BY ${order.by} LIMIT ${limit}`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    mode: row.mode,
    referenceNumber: row.reference_number,
    reason: row.reason,
    status: row.status,
    amountCents: row.amount_cents,
    currency: row.currency,
    evidenceCount: Number(row.evidence_count),
    payoutError: row.payout_error,
    assigneeStaffId: row.assignee_staff_id,
    assigneeEmail: row.assignee_email,
    riskLevel: row.risk_level,
    reviewFrom: Number(row.review_from),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  }));
}

/** How many claims are in each status, and how many approved ones failed to pay out. */
export async function countClaimsByStatus(
  tx: Queryable,
): Promise<{ byStatus: Partial<Record<ClaimStatus, number>>; payoutErrors: number }> {
  const rows = await tx.all<{ status: ClaimStatus; n: number }>(
    "SELECT status, COUNT(*) AS n FROM claims GROUP BY status",
  );
  const errors = await tx.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM claims WHERE status = 'approved' AND payout_error IS NOT NULL",
  );
  return {
    byStatus: Object.fromEntries(rows.map((row) => [row.status, Number(row.n)])),
    payoutErrors: Number(errors?.n ?? 0),
  };
}

/** The merchants that have claims (the queue's merchant filter), by name. */
export async function listClaimMerchants(tx: Queryable, limit: number): Promise<{ id: string; name: string }[]> {
  return tx.all<{ id: string; name: string }>(
    `SELECT m.id, m.name FROM merchants m WHERE EXISTS (SELECT 1 FROM claims c WHERE c.merchant_id = m.id)
     ORDER BY m.name, m.id LIMIT ${limit}`,
  );
}

/** Who a claim belongs to and who decided it (the staff address behind a `staff:<id>` decision). */
export interface ClaimContext {
  merchantId: string;
  merchantName: string;
  mode: Mode;
  planId: string;
  decidedBy: string | null;
  decidedByEmail: string | null;
  /** The staff member who took the claim, and their address. */
  assigneeStaffId: string | null;
  assigneeEmail: string | null;
  /** When the review clock last started (REVIEW_FROM). */
  reviewFrom: number;
}

export async function findClaimContext(tx: Queryable, claimId: string): Promise<ClaimContext | undefined> {
  const row = await tx.get<{
    merchant_id: string;
    merchant_name: string;
    mode: Mode;
    plan_id: string;
    decided_by: string | null;
    decided_by_email: string | null;
    assignee_staff_id: string | null;
    assignee_email: string | null;
    review_from: number;
  }>(
    `SELECT c.merchant_id, m.name AS merchant_name, c.mode, c.plan_id, c.decided_by, s.email AS decided_by_email,
            c.assignee_staff_id, a.email AS assignee_email, ${REVIEW_FROM} AS review_from
     FROM claims c JOIN merchants m ON m.id = c.merchant_id
     LEFT JOIN staff_accounts s ON c.decided_by = 'staff:' || s.id
     LEFT JOIN staff_accounts a ON a.id = c.assignee_staff_id
     WHERE c.id = ?`,
    [claimId],
  );
  return (
    row && {
      merchantId: row.merchant_id,
      merchantName: row.merchant_name,
      mode: row.mode,
      planId: row.plan_id,
      decidedBy: row.decided_by,
      decidedByEmail: row.decided_by_email,
      assigneeStaffId: row.assignee_staff_id,
      assigneeEmail: row.assignee_email,
      reviewFrom: Number(row.review_from),
    }
  );
}

/** Gives the claim to a staff member (or to nobody). Internal to the claims team: the claim's updated_at stays. */
export async function setClaimAssignee(tx: Queryable, claimId: string, staffId: string | null): Promise<void> {
  await tx.run("UPDATE claims SET assignee_staff_id = ? WHERE id = ?", [staffId, claimId]);
}

const nullableNumber = (value: number | null) => (value === null ? null : Number(value));

export interface OpsOrderRecord {
  externalId: string;
  status: string;
  createdAt: number;
  refundedAt: number | null;
  deliveredAt: number | null;
  /** The claim rules (JSON text) of the program the plan was bought under. */
  claimRules: string | null;
  /** The store's order name ("#1001"), when it gave one. */
  orderName: string | null;
  /** The order was a Shopify shop's (its lines and destination come from the order webhook). */
  shopify: boolean;
  /** A Shopify order's lines and town-level destination; null: not kept (older orders, redacted, other carts). */
  lines: OrderLine[] | null;
  shipTo: ShipTo | null;
}

const parsedOrNull = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** The order a plan protects, and the claim rules of the program it was bought under. */
export async function findOpsOrder(tx: Queryable, planId: string): Promise<OpsOrderRecord | undefined> {
  const row = await tx.get<{
    external_id: string;
    status: string;
    created_at: number;
    refunded_at: number | null;
    delivered_at: number | null;
    claim_rules: string | null;
    order_name: string | null;
    shop: string | null;
    order_lines: string | null;
    ship_to: string | null;
  }>(
    `SELECT o.external_id, o.status, o.created_at, o.refunded_at, o.delivered_at, pr.claim_rules, p.order_name,
            so.shop, so.order_lines, so.ship_to
     FROM plans p JOIN orders o ON o.plan_id = p.id
     LEFT JOIN quotes q ON q.id = p.quote_id LEFT JOIN protection_programs pr ON pr.id = q.program_id
     LEFT JOIN shopify_orders so ON so.plan_id = p.id
     WHERE p.id = ?`,
    [planId],
  );
  return (
    row && {
      externalId: row.external_id,
      status: row.status,
      createdAt: Number(row.created_at),
      refundedAt: nullableNumber(row.refunded_at),
      deliveredAt: nullableNumber(row.delivered_at),
      claimRules: row.claim_rules,
      orderName: row.order_name,
      shopify: row.shop !== null,
      lines: parsedOrNull<OrderLine[]>(row.order_lines),
      shipTo: parsedOrNull<ShipTo>(row.ship_to),
    }
  );
}

/** The plan's other claims (newest first), for the reviewer's context. */
export async function listPlanClaimSummaries(
  tx: Queryable,
  planId: string,
  exceptClaimId: string,
): Promise<{ id: string; reason: string; status: ClaimStatus; amountCents: number; createdAt: number }[]> {
  const rows = await tx.all<{
    id: string;
    reason: string;
    status: ClaimStatus;
    amount_cents: number;
    created_at: number;
  }>("SELECT id, reason, status, amount_cents, created_at FROM claims WHERE plan_id = ? AND id <> ? ORDER BY id DESC", [
    planId,
    exceptClaimId,
  ]);
  return rows.map((row) => ({
    id: row.id,
    reason: row.reason,
    status: row.status,
    amountCents: row.amount_cents,
    createdAt: Number(row.created_at),
  }));
}

/**
 * A Shopify shop's claim and where its payout stands (the claim's payout_state: null until the app queues the payout),
 * or undefined when the claim's merchant is no Shopify shop.
 */
export async function findClaimShopifyPayout(
  tx: Queryable,
  claimId: string,
): Promise<{ shop: string; payout: { state: ClaimPayoutState; attempts: number } | null } | undefined> {
  const row = await tx.get<{ shop: string; payout_state: ClaimPayoutState | null; payout_attempts: number }>(
    `SELECT m.shop_domain AS shop, c.payout_state, c.payout_attempts
     FROM claims c JOIN merchants m ON m.id = c.merchant_id
     WHERE c.id = ? AND m.shop_domain IS NOT NULL`,
    [claimId],
  );
  return (
    row && {
      shop: row.shop,
      payout: row.payout_state === null ? null : { state: row.payout_state, attempts: Number(row.payout_attempts) },
    }
  );
}
