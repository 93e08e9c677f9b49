// The claim_paid e-mail: the approved refund was paid (how much, through which channel), or the replacement sent.
import {
  claimSummary,
  footer,
  howRefunded,
  inertCallerText,
  money,
  orderFrom,
  renderEmail,
  type EmailTemplateRenderer,
} from "./layout.ts";

/** Sent once the claim is paid (refunded or replaced). */
export const claimPaid: EmailTemplateRenderer = ({ plan, claim, settings, coverageLink }) => {
  if (claim?.status !== "paid") return undefined;
  if (claim.remedy === "replacement")
    return renderEmail(`Your replacement has been sent: ${plan.referenceNumber}`, [
      `${inertCallerText(plan.merchantName)} has sent you a replacement for your ${orderFrom(plan)}.`,
      claimSummary(plan, claim),
      { label: "Your claim", href: coverageLink },
      ...footer(plan, settings),
    ]);
  const amount = claim.paidAmountCents > 0 ? claim.paidAmountCents : claim.amountCents;
  return renderEmail(`Your refund has been paid: ${plan.referenceNumber}`, [
    `Your refund for your ${orderFrom(plan)} has been paid: ${money(amount, claim.currency)}.`,
    claimSummary(plan, claim),
    howRefunded(plan.refundChannel, plan, true),
    { label: "Your claim", href: coverageLink },
    ...footer(plan, settings),
  ]);
};
