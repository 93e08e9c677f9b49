// The claim_paid e-mail: the approved refund was paid (how much, how, when), or the replacement sent (on Shopify: the
// free replacement order placed, which the store ships) — with the merchant's reference and note when it confirmed the
// payment itself.
import { BANK_REFUND_BUSINESS_DAYS } from "../domain/payout-terms.ts";
import {
  claimFacts,
  claimLabel,
  money,
  orderLabel,
  utcDayAndTime,
  type Block,
  type EmailTemplateRenderer,
} from "./layout.ts";

/** Sent once the claim is paid (refunded or replaced). */
export const claimPaid: EmailTemplateRenderer = ({ plan, claim }) => {
  if (claim?.status !== "paid") return undefined;
  const channel = claim.resolution?.channel ?? plan.refundChannel;
  const amount = money(claim.paidAmountCents > 0 ? claim.paidAmountCents : claim.amountCents, claim.currency);
  const replacement = claim.remedy === "replacement";
  const facts: [string, string][] = [
    [replacement ? "Worth" : "Amount paid", amount],
    ...(claim.resolvedAt === null
      ? []
      : [[replacement ? "Sent" : "Paid", utcDayAndTime(claim.resolvedAt)] as [string, string]]),
    // The merchant's own reference (its refund id, the replacement order or tracking number); a Shopify payout's
    // reference is the app's, meaningless to the buyer.
    ...(channel === "merchant" && claim.resolution?.reference
      ? [["Store's reference", claim.resolution.reference] as [string, string]]
      : []),
  ];
  const note: Block[] =
    channel === "merchant" && claim.resolution?.note
      ? [{ quoteLabel: `Note from ${plan.merchantName}:`, quote: claim.resolution.note }]
      : [];
  if (replacement) {
    const automatic = channel === "shopify";
    return {
      subject: `${automatic ? "Your replacement order has been placed" : "Your replacement has been sent"}: ${plan.referenceNumber}`,
      heading: automatic ? "Your replacement order has been placed" : "Your replacement has been sent",
      lead: [
        automatic
          ? `A free replacement order for your ${orderLabel(plan)} has been placed for you, as approved for your refund request, ${claimLabel(plan, claim)}. ${plan.merchantName} ships it like any order.`
          : `${plan.merchantName} has sent you a replacement for your ${orderLabel(plan)}, as approved for your refund request, ${claimLabel(plan, claim)}.`,
      ],
      button: "See your request",
      body: [{ facts }, ...note, claimFacts(plan, claim)],
    };
  }
  const how =
    channel === "shopify"
      ? `It went back automatically to the payment method you used for your ${orderLabel(plan)}.`
      : `${plan.merchantName} refunded it to you directly and confirmed the refund to us.`;
  return {
    subject: `Your refund has been paid: ${plan.referenceNumber}`,
    heading: "Your refund has been paid",
    lead: [
      `Your refund of ${amount} for ${claimLabel(plan, claim)} has been paid. ${how} Your bank can take ${BANK_REFUND_BUSINESS_DAYS} business days to show it.`,
    ],
    button: "See your request",
    body: [{ facts }, ...note, claimFacts(plan, claim)],
  };
};
