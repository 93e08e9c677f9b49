// The protection fee owed back after a free-look cancellation (docs/api.md "Buyer portal API"). A Shopify shop's fee is
// refunded by the Shopify app through the original order (refundCreate: App Store requirement 1.1.15), which then
// records it here; any other merchant refunds it through its own cart and confirms it through
// POST /purchases/{id}/fee-refund. Either way the fee_refunds row is what settlement reads.
import { newId } from "./ids.ts";
import type { Services, Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { DomainError, notFound } from "./errors.ts";
import { getPurchase, type Purchase } from "./purchases.ts";
import { insertFeeRefund, lockFeeRefund, markFeeRefunded, type FeeRefundRecord } from "../store/fee-refunds.ts";
import { lockPlan } from "../store/plans.ts";
import { findPlanClaimIn } from "../store/claims.ts";

export type FeeRefundChannel = FeeRefundRecord["channel"];

/**
 * The pending refund of a just-cancelled plan's fee, to be made through the merchant's channel: what the buyer paid
 * (a split plan's buyer part; the merchant's part comes back on its statement, not to the buyer).
 */
export async function owePlanFee(
  tx: Tx,
  services: Services,
  actor: Actor,
  plan: { id: string; buyerFeeCents: number; currency: string; shopifyShop: boolean },
): Promise<void> {
  const now = services.clock();
  await insertFeeRefund(tx, {
    id: newId("frf", now, services.random),
    merchantId: actor.merchantId,
    mode: actor.mode,
    planId: plan.id,
    amountCents: plan.buyerFeeCents,
    currency: plan.currency,
    channel: plan.shopifyShop ? "shopify" : "merchant",
    createdAt: now,
  });
}

/**
 * Whether the fee of a cancelled plan may still be refunded: the check the Shopify app makes before it refunds the fee
 * on the order (docs/api.md "Money invariants"). The cancellation already refuses a plan with a claim that is not denied;
 * a plan cancelled with a claim approved or paid all the same (before that check existed) is 409
 * plan_has_claim_payout: its buyer is refunded through the claim, and the claims team settles which refund stands.
 */
export async function assertFeeRefundable(tx: Tx, actor: Actor, planId: string): Promise<void> {
  if (!(await lockPlan(tx, actor, { planId }))) throw notFound("purchase", planId);
  const payout = await findPlanClaimIn(tx, planId, ["approved", "paid"]);
  if (payout)
    throw new DomainError(
      "conflict",
      "plan_has_claim_payout",
      `Purchase '${planId}' has claim '${payout.id}' ${payout.status}: its buyer is refunded through the claim, not the fee as well.`,
    );
}

/**
 * Records that the fee of a cancelled plan was refunded: by the merchant (channel `merchant`, through the API) or by
 * the Shopify app (channel `shopify`, with the refund's gid). A second confirmation changes nothing and returns the
 * same purchase. A plan with no fee owed is 409 fee_refund_not_owed; a Shopify plan confirmed through the API (or the
 * reverse) is 409 fee_refund_automatic.
 */
export async function confirmFeeRefund(
  tx: Tx,
  services: Services,
  actor: Actor,
  planId: string,
  input: { reference: string | null; channel: FeeRefundChannel },
): Promise<Purchase> {
  if (!(await lockPlan(tx, actor, { planId }))) throw notFound("purchase", planId);
  const refund = await lockFeeRefund(tx, actor, planId);
  if (!refund)
    throw new DomainError(
      "conflict",
      "fee_refund_not_owed",
      `Purchase '${planId}' was not cancelled in its free look: no fee is owed back.`,
    );
  if (refund.channel !== input.channel)
    throw new DomainError(
      "conflict",
      "fee_refund_automatic",
      refund.channel === "shopify"
        ? `The fee of purchase '${planId}' is refunded by the Shopify app through the original order; nothing to confirm.`
        : `The fee of purchase '${planId}' is refunded by the merchant, not by the Shopify app.`,
    );
  if (refund.status === "pending") await markFeeRefunded(tx, refund.id, input.reference, services.clock());
  return getPurchase(tx, actor, planId, false);
}
