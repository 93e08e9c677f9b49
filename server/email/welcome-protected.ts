// The welcome_protected e-mail (docs/api.md "E-mail to buyers"): sent to the buyer after opt-in. It carries what the buyer
// needs to use the guarantee: the reference number, what was bought, the disclosure (both sentences, in the footer),
// the 48-hour free-look cancellation, how and when to file a claim for a covered reason, the covered reasons, the
// rulebook, and the tokenized link. The wording is contractual: change it only with the legal text. It follows who
// paid (docs/api.md "Who pays"): the fee shown is what the buyer paid, and the buyer of a plan its store paid for is
// told so, with no fee and no free look (there is nothing to cancel for).
import { CLAIM_WINDOW_DAYS, COVERED_REASONS, FREE_LOOK_HOURS } from "../domain/disclosure.ts";
import { money, orderLabel, reasonName, utcDayAndTime, type EmailTemplateRenderer } from "./layout.ts";

/** Not sent for a plan voided or cancelled before it went out. */
export const welcomeProtected: EmailTemplateRenderer = ({ plan, settings }) => {
  if (plan.status !== "active") return undefined;
  const freeLookEnds = utcDayAndTime(plan.freeLookEndsAt);
  const paidByStore = plan.payer === "merchant";
  const feeFacts: [string, string][] = paidByStore
    ? []
    : [
        ["Protection fee", money(plan.buyerFeeCents, plan.currency)],
        ["Free cancellation until", freeLookEnds],
      ];
  return {
    // Our words and the reference number we generated only: no caller text ever goes in the Subject.
    subject: `Your purchase protection is active: ${plan.referenceNumber}`,
    heading: "Your order is protected",
    lead: [
      `Your ${orderLabel(plan)} from ${plan.merchantName} is protected. Your reference number is ${plan.referenceNumber}.`,
      ...(paidByStore ? [`${plan.merchantName} protected this order for you at no cost.`] : []),
    ],
    button: "See your coverage",
    body: [
      {
        facts: [
          ["Reference number", plan.referenceNumber],
          ["Covered amount", money(plan.coveredAmountCents, plan.currency)],
          ...feeFacts,
        ],
      },
      ...(paidByStore
        ? []
        : [
            `Changed your mind? You may cancel within ${FREE_LOOK_HOURS} hours of purchase (until ${freeLookEnds}) for a full refund of the protection fee, in the portal with your reference number.`,
          ]),
      `If something goes wrong for one of the covered reasons below, file a claim in the portal within ${CLAIM_WINDOW_DAYS} days of what happened.`,
      { title: "Covered reasons:", items: COVERED_REASONS.map(reasonName) },
      { label: "Read the full terms", href: `${settings.portalUrl}/terms` },
    ],
  };
};
