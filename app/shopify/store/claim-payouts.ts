// The Shopify side of paying approved claims: the claims of Shopify shops' merchants (merchants.shop_domain) that are
// approved with a remedy, which the app pays on the plan's Shopify order (its order id is the plan's order_id) through
// a job. The claims themselves are decided and resolved by the core (server/domain/claim-decisions.ts); this module
// only finds them, with what the payout is limited to, and lists those whose last attempt failed. Where a payout stands
// is the claim's own (payout_state, payout_attempts, payout_error: written by the app's payout job), never the job's.
import type { ClaimPayoutState, Mode, Queryable, StuckClaimPayout } from "../../../server/index.ts";

type Remedy = "refund" | "replacement";

/** An approved claim of a Shopify shop's merchant, as the payout job needs it. */
export interface ShopifyClaimPayout {
  claimId: string;
  merchantId: string;
  mode: Mode;
  shop: string;
  /** The Shopify order's numeric id (the plan's order id). */
  orderId: string;
  referenceNumber: string;
  status: string;
  remedy: Remedy | null;
  amountCents: number;
  currency: string;
  /** The plan's covered amount less what its other claims were paid: no payout goes beyond it. */
  coveredRemainingCents: number;
  /** A Shopify Markets order's: the buyer's currency and the plan's rate to it (plan_presentments); else null. */
  buyerCurrency: { currency: string; exchangeRate: string } | null;
}

/** An approved Shopify claim whose last payout attempt failed: its error and how far its job got. */
export interface ShopifyClaimPayoutAttention extends StuckClaimPayout {
  /** Where the payout stands (the claim's payout_state): pending = will be retried, dead = gave up. */
  jobStatus: ClaimPayoutState | null;
  attempts: number;
  /** When the claim was approved. */
  decidedAt: number;
}

// claims → their merchant (a Shopify shop's merchant has shop_domain) and their plan (its order id and reference).
const SHOPIFY_CLAIMS = `claims c
  JOIN merchants m ON m.id = c.merchant_id
  JOIN plans p ON p.id = c.plan_id`;
const AWAITING_PAYOUT = `m.shop_domain IS NOT NULL AND c.status = 'approved' AND c.remedy IN ('refund', 'replacement')`;

/** Approved Shopify claims whose payout is not queued yet (approved first, first): each needs a payout job. */
export async function listUnqueuedShopifyClaimPayouts(
  tx: Queryable,
  query: { limit: number },
): Promise<{ claimId: string; shop: string }[]> {
  const rows = await tx.all<{ id: string; shop: string }>(
    `SELECT c.id, m.shop_domain AS shop FROM ${SHOPIFY_CLAIMS}
     WHERE ${AWAITING_PAYOUT} AND c.payout_state IS NULL
     ORDER BY c.decided_at, c.id LIMIT ?`,
    [query.limit],
  );
  return rows.map((row) => ({ claimId: row.id, shop: row.shop }));
}

/** The claim if its merchant is a Shopify shop's, with the shop, the order and what remains covered. */
export async function findShopifyClaimPayout(tx: Queryable, claimId: string): Promise<ShopifyClaimPayout | undefined> {
  const row = await tx.get<{
    id: string;
    merchant_id: string;
    mode: Mode;
    shop: string;
    order_id: string;
    reference_number: string;
    status: string;
    remedy: Remedy | null;
    amount_cents: number;
    currency: string;
    covered_amount_cents: number;
    paid_on_plan: number | string | null;
    buyer_currency: string | null;
    exchange_rate: string | null;
  }>(
    `SELECT c.id, c.merchant_id, c.mode, m.shop_domain AS shop, p.order_id, p.reference_number, c.status, c.remedy,
       c.amount_cents, c.currency, p.covered_amount_cents,
       (SELECT SUM(o.paid_amount_cents) FROM claims o WHERE o.plan_id = c.plan_id AND o.id <> c.id) AS paid_on_plan,
       pp.currency AS buyer_currency, pp.exchange_rate
     FROM ${SHOPIFY_CLAIMS} LEFT JOIN plan_presentments pp ON pp.plan_id = p.id
     WHERE c.id = ? AND m.shop_domain IS NOT NULL`,
    [claimId],
  );
  return (
    row && {
      claimId: row.id,
      merchantId: row.merchant_id,
      mode: row.mode,
      shop: row.shop,
      orderId: row.order_id,
      referenceNumber: row.reference_number,
      status: row.status,
      remedy: row.remedy,
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      coveredRemainingCents: Number(row.covered_amount_cents) - Number(row.paid_on_plan ?? 0),
      buyerCurrency:
        row.buyer_currency === null ? null : { currency: row.buyer_currency, exchangeRate: row.exchange_rate! },
    }
  );
}

/** The shop's approved claims whose last payout attempt failed, newest approval first, with where their payout stands. */
export async function listShopifyClaimPayoutsNeedingAttention(
  tx: Queryable,
  query: { shop: string; limit: number },
): Promise<ShopifyClaimPayoutAttention[]> {
  const rows = await tx.all<{
    id: string;
    reference_number: string;
    order_id: string;
    remedy: Remedy;
    amount_cents: number;
    currency: string;
    payout_error: string;
    payout_state: ClaimPayoutState | null;
    payout_attempts: number | null;
    decided_at: number | null;
  }>(
    `SELECT c.id, p.reference_number, p.order_id, c.remedy, c.amount_cents, c.currency, c.payout_error,
       c.payout_state, c.payout_attempts, c.decided_at
     FROM ${SHOPIFY_CLAIMS}
     WHERE m.shop_domain = ? AND ${AWAITING_PAYOUT} AND c.payout_error IS NOT NULL
     ORDER BY c.decided_at DESC, c.id DESC LIMIT ?`,
    [query.shop, query.limit],
  );
  return rows.map((row) => ({
    claimId: row.id,
    referenceNumber: row.reference_number,
    orderId: row.order_id,
    remedy: row.remedy,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    lastError: row.payout_error,
    jobStatus: row.payout_state,
    attempts: Number(row.payout_attempts ?? 0),
    decidedAt: Number(row.decided_at ?? 0),
  }));
}
