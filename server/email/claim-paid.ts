// The claim_paid e-mail: the approved refund was paid. It says how much and through which channel.
import {
  claimSummary,
  footer,
  howRefunded,
  money,
  orderFrom,
  renderEmail,
  type EmailTemplateRenderer,
} from "./layout.ts";

/** Sent once the claim is paid. */
export const claimPaid: EmailTemplateRenderer = ({ plan, claim, settings, coverageLink }) => {
  if (claim?.status !== "paid") return undefined;
  const amount = claim.paidAmountCents > 0 ? claim.paidAmountCents : claim.amountCents;
  return renderEmail(`Your refund has been paid: ${plan.referenceNumber}`, [
    `Your refund for your ${orderFrom(plan)} has been paid: ${money(amount, claim.currency)}.`,
    claimSummary(plan, claim),
    howRefunded(plan.refundChannel, plan, true),
    { label: "Your claim", href: coverageLink },
    ...footer(plan, settings),
  ]);
};
