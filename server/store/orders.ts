// Protected orders (orders), keyed by the merchant's own order id (external_id), and the settlement credits a
// merchant refund earns (settlement_credits).
import type { Actor } from "../vocabulary/actors.ts";
import { forUpdate, type Queryable } from "./database.ts";

export type OrderStatus = "protected" | "merchant_refunded";

/**
 * Records the order as protected by the plan. Its unique (merchant, mode, order) key is the check, in the same
 * statement: false when the order already has a plan (a concurrent insert for it waits, then finds it taken).
 */
export async function insertProtectedOrder(
  tx: Queryable,
  owner: Actor,
  order: { id: string; externalId: string; planId: string; createdAt: number },
): Promise<boolean> {
  const inserted = await tx.all(
    `INSERT INTO orders (id, merchant_id, mode, external_id, plan_id, status, created_at) VALUES (?, ?, ?, ?, ?, 'protected', ?)
     ON CONFLICT (merchant_id, mode, external_id) DO NOTHING RETURNING id`,
    [order.id, owner.merchantId, owner.mode, order.externalId, order.planId, order.createdAt],
  );
  return inserted.length === 1;
}

export interface OrderRecord {
  id: string;
  planId: string;
  status: OrderStatus;
}

/** The owner's order by the merchant's order id, row-locked, or undefined. */
export const lockOrderByExternalId = (tx: Queryable, owner: Actor, externalId: string) =>
  orderByExternalId(tx, owner, externalId, forUpdate(tx));

/** The owner's order by the merchant's order id, or undefined (a read: no lock). */
export const findOrderByExternalId = (tx: Queryable, owner: Actor, externalId: string) =>
  orderByExternalId(tx, owner, externalId, "");

async function orderByExternalId(
  tx: Queryable,
  owner: Actor,
  externalId: string,
  suffix: string,
): Promise<OrderRecord | undefined> {
  const row = await tx.get<{ id: string; plan_id: string; status: OrderStatus }>(
    `SELECT id, plan_id, status FROM orders WHERE merchant_id = ? AND mode = ? AND external_id = ?${suffix}`,
    [owner.merchantId, owner.mode, externalId],
  );
  return row && { id: row.id, planId: row.plan_id, status: row.status };
}

/**
 * Records when the carrier reported the order delivered; the first report stays (a later fulfilment of the same order
 * does not move it). Returns whether it was recorded: false for an order the owner does not have, or recorded before.
 */
export async function markOrderDelivered(
  tx: Queryable,
  owner: Actor,
  externalId: string,
  deliveredAt: number,
): Promise<boolean> {
  const updated = await tx.run(
    `UPDATE orders SET delivered_at = ?
     WHERE merchant_id = ? AND mode = ? AND external_id = ? AND delivered_at IS NULL`,
    [deliveredAt, owner.merchantId, owner.mode, externalId],
  );
  return updated > 0;
}

/** The delivery recorded on the plan's order (markOrderDelivered), or null: none, or no order. */
export async function findPlanOrderDeliveredAt(tx: Queryable, planId: string): Promise<number | null> {
  const row = await tx.get<{ delivered_at: number | string | null }>(
    "SELECT delivered_at FROM orders WHERE plan_id = ?",
    [planId],
  );
  const at = row?.delivered_at ?? null;
  return at === null ? null : Number(at);
}

export async function markOrderRefunded(tx: Queryable, orderId: string, at: number): Promise<void> {
  await tx.run("UPDATE orders SET status = 'merchant_refunded', refunded_at = ? WHERE id = ?", [at, orderId]);
}

/** A credit for the merchant's next settlement statement (not yet on one). */
export async function insertSettlementCredit(
  tx: Queryable,
  owner: Actor,
  credit: {
    id: string;
    planId: string;
    externalOrderId: string;
    amountCents: number;
    currency: string;
    reason: "merchant_refunded";
    createdAt: number;
  },
): Promise<void> {
  await tx.run(
    `INSERT INTO settlement_credits (id, merchant_id, mode, plan_id, order_id, amount_cents, currency, reason, statement_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
    [
      credit.id,
      owner.merchantId,
      owner.mode,
      credit.planId,
      credit.externalOrderId,
      credit.amountCents,
      credit.currency,
      credit.reason,
      credit.createdAt,
    ],
  );
}
