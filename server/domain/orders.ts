import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { applyBps } from "./money.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";
import { appendEvent } from "./events.ts";
import { appendLedgerEntry } from "./ledger.ts";
import { voidPlan } from "./plans.ts";
import { getPurchase, type Purchase } from "./purchases.ts";
import {
  insertSettlementCredit,
  lockOrderByExternalId,
  markOrderDelivered,
  markOrderRefunded,
} from "../store/orders.ts";
import { lockPlan } from "../store/plans.ts";
import { findPlanClaimIn } from "../store/claims.ts";
import { merchantShareBpsOfQuote } from "../store/programs.ts";

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
 * docs/api.md "Orders: merchant refund report": a merchant's refund of a protected order marks the order merchant_refunded, voids the plan and
 * credits the merchant's fee share on the next settlement statement. No consumer refund is issued here. An order whose
 * plan has a claim approved or paid is refused (409 order_has_claim_payout): its buyer is (to be) refunded through
 * the claim, and a second refund of the same order would pay twice (docs/api.md "Money invariants").
 */
export async function reportMerchantRefund(
  tx: Tx,
  services: Services,
  actor: Actor,
  externalOrderId: string,
): Promise<MerchantRefund> {
  const order = await lockOrderByExternalId(tx, actor, externalOrderId);
  if (!order) throw notFound("protected order", externalOrderId, "orderId");
  if (order.status === "merchant_refunded") {
    throw new DomainError(
      "conflict",
      "order_already_refunded",
      `Order '${externalOrderId}' was already reported as refunded.`,
      "orderId",
    );
  }
  // The plan's row lock first, as filing, deciding and paying a claim take it: no claim is approved or paid between
  // this check and the void.
  await lockPlan(tx, actor, { planId: order.planId });
  const payout = await findPlanClaimIn(tx, order.planId, ["approved", "paid"]);
  if (payout) {
    const amount = `${formatDecimalAmount(payout.status === "paid" ? payout.paidAmountCents : payout.amountCents, payout.currency)} ${payout.currency}`;
    throw new DomainError(
      "conflict",
      "order_has_claim_payout",
      payout.status === "paid"
        ? `Order '${externalOrderId}' was already refunded ${amount} through claim '${payout.id}': a refund report would refund it twice.`
        : `Order '${externalOrderId}' has claim '${payout.id}' approved for ${amount}: pay it and confirm its resolution (POST /merchant/claims/${payout.id}/resolution) instead of reporting a refund.`,
      "orderId",
    );
  }
  const plan = await voidPlan(tx, services, actor, { planId: order.planId }, "merchant_refunded");
  // The share the sale earned (docs/api.md "Who pays"): of the buyer's part only, so a merchant-paid plan's is 0 and
  // its refund report credits nothing (the void above returns the fee the merchant paid).
  const creditCents = applyBps(plan.buyerFeeCents, await merchantShareBpsOfQuote(tx, plan.quoteId));
  const now = services.clock();
  await insertSettlementCredit(tx, actor, {
    id: newId("cred", now, services.random),
    planId: plan.id,
    externalOrderId,
    amountCents: creditCents,
    currency: plan.currency,
    reason: "merchant_refunded",
    createdAt: now,
  });
  // The statement reads the ledger; settlement_credits stays as the refund report's own record (tests and the
  // erasure job read it) until it is retired.
  if (plan.payer !== "merchant")
    await appendLedgerEntry(tx, services, actor, {
      kind: "merchant_refund_credit",
      amountCents: creditCents,
      currency: plan.currency,
      sourceId: plan.id,
      planId: plan.id,
    });
  await markOrderRefunded(tx, order.id, now);
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

/**
 * The carrier reported the protected order's goods delivered (on Shopify, a fulfilment event): the claim rules read it
 * (a "not delivered" claim of a delivered order is not approved by a rule). The first report is kept. Returns whether
 * it was recorded: false when the merchant has no such protected order, or a delivery was recorded before.
 */
export function recordOrderDelivered(
  tx: Tx,
  actor: Actor,
  externalOrderId: string,
  deliveredAt: number,
): Promise<boolean> {
  return markOrderDelivered(tx, actor, externalOrderId, deliveredAt);
}
