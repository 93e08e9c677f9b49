// A plan as the buyer portal shows it: the plan, its merchant's name, its fee refund and what earlier claims on it
// were paid. Found by reference number alone for a sign-in (the buyer knows no merchant), else by the session's plan.
import type { Mode } from "../vocabulary/ids.ts";
import type { Queryable } from "./database.ts";
import type { FeeRefundRecord } from "./fee-refunds.ts";
import type { Payer, PlanStatus } from "../vocabulary/plans.ts";

export interface PortalPlanRecord {
  id: string;
  merchantId: string;
  mode: Mode;
  referenceNumber: string;
  status: PlanStatus;
  merchantName: string;
  /** The merchant is a Shopify shop (its fee refunds go through the Shopify app). */
  shopifyShop: boolean;
  orderId: string;
  /** The store's own order name as its buyers know it ("#1001"); null when the store gave none. */
  orderName: string | null;
  currency: string;
  feeCents: number;
  /** Who paid for the protection, and the buyer's part of the fee (what a free-look cancellation refunds). */
  payer: Payer;
  buyerFeeCents: number;
  coveredAmountCents: number;
  /** The sum of paid_amount_cents of the plan's claims. */
  paidCents: number;
  /** How many of the plan's claims are not denied (open, approved or paid): each takes the free look away. */
  undeniedClaims: number;
  /** The keyed hash of the buyer's address; null when none was given or it was redacted. */
  customerEmailHash: string | null;
  purchasedAt: number;
  freeLookEndsAt: number;
  cancelledAt: number | null;
  feeRefund: Pick<FeeRefundRecord, "amountCents" | "currency" | "status" | "refundedAt"> | null;
  /** The buyer's locale recorded at confirm (plans.locale), or null. */
  locale: string | null;
}

interface PortalPlanRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  reference_number: string;
  status: PlanStatus;
  merchant_name: string;
  shop_domain: string | null;
  order_id: string;
  order_name: string | null;
  currency: string;
  fee_cents: number;
  payer: Payer;
  buyer_fee_cents: number;
  covered_amount_cents: number;
  paid_cents: number | string | null;
  undenied_claims: number | string;
  customer_email_hash: string | null;
  purchased_at: number;
  free_look_ends_at: number;
  cancelled_at: number | null;
  fee_refund_amount_cents: number | null;
  fee_refund_currency: string | null;
  fee_refund_status: FeeRefundRecord["status"] | null;
  fee_refund_refunded_at: number | null;
  locale: string | null;
}

const SELECT_PORTAL_PLAN = `SELECT p.id, p.merchant_id, p.mode, p.reference_number, p.status, m.name AS merchant_name, m.shop_domain,
  p.order_id, p.order_name, p.currency, p.fee_cents, p.payer, p.buyer_fee_cents, p.covered_amount_cents, p.customer_email_hash, p.purchased_at, p.free_look_ends_at, p.locale,
  p.cancelled_at, fr.amount_cents AS fee_refund_amount_cents, fr.currency AS fee_refund_currency,
  fr.status AS fee_refund_status, fr.refunded_at AS fee_refund_refunded_at,
  (SELECT COALESCE(SUM(c.paid_amount_cents), 0) FROM claims c WHERE c.plan_id = p.id) AS paid_cents,
  (SELECT COUNT(*) FROM claims c WHERE c.plan_id = p.id AND c.status <> 'denied') AS undenied_claims
  FROM plans p JOIN merchants m ON m.id = p.merchant_id LEFT JOIN fee_refunds fr ON fr.plan_id = p.id`;

