// The claim_received e-mail: the buyer filed a claim (POST /portal/claims). It confirms what we received (the claim's
// name, reason, amount, what the buyer told us, exactly as written) and what happens next, and how long it takes.
import { CLAIM_REVIEW_BUSINESS_DAYS, claimFacts, claimLabel, emailText, type EmailTemplateRenderer } from "./layout.ts";

/** Sent while the claim exists. */
export const claimReceived: EmailTemplateRenderer = ({ plan, claim }) => {
  if (!claim) return undefined;
  const { t, money, day } = emailText(plan);
  return {
    subject: t("received.subject", { reference: plan.referenceNumber }),
    heading: t("received.heading"),
    lead: [
      t("received.lead", {
        claim: claimLabel(plan, claim),
        amount: money(claim.amountCents, claim.currency),
        days: CLAIM_REVIEW_BUSINESS_DAYS,
      }),
    ],
    button: t("button.follow"),
    body: [
      claimFacts(plan, claim),
      ...(claim.occurredAt > 0 ? [t("received.occurred", { date: day(claim.occurredAt) })] : []),
      { quoteLabel: t("received.told"), quote: claim.description },
      t("received.next"),
    ],
  };
};
