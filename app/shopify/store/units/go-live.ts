// Going live for a Shopify shop (app/shopify/go-live.server.ts) as one unit of work: the shop is live with all of it
// (the merchant's switch, the live keys, the allowed origins, the installation on the live key and program, the
// storefront setup queued) or with none of it.
import {
  DomainError,
  goLive,
  goLiveState,
  mintKeyPair,
  setAllowedOrigins,
  type Database,
  type MerchantAuditSource,
  type Sealer,
  type Services,
} from "../../../../server/index.ts";
import { enqueueNamedJob } from "../../named-jobs.ts";
import { findShopInstallation, switchShopToLive } from "../shops.ts";
import { assertBillingActive } from "./billing.ts";

/**
 * Switches the installed shop's merchant to live, allowing `shopOrigins` beside the origins the merchant has. A shop
 * live already changes nothing.
 */
export function switchShopLive(
  db: Database,
  services: Services,
  sealer: Sealer,
  request: { shop: string; shopOrigins: string[]; source: MerchantAuditSource; input: { confirmationEmail: string } },
): Promise<void> {
  const { shop, source, input } = request;
  return db.transaction(async (tx) => {
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
      origins: [...new Set([...allowedOrigins, ...request.shopOrigins])].join("\n"),
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
}
