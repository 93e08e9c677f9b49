// The welcome_protected e-mail (docs/api.md "E-mail to buyers"): sent to the buyer after opt-in. It carries what the buyer
// needs to use the guarantee: the reference number, what was bought, the disclosure (both sentences, in the footer),
// the 48-hour free-look cancellation, how and when to file a claim for a covered reason, the covered reasons, the
// rulebook, and the tokenized link. The wording is contractual: change it only with the legal text. It follows who
// paid (docs/api.md "Who pays"): the fee shown is what the buyer paid, and the buyer of a plan its store paid for is
// told so, with no fee and no free look (there is nothing to cancel for). In the plan's language (email-text.ts).
import { CLAIM_WINDOW_DAYS, COVERED_REASONS, FREE_LOOK_HOURS } from "../domain/disclosure.ts";
import { emailText, orderLabel, reasonName, type EmailTemplateRenderer } from "./layout.ts";

/** Not sent for a plan voided or cancelled before it went out. */
export const welcomeProtected: EmailTemplateRenderer = ({ plan, settings }) => {
  if (plan.status !== "active") return undefined;
  const { t, money, dayAndTime } = emailText(plan);
  const reference = plan.referenceNumber;
  const merchant = plan.merchantName;
  const freeLookEnds = dayAndTime(plan.freeLookEndsAt);
  const paidByStore = plan.payer === "merchant";
  const feeFacts: [string, string][] = paidByStore
    ? []
    : [
        [t("welcome.fee"), money(plan.buyerFeeCents, plan.currency)],
        [t("welcome.freeLookUntil"), freeLookEnds],
      ];
  return {
    // Our words and the reference number we generated only: no caller text ever goes in the Subject.
    subject: t("welcome.subject", { reference }),
    heading: t("welcome.heading"),
    lead: [
      t("welcome.lead", { order: orderLabel(plan), merchant, reference }),
      ...(paidByStore ? [t("welcome.paidByStore", { merchant })] : []),
    ],
    button: t("button.coverage"),
    body: [
      {
        facts: [
          [t("welcome.reference"), reference],
          [t("welcome.covered"), money(plan.coveredAmountCents, plan.currency)],
          ...feeFacts,
        ],
      },
      ...(paidByStore ? [] : [t("welcome.freeLook", { hours: FREE_LOOK_HOURS, until: freeLookEnds })]),
      t("welcome.claimWindow", { days: CLAIM_WINDOW_DAYS }),
      { title: t("welcome.reasons"), items: COVERED_REASONS.map((code) => reasonName(plan, code)) },
      { label: t("welcome.terms"), href: `${settings.portalUrl}/terms` },
    ],
  };
};
