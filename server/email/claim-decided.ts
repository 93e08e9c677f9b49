// The claim_decided e-mail: the refund request was approved or denied. It says the decision in words — the published
// sentence (claims.decision_message, never its code) and the decider's note when one was given (the decision's
// timeline entry) — and for an approval what the buyer gets: the amount, the remedy, who pays it and by when
// (server/domain/payout-terms.ts, the rule the portal shows too).
import { payoutTerms } from "../domain/payout-terms.ts";
import { claimFacts, claimLabel, money, utcDay, type Block, type EmailTemplateRenderer } from "./layout.ts";
import type { EmailClaim, EmailPlan } from "../store/emails.ts";

const DECIDED = ["approved", "denied", "paid"];

/** The reviewer's note, as they wrote it, after the published sentence. */
const noteOf = (claim: EmailClaim): Block[] =>
  claim.decisionNote ? [{ quoteLabel: "Note from the claims team:", quote: claim.decisionNote }] : [];

function approval(plan: EmailPlan, claim: EmailClaim, decidedAt: number) {
  const remedy = claim.remedy ?? "refund";
  const terms = payoutTerms(plan.refundChannel, decidedAt, remedy);
  const amount = money(claim.amountCents, claim.currency);
  return {
    lead: [
      `Your refund request, ${claimLabel(plan, claim)}, has been approved.`,
      `${remedy === "replacement" ? `You get a replacement worth ${amount}.` : `You get ${amount} back.`} ${terms.sentence(plan.merchantName)}`,
    ],
    body: [
      {
        facts: [
          ["Amount", amount],
          ["Remedy", remedy === "replacement" ? "A replacement" : "A refund"],
          remedy === "replacement"
            ? [
                "Who sends it",
                terms.payer === "shopify_refund"
                  ? `${plan.merchantName}, as a free order placed for you automatically`
                  : plan.merchantName,
              ]
            : [
                "Who pays",
                terms.payer === "shopify_refund"
                  ? `${plan.merchantName}, automatically to the payment method you used`
                  : plan.merchantName,
              ],
          ["Due by", utcDay(terms.dueByMs)],
        ],
      },
      `Why: ${claim.decisionMessage}`,
      ...noteOf(claim),
      `We e-mail you again once it is ${remedy === "replacement" ? "sent" : "paid"}.`,
      claimFacts(plan, claim),
    ] satisfies Block[],
  };
}

/** Sent once the claim is decided (a paid claim was approved). */
export const claimDecided: EmailTemplateRenderer = ({ plan, claim }) => {
  if (!claim || !DECIDED.includes(claim.status)) return undefined;
  // No silent decisions: a decision without its reason is an error (retried, then "failed"), never an e-mail.
  if (!claim.decisionMessage || !claim.decisionCode || claim.decidedAt === null)
    throw new Error(`claim ${claim.id} is ${claim.status} without a decision reason`);
  const subject = `Decision on your refund request: ${plan.referenceNumber}`;
  if (claim.status !== "denied")
    return {
      subject,
      heading: "Your refund request has been approved",
      button: "See your request",
      ...approval(plan, claim, claim.decidedAt),
    };
  return {
    subject,
    heading: "Your refund request was not approved",
    lead: [`Your refund request, ${claimLabel(plan, claim)}, was not approved.`, `Why: ${claim.decisionMessage}`],
    button: "See your request",
    body: [
      ...noteOf(claim),
      "If you have information the claims team did not see, you can file a new refund request with it in the portal.",
      claimFacts(plan, claim),
    ],
  };
};
