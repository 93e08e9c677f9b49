// The welcome_protected e-mail (README "E-mail to buyers"): sent to the buyer after opt-in. It carries what the buyer needs to use the
// guarantee: the reference number, what was bought, the disclosure (both sentences), the 48-hour free-look
// cancellation, how and when to request a refund for a covered reason, the covered reasons, and the tokenized link.
// The wording is contractual: change it only with the legal text.
import { COVERED_REASONS, fullDisclosure } from "../domain/disclosure.ts";
import { money, orderFrom, reasonName, renderEmail, utcTime, type EmailTemplateRenderer } from "./layout.ts";

/** Not sent for a plan voided or cancelled before it went out. */
export const welcomeProtected: EmailTemplateRenderer = ({ plan, settings, coverageLink }) => {
  if (plan.status !== "active") return undefined;
  return renderEmail(
    // Our words and the reference number we generated only: no caller text ever goes in the Subject.
    `Your purchase protection is active: ${plan.referenceNumber}`,
    [
      `Your ${orderFrom(plan)} is protected. Your reference number is ${plan.referenceNumber}.`,
      `Protection fee: ${money(plan.feeCents, plan.currency)}. Covered amount: ${money(plan.coveredAmountCents, plan.currency)}.`,
      fullDisclosure(settings.companyName),
      `Changed your mind? You may cancel within 48 hours of purchase (until ${utcTime(plan.freeLookEndsAt)}) for a full refund of the protection fee at ${settings.portalUrl} using your reference number.`,
      `If something goes wrong for one of the covered reasons below, request a refund within 30 days of the event at ${settings.portalUrl}.`,
      { title: "Covered reasons:", items: COVERED_REASONS.map(reasonName) },
      { label: "Your coverage details", href: coverageLink },
    ],
  );
};
