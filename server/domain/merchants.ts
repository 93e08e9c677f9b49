import { newApiKey, newId, parseApiKey, sha256Hex } from "./ids.ts";
import type { KeyKind } from "../vocabulary/ids.ts";
import type { Services, Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { createProgram } from "./programs.ts";
import {
  findActiveKeyByHash,
  insertApiKey,
  insertMerchant,
  revokeApiKeys,
  setMerchantLivePause,
} from "../store/merchants.ts";
import { keepPublishableKeyValue } from "../store/getting-started.ts";

/** Who is calling: resolved from an API key. */
export interface Principal extends Actor {
  keyId: string;
  kind: KeyKind;
  /** Origins a live publishable key may be used from. */
  allowedOrigins: string[];
  /** Whether the merchant has gone live (a live key identifies nobody before: auth.ts). */
  merchantLive: boolean;
}

/** The principal for a presented key at `now`, or undefined when it is unknown, malformed or no longer in force. */
export async function authenticateKey(db: Tx, key: string, now: number): Promise<Principal | undefined> {
  const claimed = parseApiKey(key);
  if (!claimed) return undefined;
  const found = await findActiveKeyByHash(db, sha256Hex(key), now);
  if (!found || found.kind !== claimed.kind || found.mode !== claimed.mode) return undefined;
  return found;
}

/** Mints a key and stores only its hash; the returned key is shown once. */
export async function mintApiKey(
  tx: Tx,
  services: Services,
  actor: Actor,
  kind: KeyKind,
  origin: { rotatedFrom?: string | null; mintedBy?: string | null; label?: string | null } = {},
): Promise<{ id: string; key: string }> {
  const now = services.clock();
  const key = newApiKey(kind, actor.mode, services.random);
  const id = newId("key", now, services.random);
  await insertApiKey(tx, {
    id,
    merchantId: actor.merchantId,
    kind,
    mode: actor.mode,
    keyHash: sha256Hex(key),
    last4: key.slice(-4),
    createdAt: now,
    rotatedFrom: origin.rotatedFrom ?? null,
    mintedBy: origin.mintedBy ?? null,
    label: origin.label ?? null,
  });
  if (kind === "publishable") await keepPublishableKeyValue(tx, id, key);
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
  await insertMerchant(tx, {
    id: merchantId,
    name: input.name,
    allowedOrigins: input.allowedOrigins ?? [],
    shopDomain: input.shopDomain ?? null,
    createdAt: now,
  });
  const programId = await createProgram(tx, services, { merchantId, mode: "test" });
  return { merchantId, programId, ...(await mintKeyPair(tx, services, { merchantId, mode: "test" })) };
}

/** Deactivates a merchant (its platform uninstalled us): every key stops working at once; the data stays. */
export async function revokeMerchantKeys(tx: Tx, services: Services, merchantId: string): Promise<number> {
  return revokeApiKeys(tx, merchantId, services.clock());
}

/**
 * A fresh publishable and secret key of the actor's mode, for a platform installation that holds its own pair (a new
 * merchant, a re-install: revoked keys are never revived, a Shopify shop going live).
 */
export async function mintKeyPair(
  tx: Tx,
  services: Services,
  actor: Actor,
): Promise<{ publishableKey: string; secretKey: string }> {
  const publishable = await mintApiKey(tx, services, actor, "publishable");
  const secret = await mintApiKey(tx, services, actor, "secret");
  return { publishableKey: publishable.key, secretKey: secret.key };
}

/**
 * Pauses the merchant's new live protection, with the reason its live quotes are refused for (quotes.ts: the platform
 * that bills it stopped, e.g. a Shopify shop's ended app subscription), or resumes it (null). Plans already made and
 * test mode are untouched.
 */
export async function setLiveProtectionPause(tx: Tx, merchantId: string, reason: string | null): Promise<void> {
  await setMerchantLivePause(tx, merchantId, reason);
}
