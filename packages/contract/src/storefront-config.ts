// The storefront config: one JSON value the app writes at install, read by the theme embed's Liquid (the app
// installation's `protection` / `config` metafield) and by the checkout extension (the shop's `$app:protection` /
// `config` metafield).
import type { FeeTier } from "./fee-tiers.ts";

export interface StorefrontConfig {
  version: 1;
  publishableKey: string;
  programId: string;
  /** The protection API, e.g. https://app.example/api/v1 (no trailing slash needed). */
  apiBase: string;
  widgetUrl: string;
  /** Numeric id of the hidden protection product. */
  productId: string;
  /** Ascending by price. */
  tiers: FeeTier[];
}

/** The app-owned namespace as the app writes it on its installation (the Liquid reads app.metafields.protection). */
export const CONFIG_NAMESPACE = "protection";
/** The same namespace on the shop, as the app writes it and checkout extensions read it. */
export const SHOP_CONFIG_NAMESPACE = `$app:${CONFIG_NAMESPACE}`;
export const CONFIG_KEY = "config";

/**
 * The app route the post-purchase blocks ask an order's protection from (with their session token). The app serves
 * the API too, so the route is on `apiBase`'s origin: configs written before it existed need no new field.
 */
export const PROTECTION_STATUS_PATH = "/extensions/protection-status";
