// Fees owed back after a free-look cancellation (fee_refunds): one row per cancelled plan, refunded by the Shopify
// app through the original order (channel shopify) or confirmed by the merchant through the API (channel merchant).
import type { Mode } from "../vocabulary/ids.ts";
import { forUpdate, type Queryable } from "./database.ts";

export interface FeeRefundRecord {
  id: string;
  amountCents: number;
  currency: string;
  channel: "shopify" | "merchant";
  status: "pending" | "refunded";
  /** The Shopify refund gid, or the merchant's own reference. */
  reference: string | null;
  refundedAt: number | null;
}

export interface NewFeeRefund {
  id: string;
  merchantId: string;
  mode: Mode;
  planId: string;
  amountCents: number;
  currency: string;
  channel: FeeRefundRecord["channel"];
  createdAt: number;
}

/** A pending fee refund; the plan's one (plan_id is unique: a second insert is a bug, and fails). */
export async function insertFeeRefund(tx: Queryable, refund: NewFeeRefund): Promise<void> {
  await tx.run(
    `INSERT INTO fee_refunds (id, merchant_id, mode, plan_id, amount_cents, currency, channel, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    [
      refund.id,
      refund.merchantId,
      refund.mode,
      refund.planId,
      refund.amountCents,
      refund.currency,
      refund.channel,
      refund.createdAt,
    ],
  );
}

/** The fee refund of an owner's plan, row-locked, or undefined. */
export async function lockFeeRefund(
  tx: Queryable,
  owner: { merchantId: string; mode: Mode },
  planId: string,
): Promise<FeeRefundRecord | undefined> {
  const row = await tx.get<{
    id: string;
    amount_cents: number;
    currency: string;
    channel: FeeRefundRecord["channel"];
    status: FeeRefundRecord["status"];
    reference: string | null;
    refunded_at: number | null;
  }>(
    `SELECT id, amount_cents, currency, channel, status, reference, refunded_at FROM fee_refunds
     WHERE plan_id = ? AND merchant_id = ? AND mode = ?${forUpdate(tx)}`,
    [planId, owner.merchantId, owner.mode],
  );
  return (
    row && {
      id: row.id,
      amountCents: row.amount_cents,
      currency: row.currency,
      channel: row.channel,
      status: row.status,
      reference: row.reference,
      refundedAt: row.refunded_at,
    }
  );
}

/** Records the refund as made (its reference and time); only a pending one changes. */
export async function markFeeRefunded(tx: Queryable, id: string, reference: string | null, at: number): Promise<void> {
  await tx.run(
    "UPDATE fee_refunds SET status = 'refunded', reference = ?, refunded_at = ?, last_error = NULL WHERE id = ? AND status = 'pending'",
    [reference, at, id],
  );
}
