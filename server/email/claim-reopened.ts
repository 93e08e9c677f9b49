// The claim_reopened e-mail: a refund request the claim rules approved as lost in transit went back to the claims
// team before it was paid, because the carrier scanned the parcel again. It quotes why (the timeline's entry) and
// says when the review ends.
import { CLAIM_REVIEW_BUSINESS_DAYS, claimFacts, claimLabel, type EmailTemplateRenderer } from "./layout.ts";

/** Sent while the claim is still back under review (not once the claims team decided again). */
export const claimReopened: EmailTemplateRenderer = ({ plan, claim }) => {
  if (claim?.status !== "under_review") return undefined;
  return {
    subject: `Your refund request is back under review: ${plan.referenceNumber}`,
    heading: "Your parcel is moving again",
    lead: [
      `The carrier scanned your parcel again after your refund request, ${claimLabel(plan, claim)}, was approved as lost in transit. The approval is withdrawn before any refund was made, and the claims team will look at your request again.`,
    ],
    button: "See your refund request",
    body: [
      ...(claim.latestRequest ? [{ quoteLabel: "What changed:", quote: claim.latestRequest.text }] : []),
      `The claims team decides within ${CLAIM_REVIEW_BUSINESS_DAYS} business days. If the parcel still does not reach you, tell them in the portal.`,
      claimFacts(plan, claim),
    ],
  };
};
