import { newApiKey, newId, parseApiKey, sha256Hex, type KeyKind, type Mode } from "./ids.ts";
import type { Actor, Services, Tx } from "./context.ts";
import { createProgram } from "./programs.ts";

/** Who is calling: resolved from an API key. */
export interface Principal extends Actor {
  keyId: string;
  kind: KeyKind;
  /** Origins a live publishable key may be used from. */
  allowedOrigins: string[];
}

/** The principal for a presented key, or undefined when it is unknown, malformed or revoked. */
export async function authenticateKey(db: Tx, key: string): Promise<Principal | undefined> {
  const claimed = parseApiKey(key);
  if (!claimed) return undefined;
  const row = await db.get<{ id: string; merchant_id: string; kind: KeyKind; mode: Mode; allowed_origins: string }>(
    `SELECT k.id, k.merchant_id, k.kind, k.mode, m.allowed_origins FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
     WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    [sha256Hex(key)],
  );
  if (!row || row.kind !== claimed.kind || row.mode !== claimed.mode) return undefined;
  return { keyId: row.id, merchantId: row.merchant_id, kind: row.kind, mode: row.mode, allowedOrigins: JSON.parse(row.allowed_origins) };
}

/** Mints a key and stores only its hash; the returned key is shown once. */
export async function mintApiKey(tx: Tx, services: Services, actor: Actor, kind: KeyKind): Promise<{ id: string; key: string }> {
  const now = services.clock();
  const key = newApiKey(kind, actor.mode, services.random);
  const id = newId("key", now, services.random);
  await tx.run("INSERT INTO api_keys (id, merchant_id, kind, mode, key_hash, last4, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)", [
    id, actor.merchantId, kind, actor.mode, sha256Hex(key), key.slice(-4), now,
  ]);
  return { id, key };
}

export interface NewMerchant {
  merchantId: string;
  programId: string;
  publishableKey: string;
  secretKey: string;
}

/** A merchant with a default test-mode program and test keys. Live keys are minted only in the dashboard. */
export async function createTestMerchant(
  tx: Tx,
  services: Services,
  input: { id?: string; name: string; allowedOrigins?: string[]; shopDomain?: string },
): Promise<NewMerchant> {
  const now = services.clock();
  const merchantId = input.id ?? newId("mer", now, services.random);
  await tx.run("INSERT INTO merchants (id, name, allowed_origins, shop_domain, created_at) VALUES (?, ?, ?, ?, ?)", [
    merchantId, input.name, JSON.stringify(input.allowedOrigins ?? []), input.shopDomain ?? null, now,
  ]);
  const programId = await createProgram(tx, services, { merchantId, mode: "test" });
  return { merchantId, programId, ...(await mintTestKeys(tx, services, merchantId)) };
}

/** Deactivates a merchant (its platform uninstalled us): every key stops working at once; the data stays. */
export async function revokeMerchantKeys(tx: Tx, services: Services, merchantId: string): Promise<number> {
  return tx.run("UPDATE api_keys SET revoked_at = ? WHERE merchant_id = ? AND revoked_at IS NULL", [services.clock(), merchantId]);
}

/** Fresh test-mode keys for a merchant coming back (re-install): revoked keys are never revived. */
export async function mintTestKeys(tx: Tx, services: Services, merchantId: string): Promise<{ publishableKey: string; secretKey: string }> {
  const actor: Actor = { merchantId, mode: "test" };
  const publishable = await mintApiKey(tx, services, actor, "publishable");
  const secret = await mintApiKey(tx, services, actor, "secret");
  return { publishableKey: publishable.key, secretKey: secret.key };
}
