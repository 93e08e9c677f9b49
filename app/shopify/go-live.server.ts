// Going live for a Shopify shop, from the Go live page in the admin: the switch every merchant makes
// (server/domain/go-live.ts) plus what the shop's installation needs. The app mints and holds a live key pair (the
// secret one sealed, for orders/create), allows the origins the live widget key is used from (the storefront and the
// checkout extension's worker), moves the installation to the live key and program, and runs the storefront setup
// again so that the theme embed and the fee tiers use them. The merchant must have approved the app's usage charges
// (app/shopify/billing.server.ts): live protection is charged through Shopify. One transaction: the shop is live with all of it or not
// at all; a second click finds it live and changes nothing.
import {
  DomainError,
  goLive,
  goLiveState,
  mintKeyPair,
  setAllowedOrigins,
  type MerchantAuditSource,
} from "../../server/index.ts";
import { findShopInstallation, switchShopToLive, type ShopInstallationRecord } from "./store/shops.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import { enqueueNamedJob } from "./named-jobs.ts";
import { assertBillingActive } from "./billing.server.ts";

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
  const { db, services, sealer } = deps;
  await db.transaction(async (tx) => {
    const installation = await findShopInstallation(tx, shop);
    if (!installation || installation.status !== "installed")
      throw new DomainError("conflict", "shop_not_installed", "The app is not installed on this shop.");
    if (installation.mode === "live") return;
    if (installation.productId === null)
      throw new DomainError(
        "conflict",
        "storefront_not_ready",
        "The storefront setup has not finished yet: the protection product does not exist. Try again in a minute.",
      );
    const { allowedOrigins } = await goLiveState(tx, services, installation.merchantId);
    await setAllowedOrigins(tx, services, source, {
      origins: [...new Set([...allowedOrigins, ...shopOrigins(shop)])].join("\n"),
    });
    const keys = await mintKeyPair(tx, services, { merchantId: installation.merchantId, mode: "live" });
    const { liveProgramId } = await goLive(tx, services, source, input);
    // After the input and the checklist: what the merchant must fix first is said first.
    await assertBillingActive(tx, shop);
    await switchShopToLive(
      tx,
      shop,
      { secretKeySealed: sealer.seal(keys.secretKey), publishableKey: keys.publishableKey, programId: liveProgramId },
      services.clock(),
    );
    await enqueueNamedJob(tx, services, { shop, kind: "storefront_setup", payload: {} });
  });
  deps.wakeJobs();
}

/** The program changed: the fee tiers (the protection product's variants) follow it. */
export async function resyncStorefront(deps: ShopifyDeps, shop: string): Promise<void> {
  await enqueueNamedJob(deps.db, deps.services, { shop, kind: "storefront_setup", payload: {} });
  deps.wakeJobs();
}
