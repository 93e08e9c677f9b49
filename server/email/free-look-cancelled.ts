// The free_look_cancelled e-mail: the buyer cancelled within 48 hours (POST /portal/cancel). It confirms the
// cancellation, the fee the buyer paid coming back (of a split plan, the buyer's part: the merchant's part returns on
// its statement) and who returns it (Shopify: automatically, to the original payment method; other carts: the merchant).
import { emailText, orderLabel, type EmailTemplateRenderer } from "./layout.ts";

/** Sent while the plan stays cancelled. */
export const freeLookCancelled: EmailTemplateRenderer = ({ plan }) => {
  if (plan.status !== "cancelled") return undefined;
  const { t, money, dayAndTime } = emailText(plan);
  const reference = plan.referenceNumber;
  const merchant = plan.merchantName;
  const order = orderLabel(plan);
  // Who returns the fee: on Shopify the app, through the order's own payment (docs/api.md "The fee refund").
  const whoRefunds =
    plan.feeRefundChannel === "shopify" ? t("cancelled.byShopify") : t("cancelled.byMerchant", { merchant });
  return {
    subject: t("cancelled.subject", { reference }),
    heading: t("cancelled.heading"),
    lead: [
      plan.cancelledAt === null
        ? t("cancelled.lead", { order, merchant, reference })
        : t("cancelled.leadOn", { order, merchant, reference, when: dayAndTime(plan.cancelledAt) }),
      `${t("cancelled.refund", { fee: money(plan.buyerFeeCents, plan.currency) })} ${whoRefunds}`,
    ],
    button: t("button.coverage"),
    body: [t("cancelled.body")],
  };
};
