// The storefront contract: what the widget, the checkout extension, the Shopify app and the API must agree on.
// TypeScript source without runtime dependencies (the message catalogues, ./messages, are apart: they need
// intl-messageformat, which the storefront bundles never load); each export is small so the storefront bundles keep only what
// they use.
export { tierFor, type FeeTier } from "./fee-tiers.ts";
export {
  ACCEPTED,
  CHOICE_ATTRIBUTE,
  CHOICE_METAFIELD,
  DECLINED,
  QUOTE_ATTRIBUTE,
  REFERENCE_ATTRIBUTE,
} from "./cart-attributes.ts";
export {
  CONFIG_KEY,
  CONFIG_NAMESPACE,
  PROTECTION_STATUS_PATH,
  SHOP_CONFIG_NAMESPACE,
  type StorefrontConfig,
} from "./storefront-config.ts";
export {
  currencyFormat,
  digitsOf,
  formatDecimalAmount,
  formatMoney,
  formatMoneyEnUs,
  minorDigits,
  parseDecimalAmount,
  parseTypedMoney,
} from "./money.ts";
export {
  BUYER_LANGUAGES,
  DEFAULT_BUYER_LOCALE,
  PSEUDO_LOCALE,
  acceptLanguageTags,
  messageLanguage,
  negotiateLocale,
  type BuyerLanguage,
  type MessageLanguage,
} from "./locales.ts";
export { IDEMPOTENCY_KEY_PATTERN, REFERENCE_NUMBER_PATTERN } from "./patterns.ts";
export type { OfferTexts } from "./offer-texts.ts";
export {
  DEFAULT_OFFER_WORDING,
  OFFER_WORDING_KEYS,
  OFFER_WORDINGS,
  isOfferWording,
  type OfferWording,
} from "./offer-wordings.ts";
export { boundedCache } from "./bounded-cache.ts";
