// The claim_information_needed e-mail: the claims team asked the buyer for more (the claim moved to
// needs_information). It quotes what was asked — the newest message or status change on the claim's timeline not
// written by the buyer — and its button opens the claim in the portal, where the buyer answers.
import { CLAIM_REVIEW_BUSINESS_DAYS, claimFacts, claimLabel, emailText, type EmailTemplateRenderer } from "./layout.ts";

/** Sent while the claim still waits for the buyer (not once they answered or it was decided). */
export const claimInformationNeeded: EmailTemplateRenderer = ({ plan, claim }) => {
  if (claim?.status !== "needs_information") return undefined;
  const { t } = emailText(plan);
  return {
    subject: t("information.subject", { reference: plan.referenceNumber }),
    heading: t("information.heading"),
    // The question follows the button: however long it is, the button stays above the fold on a phone.
    lead: [t("information.lead", { claim: claimLabel(plan, claim) })],
    button: t("button.answer"),
    body: [
      claim.latestRequest
        ? { quoteLabel: t("information.asks"), quote: claim.latestRequest.text }
        : t("information.tellMore"),
      t("information.continues", { days: CLAIM_REVIEW_BUSINESS_DAYS }),
      claimFacts(plan, claim),
    ],
  };
};
