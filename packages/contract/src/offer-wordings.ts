// The approved wordings of the protection offer's label, by stable key: the only texts a program or an offer
// experiment may choose (docs/api.md "Offer experiments"). Each says plainly what the buyer adds and what it costs;
// none is a pre-ticked box or a scare. Quotes name the key (offerWording); `{price}` stands for the formatted fee.
// These are the English texts (the dashboard shows them to the merchant); the buyer reads them in their language: the
// widget in the quote's offerTexts (server/domain/offer-texts.ts), the checkout extension in its locales/*.json, each
// with a translation under the same keys.

export const OFFER_WORDINGS = {
  standard: "Add purchase protection for {price}",
  protect_order: "Protect this order for {price}",
  cover_transit: "Cover loss, theft and damage in transit for {price}",
} as const;

export type OfferWording = keyof typeof OFFER_WORDINGS;

export const OFFER_WORDING_KEYS = Object.keys(OFFER_WORDINGS) as OfferWording[];

export const DEFAULT_OFFER_WORDING: OfferWording = "standard";

/** Whether `key` names an approved wording (a quote from a newer API may name one this bundle does not know). */
export const isOfferWording = (key: unknown): key is OfferWording =>
  typeof key === "string" && Object.hasOwn(OFFER_WORDINGS, key);
