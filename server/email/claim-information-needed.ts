// The claim_information_needed e-mail: the claims team asked the buyer for more (the claim moved to
// needs_information). It quotes what was asked — the newest message or status change on the claim's timeline not
// written by the buyer — and its button opens the claim in the portal, where the buyer answers.
import { CLAIM_REVIEW_BUSINESS_DAYS, claimFacts, claimLabel, type EmailTemplateRenderer } from "./layout.ts";

/** Sent while the claim still waits for the buyer (not once they answered or it was decided). */
export const claimInformationNeeded: EmailTemplateRenderer = ({ plan, claim }) => {
  if (claim?.status !== "needs_information") return undefined;
  return {
    subject: `More information needed for your refund request: ${plan.referenceNumber}`,
    heading: "The claims team needs more information",
    // The question follows the button: however long it is, the button stays above the fold on a phone.
    lead: [
      `The claims team has a question about your refund request, ${claimLabel(plan, claim)}. Answer it in the portal (you can add files there).`,
    ],
    button: "Answer the claims team",
    body: [
      claim.latestRequest
        ? { quoteLabel: "The claims team asks:", quote: claim.latestRequest.text }
        : "Please tell us more about what happened, and add photos or documents if you have them.",
      `Once you answer, the review continues, within ${CLAIM_REVIEW_BUSINESS_DAYS} business days.`,
      claimFacts(plan, claim),
    ],
  };
};
