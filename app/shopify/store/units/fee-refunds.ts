// The fee refund job's units of work (app/shopify/fee-refunds.server.ts): the core's check before the fee moves on
// Shopify, and the refund confirmed on the plan after; each one transaction.
import {
  assertFeeRefundable,
  confirmFeeRefund,
  type Actor,
  type Database,
  type Services,
} from "../../../../server/index.ts";

/** Throws the core's refusal (docs/api.md "Money invariants") when the plan's fee may not be refunded. */
export function checkFeeRefundable(db: Database, owner: Actor, planId: string): Promise<void> {
  return db.transaction((tx) => assertFeeRefundable(tx, owner, planId));
}

/** The fee was refunded on Shopify (`reference`: the refund's gid). */
export async function saveFeeRefunded(
  db: Database,
  services: Services,
  owner: Actor,
  planId: string,
  reference: string,
): Promise<void> {
  await db.transaction((tx) => confirmFeeRefund(tx, services, owner, planId, { reference, channel: "shopify" }));
}
