// Which protection merchant a shop is. Install creates it (merchant, default test program, test keys) or brings it
// back after an uninstall (fresh keys: revoked keys never revive); uninstall revokes the keys. The shop's secret key
// is kept sealed because the order webhooks call the API with it.
import type { Queryable } from "../../server/store/database.ts";
import type { Services } from "../../server/domain/context.ts";
import type { Sealer } from "../../server/secrets/sealer.ts";
import { createTestMerchant, mintTestKeys, revokeMerchantKeys } from "../../server/domain/merchants.ts";
import type { FeeTier } from "@purchase-protection/contract";

export interface Installation {
  shop: string;
  merchantId: string;
  status: "installed" | "uninstalled";
  secretKey: string;
  publishableKey: string;
  programId: string;
  /** Null until the storefront setup job has created the protection product. */
  productId: string | null;
  tiers: FeeTier[];
}

interface InstallationRow {
  shop: string;
  merchant_id: string;
  status: "installed" | "uninstalled";
  secret_key_sealed: string;
  publishable_key: string;
  program_id: string;
  product_id: string | null;
  tiers: string;
}

export async function loadInstallation(db: Queryable, sealer: Sealer, shop: string): Promise<Installation | undefined> {
  const row = await db.get<InstallationRow>(
    "SELECT shop, merchant_id, status, secret_key_sealed, publishable_key, program_id, product_id, tiers FROM shop_installations WHERE shop = ?",
    [shop],
  );
  return row && {
    shop: row.shop,
    merchantId: row.merchant_id,
    status: row.status,
    secretKey: sealer.open(row.secret_key_sealed),
    publishableKey: row.publishable_key,
    programId: row.program_id,
    productId: row.product_id,
    tiers: JSON.parse(row.tiers),
  };
}

/**
 * Makes the shop an installed merchant, in one transaction. Returns whether anything changed (a first install or
 * a re-install): only then does the storefront setup need to run again.
 */
export async function installShop(tx: Queryable, services: Services, sealer: Sealer, shop: string): Promise<{ changed: boolean }> {
  const now = services.clock();
  const existing = await tx.get<{ merchant_id: string; status: string }>("SELECT merchant_id, status FROM shop_installations WHERE shop = ?", [shop]);
  if (existing?.status === "installed") return { changed: false };
  if (existing) {
    const keys = await mintTestKeys(tx, services, existing.merchant_id);
    await tx.run(
      `UPDATE shop_installations SET status = 'installed', secret_key_sealed = ?, publishable_key = ?, uninstalled_at = NULL, updated_at = ?
       WHERE shop = ?`,
      [sealer.seal(keys.secretKey), keys.publishableKey, now, shop],
    );
    return { changed: true };
  }
  const merchant = await createTestMerchant(tx, services, { name: shop, shopDomain: shop });
  await tx.run(
    `INSERT INTO shop_installations (shop, merchant_id, status, secret_key_sealed, publishable_key, program_id, tiers, installed_at, updated_at)
     VALUES (?, ?, 'installed', ?, ?, ?, '[]', ?, ?)`,
    [shop, merchant.merchantId, sealer.seal(merchant.secretKey), merchant.publishableKey, merchant.programId, now, now],
  );
  return { changed: true };
}

/** The shop removed the app: its keys stop working now; its data stays until shop/redact (48 h later). */
export async function uninstallShop(tx: Queryable, services: Services, shop: string): Promise<void> {
  const row = await tx.get<{ merchant_id: string }>("SELECT merchant_id FROM shop_installations WHERE shop = ?", [shop]);
  if (!row) return;
  await revokeMerchantKeys(tx, services, row.merchant_id);
  await tx.run("UPDATE shop_installations SET status = 'uninstalled', uninstalled_at = ?, updated_at = ? WHERE shop = ?", [services.clock(), services.clock(), shop]);
}

export async function saveProtectionProduct(db: Queryable, services: Services, shop: string, product: { productId: string; tiers: FeeTier[] }): Promise<void> {
  await db.run("UPDATE shop_installations SET product_id = ?, tiers = ?, updated_at = ? WHERE shop = ?", [
    product.productId, JSON.stringify(product.tiers), services.clock(), shop,
  ]);
}
