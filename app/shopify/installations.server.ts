// Which protection merchant a shop is. Install creates it (merchant, default test program, test keys) or brings it
// back after an uninstall (fresh keys of the shop's mode: revoked keys never revive); uninstall revokes the keys. The shop's secret key
// is kept sealed because the order webhooks call the API with it.
import {
  createTestMerchant,
  mintKeyPair,
  revokeMerchantKeys,
  type Queryable,
  type Sealer,
  type Services,
} from "../../server/index.ts";
import {
  findShopInstallation,
  findShopInstallationVersion,
  insertShopInstallation,
  markShopReinstalled,
  markShopUninstalled,
  saveShopProtectionProduct,
  type ShopInstallationRecord,
} from "./store/shops.ts";
import type { FeeTier } from "@purchase-protection/contract";

/** The shop's installation with its secret key opened. */
export interface Installation extends Omit<ShopInstallationRecord, "secretKeySealed"> {
  secretKey: string;
}

export async function loadInstallation(db: Queryable, sealer: Sealer, shop: string): Promise<Installation | undefined> {
  const found = await findShopInstallation(db, shop);
  if (!found) return undefined;
  const { secretKeySealed, ...installation } = found;
  return { ...installation, secretKey: sealer.open(secretKeySealed) };
}

/** Shops whose installation a process keeps at most; past it the kept ones are dropped and read again. */
const KEPT_INSTALLATIONS = 10_000;

/**
 * Reads shops' installations for one process, keeping each one read: every order job reads its shop's, several times
 * per order. A kept installation is used only while its row's version is still the one it was read at (one indexed read of
 * a short column instead of the row with its hundreds of tiers), so an uninstall, a re-install's new keys, going live
 * or a new protection product, written by this process or another, is seen by the next read. Handed out frozen.
 */
export function installationReader(db: Queryable, sealer: Sealer) {
  const kept = new Map<string, Readonly<Installation>>();
  return async (shop: string): Promise<Readonly<Installation> | undefined> => {
    const known = kept.get(shop);
    if (known && (await findShopInstallationVersion(db, shop)) === known.version) return known;
    const installation = await loadInstallation(db, sealer, shop);
    if (!installation) {
      kept.delete(shop);
      return undefined;
    }
    if (kept.size >= KEPT_INSTALLATIONS) kept.clear();
    const frozen = Object.freeze(installation);
    kept.set(shop, frozen);
    return frozen;
  };
}

/**
 * Makes the shop an installed merchant, in one transaction. Returns whether anything changed (a first install or
 * a re-install): only then does the storefront setup need to run again.
 */
export async function installShop(
  tx: Queryable,
  services: Services,
  sealer: Sealer,
  shop: string,
): Promise<{ changed: boolean }> {
  const now = services.clock();
  const existing = await findShopInstallation(tx, shop);
  if (existing?.status === "installed") return { changed: false };
  if (existing) {
    const keys = await mintKeyPair(tx, services, { merchantId: existing.merchantId, mode: existing.mode });
    await markShopReinstalled(
      tx,
      shop,
      { secretKeySealed: sealer.seal(keys.secretKey), publishableKey: keys.publishableKey },
      now,
    );
    return { changed: true };
  }
  const merchant = await createTestMerchant(tx, services, { name: shop, shopDomain: shop });
  await insertShopInstallation(
    tx,
    {
      shop,
      merchantId: merchant.merchantId,
      secretKeySealed: sealer.seal(merchant.secretKey),
      publishableKey: merchant.publishableKey,
      programId: merchant.programId,
    },
    now,
  );
  return { changed: true };
}

/** The shop removed the app: its keys stop working now; its data stays until shop/redact (48 h later). */
export async function uninstallShop(tx: Queryable, services: Services, shop: string): Promise<void> {
  const installation = await findShopInstallation(tx, shop);
  if (!installation) return;
  await revokeMerchantKeys(tx, services, installation.merchantId);
  await markShopUninstalled(tx, shop, services.clock());
}

export async function saveProtectionProduct(
  db: Queryable,
  services: Services,
  shop: string,
  product: { productId: string; tiers: FeeTier[] },
): Promise<void> {
  await saveShopProtectionProduct(db, shop, product, services.clock());
}

/** How the keys pages show the two keys the shop's installation holds (wk_/mch_, mode, last four). */
export function appKeyDisplays(sealer: Sealer, installation: ShopInstallationRecord): string[] {
  const display = (key: string) => `${key.split("_").slice(0, 2).join("_")}_…${key.slice(-4)}`;
  return [display(installation.publishableKey), display(sealer.open(installation.secretKeySealed))];
}
