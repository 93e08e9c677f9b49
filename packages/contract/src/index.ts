// The storefront contract: what the widget, the checkout extension, the Shopify app and the API must agree on.
// TypeScript source without runtime dependencies; each export is small so the storefront bundles keep only what
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
export { IDEMPOTENCY_KEY_PATTERN, REFERENCE_NUMBER_PATTERN } from "./patterns.ts";
