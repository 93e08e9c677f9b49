// Merchants and their API keys (merchants, api_keys). Keys are stored as their SHA-256 hash and last four characters.
import type { KeyKind, Mode } from "../vocabulary/ids.ts";
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
  /** The key a rotation replaced. */
  rotatedFrom?: string | null;
  /** Who minted it (a member's id, shopify:<staff id>); null for keys the service made itself. */
  mintedBy?: string | null;
  /** The merchant's name for the key; null when none was given. */
  label?: string | null;
}

/** A key in force, with its merchant's allowed origins and whether the merchant has gone live. */
export interface ActiveKey {
  keyId: string;
  merchantId: string;
  kind: KeyKind;
  mode: Mode;
  allowedOrigins: string[];
  merchantLive: boolean;
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
    `INSERT INTO api_keys (id, merchant_id, kind, mode, key_hash, last4, created_at, rotated_from, minted_by, label)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      key.id,
      key.merchantId,
      key.kind,
      key.mode,
      key.keyHash,
      key.last4,
      key.createdAt,
      key.rotatedFrom ?? null,
      key.mintedBy ?? null,
      key.label ?? null,
    ],
  );
}

/**
 * Ends now the keys of these kinds that `mintedBy` minted and that are still in force (a rotation's overlap ends
 * too); resolves to the keys it ended.
 */
export async function endKeysMintedBy(
  tx: Queryable,
  merchantId: string,
  mintedBy: string,
  kinds: readonly KeyKind[],
  now: number,
): Promise<KeyListing[]> {
  if (kinds.length === 0) return [];
  const inForce = await tx.all<KeyListingRow>(
    `SELECT id, kind, mode, last4, created_at, revoked_at, rotated_from FROM api_keys
     WHERE merchant_id = ? AND minted_by = ? AND kind IN (${kinds.map(() => "?").join(", ")})
       AND (revoked_at IS NULL OR revoked_at > ?)
     ORDER BY id`,
    [merchantId, mintedBy, ...kinds, now],
  );
  for (const key of inForce) await tx.run("UPDATE api_keys SET revoked_at = ? WHERE id = ?", [now, key.id]);
  return inForce.map(toKeyListing);
}

/** The key in force at `now`: never revoked, or revoked at a time still ahead (a rotation's overlap). */
export async function findActiveKeyByHash(tx: Queryable, keyHash: string, now: number): Promise<ActiveKey | undefined> {
  const row = await tx.get<{
    id: string;
    merchant_id: string;
    kind: KeyKind;
    mode: Mode;
    allowed_origins: string;
    live_at: number | null;
  }>(
    `SELECT k.id, k.merchant_id, k.kind, k.mode, m.allowed_origins, m.live_at FROM api_keys k
     JOIN merchants m ON m.id = k.merchant_id
     WHERE k.key_hash = ? AND (k.revoked_at IS NULL OR k.revoked_at > ?)`,
    [keyHash, now],
  );
  return (
    row && {
      keyId: row.id,
      merchantId: row.merchant_id,
      kind: row.kind,
      mode: row.mode,
      allowedOrigins: JSON.parse(row.allowed_origins),
      merchantLive: row.live_at !== null,
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

export interface KeyListing {
  id: string;
  kind: KeyKind;
  mode: Mode;
  last4: string;
  createdAt: number;
  revokedAt: number | null;
  rotatedFrom: string | null;
  label: string | null;
}

interface KeyListingRow {
  id: string;
  kind: KeyKind;
  mode: Mode;
  last4: string;
  created_at: number;
  revoked_at: number | null;
  rotated_from: string | null;
  label: string | null;
}

const toKeyListing = (row: KeyListingRow): KeyListing => ({
  id: row.id,
  kind: row.kind,
  mode: row.mode,
  last4: row.last4,
  createdAt: Number(row.created_at),
  revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  rotatedFrom: row.rotated_from,
  label: row.label,
});

/** Every key of the merchant, newest first (hashes never leave the store). */
export async function listMerchantKeys(tx: Queryable, merchantId: string): Promise<KeyListing[]> {
  const rows = await tx.all<KeyListingRow>(
    "SELECT id, kind, mode, last4, created_at, revoked_at, rotated_from, label FROM api_keys WHERE merchant_id = ? ORDER BY created_at DESC, id DESC",
    [merchantId],
  );
  return rows.map(toKeyListing);
}

export async function findMerchantKey(tx: Queryable, merchantId: string, id: string): Promise<KeyListing | undefined> {
  const row = await tx.get<KeyListingRow>(
    "SELECT id, kind, mode, last4, created_at, revoked_at, rotated_from, label FROM api_keys WHERE merchant_id = ? AND id = ?",
    [merchantId, id],
  );
  return row && toKeyListing(row);
}

/** Ends a key in force at `at` (now: revoked; later: a rotation's overlap); false when it was no longer in force. */
export async function endKeyAt(tx: Queryable, id: string, at: number, now: number): Promise<boolean> {
  const changed = await tx.run(
    "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND (revoked_at IS NULL OR revoked_at > ?)",
    [at, id, now],
  );
  return changed === 1;
}

export async function findMerchant(
  tx: Queryable,
  merchantId: string,
): Promise<(MerchantRecord & { liveAt: number | null }) | undefined> {
  const row = await tx.get<{
    id: string;
    name: string;
    allowed_origins: string;
    shop_domain: string | null;
    live_at: number | null;
    created_at: number;
  }>("SELECT id, name, allowed_origins, shop_domain, live_at, created_at FROM merchants WHERE id = ?", [merchantId]);
  return (
    row && {
      id: row.id,
      name: row.name,
      allowedOrigins: JSON.parse(row.allowed_origins),
      shopDomain: row.shop_domain,
      liveAt: row.live_at === null ? null : Number(row.live_at),
      createdAt: Number(row.created_at),
    }
  );
}

export async function updateAllowedOrigins(tx: Queryable, merchantId: string, origins: string[]): Promise<void> {
  await tx.run("UPDATE merchants SET allowed_origins = ? WHERE id = ?", [JSON.stringify(origins), merchantId]);
}

/** Records that the merchant went live (once: a second call changes nothing); true when it did now. */
export async function markMerchantLive(tx: Queryable, merchantId: string, at: number): Promise<boolean> {
  return (await tx.run("UPDATE merchants SET live_at = ? WHERE id = ? AND live_at IS NULL", [at, merchantId])) === 1;
}

/**
 * Pauses new live protection for the merchant, with the reason quotes in live mode are refused with, or lifts the
 * pause (null). Set by the platform that bills the merchant (a Shopify shop's app subscription no longer active).
 */
export async function setMerchantLivePause(tx: Queryable, merchantId: string, reason: string | null): Promise<void> {
  await tx.run("UPDATE merchants SET live_paused_reason = ? WHERE id = ?", [reason, merchantId]);
}

/** Why the merchant's new live protection is paused, or null when it is not. */
export async function findMerchantLivePause(tx: Queryable, merchantId: string): Promise<string | null> {
  const row = await tx.get<{ live_paused_reason: string | null }>(
    "SELECT live_paused_reason FROM merchants WHERE id = ?",
    [merchantId],
  );
  return row?.live_paused_reason ?? null;
}
