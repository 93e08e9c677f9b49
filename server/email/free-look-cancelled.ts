// The free_look_cancelled e-mail: the buyer cancelled within 48 hours (POST /portal/cancel). It confirms the
// cancellation, the fee coming back and who returns it (Shopify: automatically, to the original payment method;
// other carts: the merchant).
import { footer, howRefunded, money, orderFrom, renderEmail, utcTime, type EmailTemplateRenderer } from "./layout.ts";

/** Sent while the plan stays cancelled. */
export const freeLookCancelled: EmailTemplateRenderer = ({ plan, settings, coverageLink }) => {
  if (plan.status !== "cancelled") return undefined;
  return renderEmail(`Your purchase protection is cancelled: ${plan.referenceNumber}`, [
    `You cancelled the purchase protection of your ${orderFrom(plan)}${plan.cancelledAt === null ? "" : ` on ${utcTime(plan.cancelledAt)}`}. Your reference number is ${plan.referenceNumber}.`,
    `The protection fee of ${money(plan.feeCents, plan.currency)} is refunded in full. ${howRefunded(plan.feeRefundChannel, plan)}`,
    "The order is no longer protected: refunds for covered reasons can no longer be requested for it.",
    { label: "Your coverage details", href: coverageLink },
    ...footer(plan, settings),
  ]);
};