const toRecord = (row: PortalPlanRow): PortalPlanRecord => ({
  id: row.id,
  merchantId: row.merchant_id,
  mode: row.mode,
  referenceNumber: row.reference_number,
  status: row.status,
  merchantName: row.merchant_name,
  shopifyShop: row.shop_domain !== null,
  orderId: row.order_id,
  orderName: row.order_name,
  currency: row.currency,
  feeCents: row.fee_cents,
  payer: row.payer,
  buyerFeeCents: row.buyer_fee_cents,
  coveredAmountCents: row.covered_amount_cents,
  paidCents: Number(row.paid_cents ?? 0),
  undeniedClaims: Number(row.undenied_claims),
  customerEmailHash: row.customer_email_hash,
  purchasedAt: row.purchased_at,
  freeLookEndsAt: row.free_look_ends_at,
  cancelledAt: row.cancelled_at,
  locale: row.locale,
  feeRefund:
    row.fee_refund_status === null
      ? null
      : {
          amountCents: row.fee_refund_amount_cents!,
          currency: row.fee_refund_currency!,
          status: row.fee_refund_status,
          refundedAt: row.fee_refund_refunded_at,
        },
});

/** The plan with this reference number, whoever its merchant (reference numbers are unique), or undefined. */
export async function findPortalPlanByReference(
  tx: Queryable,
  referenceNumber: string,
): Promise<PortalPlanRecord | undefined> {
  const row = await tx.get<PortalPlanRow>(`${SELECT_PORTAL_PLAN} WHERE p.reference_number = ?`, [referenceNumber]);
  return row && toRecord(row);
}

/**
 * The plan of a look-up: this reference number bought with this address (its keyed hash), or undefined. Both match
 * in one probe of the (reference_number, customer_email_hash) index, so that a wrong address on a real reference
 * reads no more than an unknown reference does (no timing tells whether a reference exists).
 */
export async function findPortalPlanBySignIn(
  tx: Queryable,
  referenceNumber: string,
  customerEmailHash: string,
): Promise<PortalPlanRecord | undefined> {
  const row = await tx.get<PortalPlanRow>(
    `${SELECT_PORTAL_PLAN} WHERE p.reference_number = ? AND p.customer_email_hash = ?`,
    [referenceNumber, customerEmailHash],
  );
  return row && toRecord(row);
}

/**
 * How an order name is compared: without spaces, leading "#" or case ("# 1001" and "1001" name "#1001"). The SQL
 * expression over plans.order_name and the function for what the buyer typed must agree.
 */
const ORDER_NAME_KEY_SQL = "UPPER(LTRIM(REPLACE(p.order_name, ' ', ''), '#'))";
export const orderNameKey = (orderNumber: string) => orderNumber.replace(/\s+/g, "").replace(/^#+/, "").toUpperCase();

/**
 * The plan of a look-up by order number: bought with this address (its keyed hash) under an order whose name
 * (orderNameKey) or id is what the buyer typed, or undefined. Read through the (customer_email_hash, order_name)
 * index's address prefix: a buyer has few plans. Two plans can match (the same order id at two stores, or a test and
 * a live order): the newest purchase is taken, so the answer is always the same one.
 */
export async function findPortalPlanByOrder(
  tx: Queryable,
  orderNumber: string,
  customerEmailHash: string,
): Promise<PortalPlanRecord | undefined> {
  const typed = orderNumber.trim();
  const row = await tx.get<PortalPlanRow>(
    `${SELECT_PORTAL_PLAN} WHERE p.customer_email_hash = ?
       AND (p.order_id IN (?, ?) OR ${ORDER_NAME_KEY_SQL} = ?)
     ORDER BY p.purchased_at DESC, p.id DESC LIMIT 1`,
    [customerEmailHash, typed, typed.replace(/^#\s*/, ""), orderNameKey(typed)],
  );
  return row && toRecord(row);
}

/** The owner's plan by id, or undefined. */
export async function findPortalPlan(
  tx: Queryable,
  owner: { merchantId: string; mode: Mode },
  planId: string,
): Promise<PortalPlanRecord | undefined> {
  const row = await tx.get<PortalPlanRow>(`${SELECT_PORTAL_PLAN} WHERE p.id = ? AND p.merchant_id = ? AND p.mode = ?`, [
    planId,
    owner.merchantId,
    owner.mode,
  ]);
  return row && toRecord(row);
}
