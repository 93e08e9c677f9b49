// Going live for a Shopify shop, from the Go live page in the admin: the switch every merchant makes
// (server/domain/go-live.ts) plus what the shop's installation needs. The app mints and holds a live key pair (the
// secret one sealed, for orders/create), allows the origins the live widget key is used from (the storefront and the
// checkout extension's worker), moves the installation to the live key and program, and runs the storefront setup
// again so that the theme embed and the fee tiers use them. The merchant must have approved the app's usage charges
// (app/shopify/billing.server.ts): live protection is charged through Shopify. One unit of work (switchShopLive): the
// shop is live with all of it or not at all; a second click finds it live and changes nothing.
import type { MerchantAuditSource } from "../../server/index.ts";
import type { ShopInstallationRecord } from "./store/shops.ts";
import { switchShopLive } from "./store/units/go-live.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import { enqueueNamedJob } from "./named-jobs.ts";

/** Where Shopify runs checkout UI extensions (their fetches carry this Origin). */
export const CHECKOUT_EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";

/** The origins a shop's live widget key must work from, beside any the merchant adds (a custom storefront domain). */
export const shopOrigins = (shop: string) => [`https://${shop}`, CHECKOUT_EXTENSION_ORIGIN];

/** What the Go live page adds for a shop: whether the storefront is ready, and the origins the switch allows. */
export const shopGoLiveState = (installation: ShopInstallationRecord) => ({
  storefrontReady: installation.productId !== null,
  shopOrigins: shopOrigins(installation.shop),
});

export async function goLiveShop(
  deps: ShopifyDeps,
  shop: string,
  source: MerchantAuditSource,
  input: { confirmationEmail: string },
): Promise<void> {
  await switchShopLive(deps.db, deps.services, deps.sealer, { shop, shopOrigins: shopOrigins(shop), source, input });
  deps.wakeJobs();
}

/** The program changed: the fee tiers (the protection product's variants) follow it. */
export async function resyncStorefront(deps: ShopifyDeps, shop: string): Promise<void> {
  await enqueueNamedJob(deps.db, deps.services, { shop, kind: "storefront_setup", payload: {} });
  deps.wakeJobs();
}
