// API keys as the dashboard manages them — the only place keys are minted, rotated and revoked (the spec: no
// programmatic channel offers it; the API has no key routes). A key is shown in full once, when minted; afterwards
// only its last four characters. Rotating mints a successor and lets the old key work until the end of an overlap
// the merchant chooses (its revoked_at is set ahead), so servers can be redeployed without an outage; revoking ends a
// key at once, in every process (each request looks its key up). Every change is audited in its transaction.
//
// Who may mint what, as Stripe's restricted keys: an owner any kind; a developer publishable keys and restricted
// (rk_) keys, which call every merchant route except the ones that move money — void, refund reports, claim
// resolutions, fee refunds (server/http/routes.ts decides, by key kind) — so that a key never does what its
// minter's role may not do on the dashboard. A server key (secret, restricted) belongs to the member who minted it
// and saw its value: it ends when they are disabled or their new role could not mint it.
import { z } from "zod";
import type { Services, Tx } from "./context.ts";
import { DomainError, notFound } from "./errors.ts";
import { type Mode, KEY_PREFIX, type KeyKind } from "../vocabulary/ids.ts";
import { mintApiKey } from "./merchants.ts";
import { appendMerchantAudit, type MerchantAuditSource } from "./merchant-audit.ts";
import { parseInput } from "./accounts.ts";
import { endKeyAt, endKeysMintedBy, findMerchantKey, listMerchantKeys, type KeyListing } from "../store/merchants.ts";
import type { MemberRole } from "../store/members.ts";
import { DAY_MS } from "../vocabulary/time.ts";

/** The overlaps a rotation offers: how long the old key keeps working. */
export const ROTATION_OVERLAPS = {
  none: 0,
  "1h": 60 * 60 * 1000,
  "24h": DAY_MS,
  "7d": 7 * DAY_MS,
} as const;
export type RotationOverlap = keyof typeof ROTATION_OVERLAPS;

export type KeyState = "active" | "expiring" | "revoked";

export interface ApiKeySummary {
  id: string;
  kind: KeyKind;
  mode: Mode;
  /** wk_test_…, mch_live_… and the last four characters. */
  display: string;
  state: KeyState;
  createdAt: string;
  /** When it stopped (revoked) or stops (expiring) working. */
  endsAt: string | null;
  rotatedFrom: string | null;
  /** The merchant's name for the key ("Checkout server"); null when none was given. */
  label: string | null;
}

/** The key kinds each role may mint or rotate (support manages no keys). */
export const MINTABLE_KEY_KINDS: Record<MemberRole, readonly KeyKind[]> = {
  owner: ["publishable", "secret", "restricted"],
  developer: ["publishable", "restricted"],
  support: [],
};

/** Kinds tied to their minter. Publishable keys are public — every checkout page shows one — so they outlive them. */
const SERVER_KEY_KINDS: readonly KeyKind[] = ["secret", "restricted"];

/** Who manages keys: a member (or the Shopify admin's staff, as owners) acting for a merchant. */
export type KeyManager = MerchantAuditSource & { role: MemberRole };

function summarise(key: KeyListing, now: number): ApiKeySummary {
  const state: KeyState = key.revokedAt === null ? "active" : key.revokedAt > now ? "expiring" : "revoked";
  return {
    id: key.id,
    kind: key.kind,
    mode: key.mode,
    display: `${KEY_PREFIX[key.kind]}_${key.mode}_…${key.last4}`,
    state,
    createdAt: new Date(key.createdAt).toISOString(),
    endsAt: key.revokedAt === null ? null : new Date(key.revokedAt).toISOString(),
    rotatedFrom: key.rotatedFrom,
    label: key.label,
  };
}

export async function listApiKeys(db: Tx, services: Services, merchantId: string): Promise<ApiKeySummary[]> {
  const now = services.clock();
  return (await listMerchantKeys(db, merchantId)).map((key) => summarise(key, now));
}

const mintSchema = z.strictObject({
  kind: z.enum(
    ["publishable", "secret", "restricted"],
    "Choose a publishable (wk_), secret (mch_) or restricted (rk_) key.",
  ),
  mode: z.enum(["test", "live"], "Choose test or live."),
  /** What the merchant calls the key, so a list of keys says which server holds which. */
  label: z
    .string()
    .trim()
    .max(60, "At most 60 characters.")
    .optional()
    .transform((label) => label || null),
});
const rotateSchema = z.strictObject({
  keyId: z.string().min(1).max(64),
  overlap: z.enum(
    Object.keys(ROTATION_OVERLAPS) as [RotationOverlap, ...RotationOverlap[]],
    "Choose how long the old key keeps working.",
  ),
});

