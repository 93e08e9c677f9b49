// Shopify shops and the protection merchant each one is (shop_installations). The shop's secret key is stored
// sealed: sealing and opening are the caller's (the key's plaintext never reaches this module). Every write gives the
// row a fresh random version, which a process that kept the row compares to see whether it changed.
import { randomUUID } from "node:crypto";
import { boundedCache, type FeeTier } from "@purchase-protection/contract";
import type { Mode, Queryable } from "../../../server/index.ts";

export type ShopStatus = "installed" | "uninstalled";

export interface ShopInstallationRecord {
  shop: string;
  merchantId: string;
  status: ShopStatus;
  /** test until the shop goes live in the dashboard; the sealed secret key is the one of this mode. */
  mode: Mode;
  secretKeySealed: string;
  publishableKey: string;
  programId: string;
  /** Null until the storefront setup has created the protection product. */
  productId: string | null;
  tiers: readonly FeeTier[];
  /** Replaced on every write of the row (findShopInstallationVersion). */
  version: string;
}

interface ShopInstallationRow {
  shop: string;
  merchant_id: string;
  status: ShopStatus;
  mode: Mode;
  secret_key_sealed: string;
  publishable_key: string;
  program_id: string;
  product_id: string | null;
  tiers: string;
  version: string;
}

/**
 * Every order job reads its shop's installation, and a shop's tiers (hundreds of them) change only when its storefront
 * setup runs: each text is parsed once (frozen, so no reader can change what the next one gets).
 */
const parsedTiers = boundedCache<readonly FeeTier[]>(1_000);
const tiersOf = (text: string) =>
  parsedTiers(text, () => Object.freeze((JSON.parse(text) as FeeTier[]).map((tier) => Object.freeze(tier))));

/** The shop's installation, installed or not; undefined when it never installed (or shop/redact erased it). */
export async function findShopInstallation(tx: Queryable, shop: string): Promise<ShopInstallationRecord | undefined> {
  const row = await tx.get<ShopInstallationRow>(
    "SELECT shop, merchant_id, status, mode, secret_key_sealed, publishable_key, program_id, product_id, tiers, version FROM shop_installations WHERE shop = ?",
    [shop],
  );
  return (
    row && {
      shop: row.shop,
      merchantId: row.merchant_id,
      status: row.status,
      mode: row.mode,
      secretKeySealed: row.secret_key_sealed,
      publishableKey: row.publishable_key,
      programId: row.program_id,
      productId: row.product_id,
      tiers: tiersOf(row.tiers),
      version: row.version,
    }
  );
}

/** The version of the shop's installation row as it stands; undefined when there is none. */
export async function findShopInstallationVersion(db: Queryable, shop: string): Promise<string | undefined> {
  return (await db.get<{ version: string }>("SELECT version FROM shop_installations WHERE shop = ?", [shop]))?.version;
}

/** A first install: no protection product yet, so no tiers. */
export async function insertShopInstallation(
  tx: Queryable,
  installation: Pick<
    ShopInstallationRecord,
    "shop" | "merchantId" | "secretKeySealed" | "publishableKey" | "programId"
  >,
  at: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO shop_installations (shop, merchant_id, status, secret_key_sealed, publishable_key, program_id, tiers, installed_at, updated_at, version)
     VALUES (?, ?, 'installed', ?, ?, ?, '[]', ?, ?, ?)`,
    [
      installation.shop,
      installation.merchantId,
      installation.secretKeySealed,
      installation.publishableKey,
      installation.programId,
      at,
      at,
      randomUUID(),
    ],
  );
}

/** A re-install: installed again, with fresh keys of the shop's mode. */
export async function markShopReinstalled(
  tx: Queryable,
  shop: string,
  keys: { secretKeySealed: string; publishableKey: string },
  at: number,
): Promise<void> {
  await tx.run(
    `UPDATE shop_installations SET status = 'installed', secret_key_sealed = ?, publishable_key = ?, uninstalled_at = NULL, updated_at = ?, version = ?
     WHERE shop = ?`,
    [keys.secretKeySealed, keys.publishableKey, at, randomUUID(), shop],
  );
}

/** The shop went live: orders use the live secret key and program, the storefront the live publishable key. */
export async function switchShopToLive(
  tx: Queryable,
  shop: string,
  live: { secretKeySealed: string; publishableKey: string; programId: string },
  at: number,
): Promise<void> {
  await tx.run(
    `UPDATE shop_installations SET mode = 'live', secret_key_sealed = ?, publishable_key = ?, program_id = ?, updated_at = ?, version = ?
     WHERE shop = ?`,
    [live.secretKeySealed, live.publishableKey, live.programId, at, randomUUID(), shop],
  );
}

export async function markShopUninstalled(tx: Queryable, shop: string, at: number): Promise<void> {
  await tx.run(
    "UPDATE shop_installations SET status = 'uninstalled', uninstalled_at = ?, updated_at = ?, version = ? WHERE shop = ?",
    [at, at, randomUUID(), shop],
  );
}

export async function saveShopProtectionProduct(
  tx: Queryable,
  shop: string,
  product: { productId: string; tiers: FeeTier[] },
  at: number,
): Promise<void> {
  await tx.run("UPDATE shop_installations SET product_id = ?, tiers = ?, updated_at = ?, version = ? WHERE shop = ?", [
    product.productId,
    JSON.stringify(product.tiers),
    at,
    randomUUID(),
    shop,
  ]);
}
