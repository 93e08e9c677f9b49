// The claim_decided e-mail: the refund request was approved or denied. It says the decision in words — the published
// sentence (claims.decision_message, never its code, in the plan's language: the rulebook's) and the decider's note
// when one was given (the decision's timeline entry) — and for an approval what the buyer gets: the amount, the
// remedy, who pays it and by when (server/domain/payout-terms.ts, the rule the portal shows too).
import {
  BANK_REFUND_BUSINESS_DAYS,
  MERCHANT_PAYOUT_DAYS,
  SHOPIFY_PAYOUT_BUSINESS_DAYS,
  payoutTerms,
} from "../domain/payout-terms.ts";
import { claimFacts, claimLabel, emailText, type Block, type EmailTemplateRenderer } from "./layout.ts";
import type { EmailClaim, EmailPlan } from "../store/emails.ts";

const DECIDED = ["approved", "denied", "paid"];

/** The reviewer's note, as they wrote it, after the published sentence. */
const noteOf = (plan: EmailPlan, claim: EmailClaim): Block[] =>
  claim.decisionNote ? [{ quoteLabel: emailText(plan).t("decided.note"), quote: claim.decisionNote }] : [];

function approval(plan: EmailPlan, claim: EmailClaim, decidedAt: number, why: string) {
  const { t, money, day } = emailText(plan);
  const merchant = plan.merchantName;
  const remedy = claim.remedy ?? "refund";
  const terms = payoutTerms(plan.refundChannel, decidedAt, remedy);
  const amount = money(claim.amountCents, claim.currency);
  const byShopify = terms.payer === "shopify_refund";
  // Who pays and by when, as payoutTerms decides it, in the plan's language.
  const payout = t(
    byShopify
      ? remedy === "replacement"
        ? "payout.shopifyReplacement"
        : "payout.shopifyRefund"
      : remedy === "replacement"
        ? "payout.merchantReplacement"
        : "payout.merchantRefund",
    {
      merchant,
      by: day(terms.dueByMs),
      days: byShopify ? SHOPIFY_PAYOUT_BUSINESS_DAYS : MERCHANT_PAYOUT_DAYS,
      bankDays: BANK_REFUND_BUSINESS_DAYS,
    },
  );
  return {
    lead: [
      t("decided.approved", { claim: claimLabel(plan, claim) }),
      `${t("decided.youGet", { remedy, amount })} ${payout}`,
    ],
    body: [
      {
        facts: [
          [t("decided.amount"), amount],
          [t("decided.remedy"), t("decided.remedyValue", { remedy })],
          remedy === "replacement"
            ? [t("decided.whoSends"), byShopify ? t("decided.sentAutomatically", { merchant }) : merchant]
            : [t("decided.whoPays"), byShopify ? t("decided.paidAutomatically", { merchant }) : merchant],
          [t("decided.dueBy"), day(terms.dueByMs)],
        ],
      },
      t("decided.why", { reason: why }),
      ...noteOf(plan, claim),
      t("decided.again", { remedy }),
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
  const { t, rulebook } = emailText(plan);
  // The published sentence of its code in the plan's language (a sentence the rulebook does not know stays as stored).
  const why = rulebook.decision(claim.decisionCode, claim.decisionMessage);
  const subject = t("decided.subject", { reference: plan.referenceNumber });
  if (claim.status !== "denied")
    return {
      subject,
      heading: t("decided.approvedHeading"),
      button: t("button.request"),
      ...approval(plan, claim, claim.decidedAt, why),
    };
  return {
    subject,
    heading: t("decided.deniedHeading"),
    lead: [t("decided.denied", { claim: claimLabel(plan, claim) }), t("decided.why", { reason: why })],
    button: t("button.request"),
    body: [...noteOf(plan, claim), t("decided.newRequest"), claimFacts(plan, claim)],
  };
};
