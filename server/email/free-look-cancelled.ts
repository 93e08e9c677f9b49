// The free_look_cancelled e-mail: the buyer cancelled within 48 hours (POST /portal/cancel). It confirms the
// cancellation, the fee the buyer paid coming back (of a split plan, the buyer's part: the merchant's part returns on
// its statement) and who returns it (Shopify: automatically, to the original payment method; other carts: the merchant).
import { money, orderLabel, utcDayAndTime, type EmailTemplateRenderer } from "./layout.ts";
import type { EmailPlan } from "../store/emails.ts";

/** Who returns the fee: on Shopify the app, through the order's own payment (docs/api.md "The fee refund"). */
const whoRefundsTheFee = (plan: EmailPlan) =>
  plan.feeRefundChannel === "shopify"
    ? "It is refunded automatically to the payment method you used for the order."
    : `${plan.merchantName} refunds it to you directly and confirms the refund to us.`;

/** Sent while the plan stays cancelled. */
export const freeLookCancelled: EmailTemplateRenderer = ({ plan }) => {
  if (plan.status !== "cancelled") return undefined;
  return {
    subject: `Your purchase protection is cancelled: ${plan.referenceNumber}`,
    heading: "Your protection is cancelled",
    lead: [
      `You cancelled the purchase protection of your ${orderLabel(plan)} from ${plan.merchantName}${plan.cancelledAt === null ? "" : ` on ${utcDayAndTime(plan.cancelledAt)}`}. Your reference number is ${plan.referenceNumber}.`,
      `The protection fee of ${money(plan.buyerFeeCents, plan.currency)} is refunded in full. ${whoRefundsTheFee(plan)}`,
    ],
    button: "See your coverage",
    body: ["The order is no longer protected: no claim can be filed for it."],
  };
};
