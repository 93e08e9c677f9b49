// What the buyer is shown. The wording is contractual: change it only with the legal text.

/** The byte-string headless quote returns in disclosure_text, for byte-equality checks only (README "Headless (server path)"). */
export const DISCLOSURE_PHRASE = "This is not insurance";

/** The visible disclosure: both sentences, always. */
export function fullDisclosure(companyName: string): string {
  // A legal name may end in a period ("Inc."); the sentence must not end in two.
  return `${DISCLOSURE_PHRASE}. This is a contractual refund guarantee provided by ${companyName.replace(/\.$/, "")}.`;
}

export const COVERED_REASONS = [
  "lost_in_transit",
  "stolen_after_delivery",
  "damaged_in_transit",
  "arrived_defective",
  "wrong_item_delivered",
  "missing_items",
  "not_delivered_by_promised_date_plus_14_days",
  "merchant_closed_before_fulfilment",
  "item_recalled",
  "fraudulent_charge_dispute_resolved_against_buyer",
  "return_refused_within_merchant_policy",
  "carrier_returned_to_sender",
] as const;

export const FREE_LOOK_MS = 48 * 60 * 60 * 1000;
export const QUOTE_LIFETIME_MS = 30 * 60 * 1000;
