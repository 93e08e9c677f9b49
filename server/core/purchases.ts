// A purchase's changes from the dashboard: void its plan, confirm the protection fee refunded after a free-look
// cancellation (carts other than Shopify), report a refund the merchant made for a protected order (the API's
// POST /orders/{orderId}/refund: the plan is voided, the merchant's fee share credited on the next statement).
import { z } from "zod";
import type { CoreDeps } from "./deps.ts";
import { actorOf, type MerchantCaller } from "./callers.ts";
import { parseInput } from "../domain/accounts.ts";
import { voidPlan } from "../domain/plans.ts";
import { confirmFeeRefund } from "../domain/fee-refunds.ts";
import { reportMerchantRefund } from "../domain/orders.ts";

const feeRefundSchema = z.strictObject({
  reference: z
    .string()
    .trim()
    .max(200, "At most 200 characters.")
    .transform((text) => (text === "" ? null : text)),
});

const refundReportSchema = z.strictObject({
  orderId: z
    .string()
    .trim()
    .min(1, "Enter the order id the purchase was protected under.")
    .max(255, "At most 255 characters."),
});

export function purchasesArea({ db, services }: CoreDeps) {
  return {
    void: (caller: MerchantCaller, purchaseId: string) =>
      db.transaction((tx) => voidPlan(tx, services, actorOf(caller), { planId: purchaseId }, "merchant_voided")),
    confirmFeeRefund(caller: MerchantCaller, purchaseId: string, input: { reference: unknown }) {
      const { reference } = parseInput(feeRefundSchema, input);
      return db.transaction((tx) =>
        confirmFeeRefund(tx, services, actorOf(caller), purchaseId, { reference, channel: "merchant" }),
      );
    },
    reportRefund(caller: MerchantCaller, input: { orderId: unknown }) {
      const { orderId } = parseInput(refundReportSchema, input);
      return db.transaction((tx) => reportMerchantRefund(tx, services, actorOf(caller), orderId));
    },
  };
}
