// Shopify orders that carried the protection opt-in (shopify_orders): the plan each one got, the refunds counted
// against it and what became of it.
import { forUpdate, type Mode, type OrderLine, type Queryable, type ShipTo } from "../../../server/index.ts";

/** cancelled: the buyer cancelled the protection in the free look (its fee is refunded by a job; later refunds are not reported). */
export type ShopifyOrderStatus = "protected" | "voided" | "refunded" | "cancelled";

export interface NewShopifyOrder {
  shop: string;
  orderId: string;
  planId: string;
  referenceNumber: string;
  currency: string;
  /** The goods: order subtotal less the protection line. */
  goodsAmountCents: number;
  /** A Shopify Markets order: the buyer's currency and the goods in it (what Shopify refunds in). */
  presentment?: { currency: string; goodsAmountCents: number } | null;
  /** What the buyer paid on the protection line; null without one. */
  linePriceCents: number | null;
  feeCents: number;
  /** The line's price is not the confirmed fee's tier price. */
  feeMismatch: boolean;
  /** The order's lines (the protection line left out) and its town-level destination: the claims console's. */
  lines?: OrderLine[] | null;
  shipTo?: ShipTo | null;
}

/** An order as the dashboard lists it. */
export interface ShopifyOrderSummary {
  orderId: string;
  referenceNumber: string | null;
  currency: string;
  feeCents: number | null;
  linePriceCents: number | null;
  feeMismatch: boolean;
  status: ShopifyOrderStatus;
  referenceWrittenAt: number | null;
  createdAt: number;
}

/** Records the order as protected; false when it was recorded before (a second job for it), which changes nothing. */
export async function insertShopifyOrder(tx: Queryable, order: NewShopifyOrder, at: number): Promise<boolean> {
  const inserted = await tx.run(
    `INSERT INTO shopify_orders (shop, order_id, plan_id, reference_number, currency, goods_amount_cents, presentment_currency,
       presentment_goods_amount_cents, line_price_cents, fee_cents, fee_mismatch, order_lines, ship_to, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'protected', ?, ?)
     ON CONFLICT (shop, order_id) DO NOTHING`,
    [
      order.shop,
      order.orderId,
      order.planId,
      order.referenceNumber,
      order.currency,
      order.goodsAmountCents,
      order.presentment?.currency ?? null,
      order.presentment?.goodsAmountCents ?? null,
      order.linePriceCents,
      order.feeCents,
      order.feeMismatch ? 1 : 0,
      order.lines ? JSON.stringify(order.lines) : null,
      order.shipTo ? JSON.stringify(order.shipTo) : null,
      at,
      at,
    ], // 1/0: an integer on SQLite, a valid boolean literal on PostgreSQL
  );
  return inserted > 0;
}

/** The order's plan, its status and its goods in the currency Shopify refunds it in (a Markets order's: the buyer's). */
export async function findShopifyOrder(
  tx: Queryable,
  shop: string,
  orderId: string,
): Promise<{ planId: string; status: ShopifyOrderStatus; currency: string; goodsAmountCents: number } | undefined> {
  const row = await tx.get<{
    plan_id: string;
    status: ShopifyOrderStatus;
    currency: string;
    goods_amount_cents: number;
    presentment_currency: string | null;
    presentment_goods_amount_cents: number | null;
  }>(
    `SELECT plan_id, status, currency, goods_amount_cents, presentment_currency, presentment_goods_amount_cents
     FROM shopify_orders WHERE shop = ? AND order_id = ?`,
    [shop, orderId],
  );
  // Shopify refunds a Markets order in the buyer's currency: its goods are counted in that currency.
  return (
    row && {
      planId: row.plan_id,
      status: row.status,
      currency: row.presentment_currency ?? row.currency,
      goodsAmountCents: Number(row.presentment_goods_amount_cents ?? row.goods_amount_cents),
    }
  );
}

