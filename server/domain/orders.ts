import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Actor, type Services, type Tx } from "./context.ts";
import { applyBps } from "./money.ts";
import { appendEvent } from "./events.ts";
import { voidPlan } from "./plans.ts";
import { getPurchase, type Purchase } from "./purchases.ts";
import { forUpdate } from "../store/database.ts";

export interface MerchantRefund {
  orderId: string;
  status: "merchant_refunded";
  refundedAt: string;
  purchase: Purchase;
  settlementCredit: { amountCents: number; currency: string; statement: "next" };
  /** The merchant refunded the buyer; the service pays no second refund to the consumer. */
  consumerRefundIssued: false;
  livemode: boolean;
}

/**
 * README "Orders: merchant refund report": a merchant's refund of a protected order marks the order merchant_refunded, voids the plan and
 * credits the merchant's fee share on the next settlement statement. No consumer refund is issued here.
 */
export async function reportMerchantRefund(tx: Tx, services: Services, actor: Actor, externalOrderId: string): Promise<MerchantRefund> {
  const order = await tx.get<{ id: string; plan_id: string; status: string }>(
    `SELECT id, plan_id, status FROM orders WHERE merchant_id = ? AND mode = ? AND external_id = ?${forUpdate(tx)}`,
    [actor.merchantId, actor.mode, externalOrderId],
  );
  if (!order) throw notFound("protected order", externalOrderId, "orderId");
  if (order.status === "merchant_refunded") {
    throw new DomainError("conflict", "order_already_refunded", `Order '${externalOrderId}' was already reported as refunded.`, "orderId");
  }
  const plan = await voidPlan(tx, services, actor, { planId: order.plan_id }, "merchant_refunded");
  const program = await tx.get<{ merchant_share_bps: number }>(
    "SELECT pp.merchant_share_bps FROM quotes q JOIN protection_programs pp ON pp.id = q.program_id WHERE q.id = ?",
    [plan.quoteId],
  );
  const creditCents = applyBps(plan.feeCents, program?.merchant_share_bps ?? 0);
  const now = services.clock();
  await tx.run(
    `INSERT INTO settlement_credits (id, merchant_id, mode, plan_id, order_id, amount_cents, currency, reason, statement_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'merchant_refunded', NULL, ?)`,
    [newId("cred", now, services.random), actor.merchantId, actor.mode, plan.id, externalOrderId, creditCents, plan.currency, now],
  );
  await tx.run("UPDATE orders SET status = 'merchant_refunded', refunded_at = ? WHERE id = ?", [now, order.id]);
  const refund: MerchantRefund = {
    orderId: externalOrderId,
    status: "merchant_refunded",
    refundedAt: iso(now),
    purchase: await getPurchase(tx, actor, plan.id, false),
    settlementCredit: { amountCents: creditCents, currency: plan.currency, statement: "next" },
    consumerRefundIssued: false,
    livemode: actor.mode === "live",
  };
  await appendEvent(tx, services, actor, "order.merchant_refunded", refund);
  return refund;
}