/** A new key; the plaintext is returned once, for the page that shows it. */
export interface MintedKey {
  key: ApiKeySummary;
  secret: string;
}

/** A key of `kind` minted by `by` (refused when their role may not mint that kind). */
async function insertKey(
  tx: Tx,
  services: Services,
  by: KeyManager,
  key: { kind: KeyKind; mode: Mode; rotatedFrom: string | null; label: string | null },
): Promise<MintedKey> {
  if (!MINTABLE_KEY_KINDS[by.role].includes(key.kind))
    throw new DomainError(
      "forbidden",
      "key_kind_not_allowed",
      `Your role cannot mint or rotate ${key.kind} keys: ask an owner of your team.`,
      "kind",
    );
  const minted = await mintApiKey(tx, services, { merchantId: by.merchantId, mode: key.mode }, key.kind, {
    rotatedFrom: key.rotatedFrom,
    mintedBy: by.actor.id,
    label: key.label,
  });
  return {
    key: summarise((await findMerchantKey(tx, by.merchantId, minted.id))!, services.clock()),
    secret: minted.key,
  };
}

export async function mintKey(tx: Tx, services: Services, source: KeyManager, input: unknown): Promise<MintedKey> {
  const { kind, mode, label } = parseInput(mintSchema, input);
  const minted = await insertKey(tx, services, source, { kind, mode, rotatedFrom: null, label });
  await appendMerchantAudit(tx, services, source, {
    action: "api_key.minted",
    subject: minted.key.id,
    detail: { kind, mode, last4: minted.secret.slice(-4), ...(label ? { label } : {}) },
  });
  return minted;
}

async function keyInForce(tx: Tx, services: Services, merchantId: string, keyId: string): Promise<KeyListing> {
  const key = await findMerchantKey(tx, merchantId, keyId);
  if (!key) throw notFound("API key", keyId, "keyId");
  if (summarise(key, services.clock()).state !== "active")
    throw new DomainError("conflict", "api_key_not_active", "This key is already revoked or being replaced.", "keyId");
  return key;
}

/** A successor of the same kind and mode; the old key works until now + the chosen overlap. */
export async function rotateKey(tx: Tx, services: Services, source: KeyManager, input: unknown): Promise<MintedKey> {
  const { keyId, overlap } = parseInput(rotateSchema, input);
  const old = await keyInForce(tx, services, source.merchantId, keyId);
  const now = services.clock();
  const minted = await insertKey(tx, services, source, {
    kind: old.kind,
    mode: old.mode,
    rotatedFrom: old.id,
    // The successor does the old key's job: it keeps its name.
    label: old.label,
  });
  await endKeyAt(tx, old.id, now + ROTATION_OVERLAPS[overlap], now);
  await appendMerchantAudit(tx, services, source, {
    action: "api_key.rotated",
    subject: old.id,
    detail: { successor: minted.key.id, overlap, last4: old.last4 },
  });
  return minted;
}

/** Ends the key now: the next request with it is refused, in every process. */
export async function revokeKey(
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  keyId: unknown,
): Promise<ApiKeySummary> {
  const id = parseInput(z.string().min(1).max(64), keyId);
  const key = await findMerchantKey(tx, source.merchantId, id);
  if (!key) throw notFound("API key", id, "keyId");
  const now = services.clock();
  if (key.revokedAt === null || key.revokedAt > now) {
    await endKeyAt(tx, key.id, now, now);
    await appendMerchantAudit(tx, services, source, {
      action: "api_key.revoked",
      subject: key.id,
      detail: { kind: key.kind, mode: key.mode, last4: key.last4 },
    });
  }
  return summarise((await findMerchantKey(tx, source.merchantId, id))!, now);
}

/**
 * A member was disabled (`role` null) or given `role`: the server keys they minted that the role could not mint end
 * now, each audited. Called in the transaction that changes the member.
 */
export async function endKeysBeyondRole(
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  member: { id: string; role: MemberRole | null },
): Promise<void> {
  const mintable = member.role === null ? [] : MINTABLE_KEY_KINDS[member.role];
  const kinds = SERVER_KEY_KINDS.filter((kind) => !mintable.includes(kind));
  const now = services.clock();
  for (const key of await endKeysMintedBy(tx, source.merchantId, member.id, kinds, now))
    await appendMerchantAudit(tx, services, source, {
      action: "api_key.revoked",
      subject: key.id,
      detail: {
        kind: key.kind,
        mode: key.mode,
        last4: key.last4,
        reason: member.role === null ? "member_disabled" : "member_role_changed",
        minter: member.id,
      },
    });
}
