// What the dashboard's getting-started checklist reads (app/dashboard/GettingStarted.tsx): facts about a merchant's
// first steps, each from the rows the step leaves behind — nothing is recorded for the checklist itself.
import type { Actor } from "../vocabulary/actors.ts";
import type { KeyKind } from "../vocabulary/ids.ts";
import type { Queryable } from "./database.ts";

/** Keeps a publishable key's value (public: every checkout page shows it); server keys keep only their hash. */
export async function keepPublishableKeyValue(tx: Queryable, keyId: string, value: string): Promise<void> {
  await tx.run("UPDATE api_keys SET publishable_key = ? WHERE id = ? AND kind = 'publishable'", [value, keyId]);
}

/** The kinds of the owner's keys in force in its mode at `now`. */
export async function keyKindsInForce(tx: Queryable, owner: Actor, now: number): Promise<KeyKind[]> {
  const rows = await tx.all<{ kind: KeyKind }>(
    `SELECT DISTINCT kind FROM api_keys
     WHERE merchant_id = ? AND mode = ? AND (revoked_at IS NULL OR revoked_at > ?) ORDER BY kind`,
    [owner.merchantId, owner.mode, now],
  );
  return rows.map((row) => row.kind);
}

/** The newest publishable key in force whose value was kept (keys minted before issue 28 kept none). */
export async function publishableKeyInForce(tx: Queryable, owner: Actor, now: number): Promise<string | undefined> {
  const row = await tx.get<{ publishable_key: string }>(
    `SELECT publishable_key FROM api_keys
     WHERE merchant_id = ? AND mode = ? AND kind = 'publishable' AND publishable_key IS NOT NULL
       AND (revoked_at IS NULL OR revoked_at > ?)
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [owner.merchantId, owner.mode, now],
  );
  return row?.publishable_key;
}

/** Whether the owner was quoted an offer in its mode (by the widget or a server). */
export async function hasQuote(tx: Queryable, owner: Actor): Promise<boolean> {
  return (
    (await tx.get("SELECT id FROM quotes WHERE merchant_id = ? AND mode = ? LIMIT 1", [
      owner.merchantId,
      owner.mode,
    ])) !== undefined
  );
}

/** Whether the owner has a protected purchase (a plan, whatever became of it) in its mode. */
export async function hasPlan(tx: Queryable, owner: Actor): Promise<boolean> {
  return (
    (await tx.get("SELECT id FROM plans WHERE merchant_id = ? AND mode = ? LIMIT 1", [
      owner.merchantId,
      owner.mode,
    ])) !== undefined
  );
}

/** Whether the owner has a webhook endpoint in its mode. */
export async function hasWebhookEndpoint(tx: Queryable, owner: Actor): Promise<boolean> {
  return (
    (await tx.get("SELECT id FROM webhook_endpoints WHERE merchant_id = ? AND mode = ? LIMIT 1", [
      owner.merchantId,
      owner.mode,
    ])) !== undefined
  );
}
