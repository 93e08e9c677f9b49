// Merchants and their API keys (merchants, api_keys). Keys are stored as their SHA-256 hash and last four characters.
import type { KeyKind, Mode } from "../domain/ids.ts";
import type { Queryable } from "./database.ts";

export interface MerchantRecord {
  id: string;
  name: string;
  /** Origins a live publishable key may be used from. */
  allowedOrigins: string[];
  shopDomain: string | null;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  merchantId: string;
  kind: KeyKind;
  mode: Mode;
  keyHash: string;
  last4: string;
  createdAt: number;
}

/** A key that is not revoked, with its merchant's allowed origins. */
export interface ActiveKey {
  keyId: string;
  merchantId: string;
  kind: KeyKind;
  mode: Mode;
  allowedOrigins: string[];
}

export async function insertMerchant(tx: Queryable, merchant: MerchantRecord): Promise<void> {
  await tx.run("INSERT INTO merchants (id, name, allowed_origins, shop_domain, created_at) VALUES (?, ?, ?, ?, ?)", [
    merchant.id,
    merchant.name,
    JSON.stringify(merchant.allowedOrigins),
    merchant.shopDomain,
    merchant.createdAt,
  ]);
}

export async function merchantExists(tx: Queryable, merchantId: string): Promise<boolean> {
  return (await tx.get("SELECT id FROM merchants WHERE id = ?", [merchantId])) !== undefined;
}

export async function insertApiKey(tx: Queryable, key: ApiKeyRecord): Promise<void> {
  await tx.run(
    "INSERT INTO api_keys (id, merchant_id, kind, mode, key_hash, last4, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    [key.id, key.merchantId, key.kind, key.mode, key.keyHash, key.last4, key.createdAt],
  );
}

export async function findActiveKeyByHash(tx: Queryable, keyHash: string): Promise<ActiveKey | undefined> {
  const row = await tx.get<{ id: string; merchant_id: string; kind: KeyKind; mode: Mode; allowed_origins: string }>(
    `SELECT k.id, k.merchant_id, k.kind, k.mode, m.allowed_origins FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
     WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    [keyHash],
  );
  return (
    row && {
      keyId: row.id,
      merchantId: row.merchant_id,
      kind: row.kind,
      mode: row.mode,
      allowedOrigins: JSON.parse(row.allowed_origins),
    }
  );
}

/** Revokes the merchant's keys still in force (of one mode, or of both); returns how many. */
export function revokeApiKeys(tx: Queryable, merchantId: string, at: number, mode?: Mode): Promise<number> {
  return mode === undefined
    ? tx.run("UPDATE api_keys SET revoked_at = ? WHERE merchant_id = ? AND revoked_at IS NULL", [at, merchantId])
    : tx.run("UPDATE api_keys SET revoked_at = ? WHERE merchant_id = ? AND mode = ? AND revoked_at IS NULL", [
        at,
        merchantId,
        mode,
      ]);
}
