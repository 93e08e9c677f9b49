// The storefront offer's sentences as a quote carries them (`offerTexts`, docs/api.md "Offers"): already in the
// buyer's language, so the widget bundles no catalogue. The API writes them (server/domain/offer-texts.ts), the widget
// shows them; `{price}` and `{reference}` are left for the widget, which alone knows the price shown and the reference.

export interface OfferTexts {
  /** The buyer locale the texts are in; the widget formats the price with it. */
  locale: string;
  /** The offer's label in the quote's wording, with `{price}`. */
  label: string;
  covers: string;
  termsLink: string;
  /** The offer group's accessible name. */
  groupLabel: string;
  /** The visible not-insurance disclosure, both sentences, in the buyer's language. */
  disclosure: string;
  decline: string;
  adding: string;
  /** With `{reference}`. */
  confirmed: string;
  declined: string;
  cartError: string;
}
