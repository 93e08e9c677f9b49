// The claim_paid e-mail: the approved refund was paid (how much, how, when), or the replacement sent — with the
// merchant's reference and note when it confirmed the payment itself.
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
  const when = claim.resolvedAt === null ? [] : [` on ${utcDayAndTime(claim.resolvedAt)}`];
  // The merchant's own reference (its refund id, the replacement order or tracking number) and note; a Shopify
  // refund's reference is the app's, meaningless to the buyer.
  const fromMerchant: Block[] =
    channel === "merchant"
      ? [
          ...(claim.resolution?.reference
            ? [{ facts: [[`Reference from ${plan.merchantName}`, claim.resolution.reference]] } satisfies Block]
            : []),
          ...(claim.resolution?.note
            ? [{ quoteLabel: `Note from ${plan.merchantName}:`, quote: claim.resolution.note } satisfies Block]
            : []),
        ]
      : [];
  if (claim.remedy === "replacement")
    return {
      subject: `Your replacement has been sent: ${plan.referenceNumber}`,
      heading: "Your replacement has been sent",
      lead: [
        `${plan.merchantName} has sent you a replacement for your ${orderLabel(plan)}${when.join("")}: ${claimLabel(plan, claim)} is settled.`,
      ],
      button: "See your request",
      body: [...fromMerchant, claimFacts(plan, claim)],
    };
  const amount = money(claim.paidAmountCents > 0 ? claim.paidAmountCents : claim.amountCents, claim.currency);
  const how =
    channel === "shopify"
      ? `It went back automatically to the payment method you used for your ${orderLabel(plan)}${when.join("")}.`
      : `${plan.merchantName} refunded it to you directly and confirmed the refund to us${when.join("")}.`;
  return {
    subject: `Your refund has been paid: ${plan.referenceNumber}`,
    heading: "Your refund has been paid",
    lead: [
      `Your refund of ${amount} for ${claimLabel(plan, claim)} has been paid. ${how} Your bank can take ${BANK_REFUND_BUSINESS_DAYS} business days to show it.`,
    ],
    button: "See your request",
    body: [...fromMerchant, claimFacts(plan, claim)],
  };
};