/** Whose plan the shop's protected order is (its merchant and mode), or undefined when the order has no plan. */
export async function findShopifyOrderOwner(
  tx: Queryable,
  shop: string,
  orderId: string,
): Promise<{ merchantId: string; mode: Mode } | undefined> {
  const row = await tx.get<{ merchant_id: string; mode: Mode }>(
    `SELECT p.merchant_id, p.mode FROM shopify_orders s JOIN plans p ON p.id = s.plan_id
     WHERE s.shop = ? AND s.order_id = ?`,
    [shop, orderId],
  );
  return row && { merchantId: row.merchant_id, mode: row.mode };
}

/** The refunds counted so far, the row locked until the transaction ends; undefined for an unknown order. */
export async function lockShopifyOrderRefunds(
  tx: Queryable,
  shop: string,
  orderId: string,
): Promise<{ refundIds: string[]; refundedCents: number } | undefined> {
  const row = await tx.get<{ refund_ids: string; refunded_cents: number }>(
    `SELECT refund_ids, refunded_cents FROM shopify_orders WHERE shop = ? AND order_id = ?${forUpdate(tx)}`,
    [shop, orderId],
  );
  return row && { refundIds: JSON.parse(row.refund_ids), refundedCents: Number(row.refunded_cents) };
}

export async function saveShopifyOrderRefunds(
  tx: Queryable,
  shop: string,
  orderId: string,
  refunds: { refundIds: string[]; refundedCents: number },
  at: number,
): Promise<void> {
  await tx.run(
    "UPDATE shopify_orders SET refunded_cents = ?, refund_ids = ?, updated_at = ? WHERE shop = ? AND order_id = ?",
    [refunds.refundedCents, JSON.stringify(refunds.refundIds), at, shop, orderId],
  );
}

export async function setShopifyOrderStatus(
  tx: Queryable,
  shop: string,
  orderId: string,
  status: ShopifyOrderStatus,
  at: number,
): Promise<void> {
  await tx.run("UPDATE shopify_orders SET status = ?, updated_at = ? WHERE shop = ? AND order_id = ?", [
    status,
    at,
    shop,
    orderId,
  ]);
}

/** The reference number is on the Shopify order now. Sent with the commit (runAtCommit): nothing reads its answer. */
export async function markShopifyOrderReferenceWritten(
  tx: Queryable,
  shop: string,
  orderId: string,
  at: number,
): Promise<void> {
  await tx.runAtCommit(
    "UPDATE shopify_orders SET reference_written_at = ?, updated_at = ? WHERE shop = ? AND order_id = ?",
    [at, at, shop, orderId],
  );
}

/** The shop's newest orders first. */
export async function listLatestShopifyOrders(
  tx: Queryable,
  shop: string,
  limit: number,
): Promise<ShopifyOrderSummary[]> {
  const rows = await tx.all<{
    order_id: string;
    reference_number: string | null;
    currency: string;
    fee_cents: number | null;
    line_price_cents: number | null;
    fee_mismatch: number | boolean;
    status: ShopifyOrderStatus;
    reference_written_at: number | null;
    created_at: number;
  }>(
    `SELECT order_id, reference_number, currency, fee_cents, line_price_cents, fee_mismatch, status, reference_written_at, created_at
     FROM shopify_orders WHERE shop = ? ORDER BY created_at DESC, order_id DESC LIMIT ?`,
    [shop, limit],
  );
  return rows.map((row) => ({
    orderId: row.order_id,
    referenceNumber: row.reference_number,
    currency: row.currency,
    feeCents: row.fee_cents,
    linePriceCents: row.line_price_cents,
    feeMismatch: Boolean(row.fee_mismatch), // 0/1 on SQLite, a boolean on PostgreSQL
    status: row.status,
    referenceWrittenAt: row.reference_written_at === null ? null : Number(row.reference_written_at),
    createdAt: Number(row.created_at),
  }));
}
