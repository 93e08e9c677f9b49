// The welcome_protected e-mail (README "E-mail to buyers"): sent to the buyer after opt-in. It carries what the buyer needs to use the
// guarantee: the reference number, what was bought, the disclosure (both sentences), the 48-hour free-look
// cancellation, how and when to request a refund for a covered reason, the covered reasons, and the tokenized link.
// The wording is contractual: change it only with the legal text.
import { COVERED_REASONS, fullDisclosure } from "../domain/disclosure.ts";
import type { Purchase } from "../domain/purchases.ts";
import type { Settings } from "../domain/context.ts";
import { formatDecimalAmount } from "../domain/money.ts";

const REASON_LABELS: Record<(typeof COVERED_REASONS)[number], string> = {
  lost_in_transit: "Lost in transit",
  stolen_after_delivery: "Stolen after delivery",
  damaged_in_transit: "Damaged in transit",
  arrived_defective: "Arrived defective",
  wrong_item_delivered: "Wrong item delivered",
  missing_items: "Items missing from the delivery",
  not_delivered_by_promised_date_plus_14_days: "Not delivered within 14 days after the promised date",
  merchant_closed_before_fulfilment: "The merchant closed before fulfilling the order",
  item_recalled: "Item recalled",
  fraudulent_charge_dispute_resolved_against_buyer: "A fraudulent-charge dispute resolved against you",
  return_refused_within_merchant_policy: "A return refused although it was within the merchant's policy",
  carrier_returned_to_sender: "The carrier returned the parcel to the sender",
};

export interface WelcomeEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * Caller text (the order id: anyone with the page's publishable key chooses it) made inert for both parts. Mail
 * clients turn what looks like a URL, a domain, an address or a @mention into a link even in plain text; each needs
 * punctuation glued to its neighbours ("://", ".", "@", or an IDNA dot such as "。"). So a hair space (U+200A: a space
 * to every autolinker, barely visible) follows each punctuation or symbol character except "#", "-" and "_". The HTML
 * part escapes the result too, and never wraps it in a link.
 */
const inertCallerText = (text: string) => text.replace(/[^\p{L}\p{N}\p{Zs}#_-]/gu, (character) => `${character}\u200A`);

export function welcomeProtected(purchase: Purchase, settings: Settings, coverageLink: string): WelcomeEmail {
  const money = (cents: number) => `${formatDecimalAmount(cents, purchase.currency)} ${purchase.currency}`;
  const freeLookEnds = new Date(purchase.freeLookEndsAt).toUTCString();
  const paragraphs = [
    `Your order ${inertCallerText(purchase.orderId)} is protected. Your reference number is ${purchase.referenceNumber}.`,
    `Protection fee: ${money(purchase.feeCents)}. Covered amount: ${money(purchase.coveredAmountCents)}.`,
    fullDisclosure(settings.companyName),
    `Changed your mind? You may cancel within 48 hours of purchase (until ${freeLookEnds}) for a full refund of the protection fee at ${settings.portalUrl} using your reference number.`,
    `If something goes wrong for one of the covered reasons below, request a refund within 30 days of the event at ${settings.portalUrl}.`,
  ];
  const reasons = COVERED_REASONS.map((reason) => REASON_LABELS[reason]);
  const text = [
    ...paragraphs,
    `Covered reasons:\n${reasons.map((reason) => `- ${reason}`).join("\n")}`,
    `Your coverage details: ${coverageLink}`,
  ].join("\n\n");
  const html = [
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p>Covered reasons:</p><ul>${reasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join("")}</ul>`,
    `<p><a href="${escapeHtml(coverageLink)}">Your coverage details</a></p>`,
  ].join("\n");
  // Our words and the reference number we generated only: no caller text ever goes in the Subject.
  return { subject: `Your purchase protection is active: ${purchase.referenceNumber}`, text, html };
}
