// What the Shopify app writes back onto a protected order (app/shopify/order-states.server.ts): the plan, its consent
// record and its claims, for a plan of a Shopify shop's merchant (merchants.shop_domain); and the outbox events that
// change it, with the shop they belong to.
import type { ClaimStatus, ConsentRecord, Mode, Queryable, StoredEventType } from "../../../server/index.ts";

/** A plan of a Shopify shop with what the order shows of it. */
export interface ShopifyOrderState {
  planId: string;
  shop: string;
  mode: Mode;
  /** The Shopify order's numeric id (the plan's order id). */
  orderId: string;
  referenceNumber: string;
  status: "active" | "voided" | "cancelled";
  consent: ConsentRecord;
  /** What the buyer paid on the order's protection line; null: the order had none (the merchant bears the fee). */
  linePriceCents: number | null;
  /** Filing order. */
  claims: { claimId: string; number: number; reason: string; status: ClaimStatus; amountCents: number }[];
}

/** The plan's state, read in one statement (a row per claim, or one without): its job reads it twice per write. */
export async function findShopifyOrderState(tx: Queryable, planId: string): Promise<ShopifyOrderState | undefined> {
  const rows = await tx.all<{
    id: string;
    shop: string;
    mode: Mode;
    order_id: string;
    reference_number: string;
    status: ShopifyOrderState["status"];
    consent: string;
    line_price_cents: number | string | null;
    claim_id: string | null;
    claim_number: number | string;
    claim_reason: string;
    claim_status: ClaimStatus;
    claim_amount_cents: number | string;
  }>(
    `SELECT p.id, m.shop_domain AS shop, p.mode, p.order_id, p.reference_number, p.status, p.consent,
       o.line_price_cents, c.id AS claim_id, c.number AS claim_number, c.reason AS claim_reason,
       c.status AS claim_status, c.amount_cents AS claim_amount_cents
     FROM plans p JOIN merchants m ON m.id = p.merchant_id
     LEFT JOIN shopify_orders o ON o.shop = m.shop_domain AND o.order_id = p.order_id
     LEFT JOIN claims c ON c.plan_id = p.id
     WHERE p.id = ? AND m.shop_domain IS NOT NULL
     ORDER BY c.number, c.id`,
    [planId],
  );
  const plan = rows[0];
  if (!plan) return undefined;
  return {
    planId: plan.id,
    shop: plan.shop,
    mode: plan.mode,
    orderId: plan.order_id,
    referenceNumber: plan.reference_number,
    status: plan.status,
    consent: JSON.parse(plan.consent) as ConsentRecord,
    linePriceCents: plan.line_price_cents === null ? null : Number(plan.line_price_cents),
    claims: rows.flatMap((claim) =>
      claim.claim_id === null
        ? []
        : [
            {
              claimId: claim.claim_id,
              number: Number(claim.claim_number),
              reason: claim.claim_reason,
              status: claim.claim_status,
              amountCents: Number(claim.claim_amount_cents),
            },
          ],
    ),
  };
}

/** An outbox event of a Shopify shop's merchant, with what it says. */
export interface ShopifyEvent {
  id: string;
  shop: string;
  type: StoredEventType;
  data: unknown;
}

/** The events among `ids` of one of `types` whose merchant is a Shopify shop's, in seq order. */
export async function listShopifyEvents(
  tx: Queryable,
  ids: string[],
  types: readonly StoredEventType[],
): Promise<ShopifyEvent[]> {
  if (ids.length === 0 || types.length === 0) return [];
  const rows = await tx.all<{ id: string; shop: string; type: StoredEventType; data: string }>(
    `SELECT e.id, m.shop_domain AS shop, e.type, e.data FROM events e JOIN merchants m ON m.id = e.merchant_id
     WHERE e.id IN (${ids.map(() => "?").join(", ")}) AND e.type IN (${types.map(() => "?").join(", ")})
       AND m.shop_domain IS NOT NULL
     ORDER BY e.seq`,
    [...ids, ...types],
  );
  return rows.map((row) => ({ id: row.id, shop: row.shop, type: row.type, data: JSON.parse(row.data) }));
}
