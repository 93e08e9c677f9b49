// The claim_decided e-mail: the request was approved or denied. Every decision carries its published reason code and
// the sentence that explains it (claims.decision_code, decision_message); an approval also the amount and how it is
// paid.
import {
  claimSummary,
  footer,
  howRefunded,
  inertCallerText,
  money,
  orderFrom,
  renderEmail,
  type EmailTemplateRenderer,
} from "./layout.ts";

const DECIDED = ["approved", "denied", "paid"];

/** Sent once the claim is decided (a paid claim was approved). */
export const claimDecided: EmailTemplateRenderer = ({ plan, claim, settings, coverageLink }) => {
  if (!claim || !DECIDED.includes(claim.status)) return undefined;
  // No silent decisions: a decision without its reason is an error (retried, then "failed"), never an e-mail.
  if (!claim.decisionMessage || !claim.decisionCode)
    throw new Error(`claim ${claim.id} is ${claim.status} without a decision reason`);
  const approved = claim.status !== "denied";
  // The reason sentence and code are the claims team's (a published catalogue), not caller text: shown as written.
  const reason = `Reason (${claim.decisionCode}): ${claim.decisionMessage}`;
  return renderEmail(`Decision on your refund request: ${plan.referenceNumber}`, [
    `Your refund request for your ${orderFrom(plan)} has been ${approved ? "approved" : "denied"}.`,
    claimSummary(plan, claim),
    reason,
    ...(approved
      ? [
          claim.remedy === "replacement"
            ? `${inertCallerText(plan.merchantName)} sends you a replacement of what the request is about. We e-mail you again once it is sent.`
            : `We refund ${money(claim.amountCents, claim.currency)}. ${howRefunded(plan.refundChannel, plan)} We e-mail you again once it is paid.`,
        ]
      : ["If you have information the claims team did not see, you can file a new request with it in the portal."]),
    { label: "See the decision", href: coverageLink },
    ...footer(plan, settings),
  ]);
};
