// The claim_information_needed e-mail: the claims team asked the buyer for more (the claim moved to
// needs_information). It quotes what was asked — the newest message or status change on the claim's timeline not
// written by the buyer — and links to the portal, where the buyer answers.
import {
  CLAIM_REVIEW_BUSINESS_DAYS,
  claimSummary,
  footer,
  inertCallerText,
  orderFrom,
  renderEmail,
  type EmailTemplateRenderer,
} from "./layout.ts";

/** Sent while the claim still waits for the buyer (not once they answered or it was decided). */
export const claimInformationNeeded: EmailTemplateRenderer = ({ plan, claim, settings, coverageLink }) => {
  if (claim?.status !== "needs_information") return undefined;
  return renderEmail(`More information needed for your refund request: ${plan.referenceNumber}`, [
    `The claims team needs more information about your refund request for your ${orderFrom(plan)}.`,
    claimSummary(plan, claim),
    claim.latestRequest
      ? `What we asked: ${inertCallerText(claim.latestRequest.text)}`
      : "Please tell us more about what happened, and add photos or documents if you have them.",
    `Answer in the portal (you can add files there). Once you answer, the review continues, within ${CLAIM_REVIEW_BUSINESS_DAYS} business days.`,
    { label: "Answer the claims team", href: coverageLink },
    ...footer(plan, settings),
  ]);
};
