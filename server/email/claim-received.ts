// The claim_received e-mail: the buyer filed a claim (POST /portal/claims). It confirms what we received (the claim's
// name, reason, amount, what the buyer told us, exactly as written) and what happens next, and how long it takes.
import {
  CLAIM_REVIEW_BUSINESS_DAYS,
  claimFacts,
  claimLabel,
  money,
  utcDay,
  type EmailTemplateRenderer,
} from "./layout.ts";

/** Sent while the claim exists. */
export const claimReceived: EmailTemplateRenderer = ({ plan, claim }) => {
  if (!claim) return undefined;
  return {
    subject: `We received your refund request: ${plan.referenceNumber}`,
    heading: "We received your refund request",
    lead: [
      `We received your refund request, ${claimLabel(plan, claim)}, for ${money(claim.amountCents, claim.currency)}. The claims team reviews it within ${CLAIM_REVIEW_BUSINESS_DAYS} business days.`,
    ],
    button: "Follow your request",
    body: [
      claimFacts(plan, claim),
      ...(claim.occurredAt > 0 ? [`You told us it happened on ${utcDay(claim.occurredAt)}.`] : []),
      { quoteLabel: "What you told us:", quote: claim.description },
      "What happens next: if the claims team needs more information, we e-mail you and you answer in the portal. Every decision, approved or not, comes with its reason.",
    ],
  };
};
