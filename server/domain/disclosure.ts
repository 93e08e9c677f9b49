// What the buyer is shown. The wording is contractual: change it only with the legal text.

/** The byte-string headless quote returns in disclosure_text, for byte-equality checks only (docs/api.md "Headless (server path)"). */
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

/**
 * The public rulebook's names and one-sentence descriptions of the covered reasons: the one place the portal
 * pages, GET /portal/reasons, docs/api.md and the OpenAPI document take them from.
 */
export const COVERED_REASON_DETAILS: Record<(typeof COVERED_REASONS)[number], { name: string; description: string }> = {
  lost_in_transit: {
    name: "Lost in transit",
    description: "The carrier lost the parcel before it reached you.",
  },
  stolen_after_delivery: {
    name: "Stolen after delivery",
    description: "The parcel was marked delivered but was taken before you could collect it.",
  },
  damaged_in_transit: {
    name: "Damaged in transit",
    description: "The item arrived broken or damaged by its journey.",
  },
  arrived_defective: {
    name: "Arrived defective",
    description: "The item arrived and does not work as it should.",
  },
  wrong_item_delivered: {
    name: "Wrong item delivered",
    description: "You received something other than what you ordered.",
  },
  missing_items: {
    name: "Missing items",
    description: "The parcel arrived without some of the items you ordered.",
  },
  not_delivered_by_promised_date_plus_14_days: {
    name: "Not delivered within 14 days of the promised date",
    description: "The order had not arrived 14 days after the delivery date the merchant promised.",
  },
  merchant_closed_before_fulfilment: {
    name: "Merchant closed before fulfilment",
    description: "The merchant stopped trading before sending your order.",
  },
  item_recalled: {
    name: "Item recalled",
    description: "The item was recalled by its maker or a safety authority.",
  },
  fraudulent_charge_dispute_resolved_against_buyer: {
    name: "Fraudulent charge dispute lost",
    description: "Your dispute of a fraudulent charge for this order was resolved against you.",
  },
  return_refused_within_merchant_policy: {
    name: "Return refused within the merchant's policy",
    description: "The merchant refused a return that its own return policy allowed.",
  },
  carrier_returned_to_sender: {
    name: "Returned to sender",
    description: "The carrier sent the parcel back to the merchant instead of delivering it to you.",
  },
};

/** A covered reason's human name (the code itself for anything else). */
export const reasonName = (code: string): string =>
  COVERED_REASON_DETAILS[code as (typeof COVERED_REASONS)[number]]?.name ?? code;

/** A claim is filed within 30 days of what it is about (docs/api.md "Buyer portal API"). */
export const CLAIM_WINDOW_DAYS = 30;
export const FREE_LOOK_HOURS = 48;

export const FREE_LOOK_MS = 48 * 60 * 60 * 1000;
export const QUOTE_LIFETIME_MS = 30 * 60 * 1000;
