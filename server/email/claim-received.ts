// The claim_received e-mail: the buyer filed a refund request (POST /portal/claims). It confirms what we received
// (reference number, claim, reason, what the buyer told us) and what happens next, and how long it takes.
import {
  CLAIM_REVIEW_BUSINESS_DAYS,
  claimSummary,
  footer,
  inertCallerText,
  money,
  orderFrom,
  renderEmail,
  utcDate,
  type EmailTemplateRenderer,
} from "./layout.ts";

/** Sent while the claim exists. */
export const claimReceived: EmailTemplateRenderer = ({ plan, claim, settings, coverageLink }) => {
  if (!claim) return undefined;
  return renderEmail(`We received your refund request: ${plan.referenceNumber}`, [
    `We received your refund request for your ${orderFrom(plan)}.`,
    claimSummary(plan, claim),
    `Amount requested: ${money(claim.amountCents, claim.currency)}.${claim.occurredAt > 0 ? ` It happened on ${utcDate(claim.occurredAt)}.` : ""}`,
    `What you told us: ${inertCallerText(claim.description)}`,
    `What happens next: the claims team reviews your request within ${CLAIM_REVIEW_BUSINESS_DAYS} business days. If it needs more information, we e-mail you and you answer in the portal. Every decision, approved or denied, comes with its reason.`,
    { label: "Follow your request", href: coverageLink },
    ...footer(plan, settings),
  ]);
};
