// The claim_reopened e-mail: a refund request the claim rules approved as lost in transit went back to the claims
// team before it was paid, because the carrier scanned the parcel again. It quotes why (the timeline's entry) and
// says when the review ends.
import { CLAIM_REVIEW_BUSINESS_DAYS, claimFacts, claimLabel, emailText, type EmailTemplateRenderer } from "./layout.ts";

/** Sent while the claim is still back under review (not once the claims team decided again). */
export const claimReopened: EmailTemplateRenderer = ({ plan, claim }) => {
  if (claim?.status !== "under_review") return undefined;
  const { t } = emailText(plan);
  return {
    subject: t("reopened.subject", { reference: plan.referenceNumber }),
    heading: t("reopened.heading"),
    lead: [t("reopened.lead", { claim: claimLabel(plan, claim) })],
    button: t("button.refundRequest"),
    body: [
      ...(claim.latestRequest ? [{ quoteLabel: t("reopened.changed"), quote: claim.latestRequest.text }] : []),
      t("reopened.decides", { days: CLAIM_REVIEW_BUSINESS_DAYS }),
      claimFacts(plan, claim),
    ],
  };
};
