// Idempotency records: one per (merchant, mode, key kind, idempotency key), holding the request's fingerprint and
// the response to replay (server/http/idempotency.ts has the rules). Headers and sensitive bodies arrive sealed.
import { isUniqueViolation, type Database, type Queryable } from "./database.ts";
import type { KeyKind, Mode } from "../vocabulary/ids.ts";

export interface IdempotencyScope {
  merchantId: string;
  mode: Mode;
  /** The key kind (publishable, secret), or `portal:<planId>` for a buyer's portal session (server/http/idempotency.ts). */
  kind: KeyKind | `portal:${string}`;
  key: string;
}

export interface IdempotencyRecord {
  fingerprint: string;
  /** 0 while the request that claimed the key has not finished. */
  status: number;
  /** Sealed JSON of the headers, or "" for none. */
  headers: string;
  body: string;
  expiresAt: number;
}

/** Attempts of one mutation when a concurrent transaction won a unique-constraint race (PostgreSQL). */
const RACE_ATTEMPTS = 3;

/**
 * Runs an idempotent mutation in a transaction, again (up to 3 times in all) when it lost a unique-constraint race
 * to a concurrent one: the retry sees the winner's rows. Other errors end it.
 */
export async function transactionRetryingRaces<T>(
  db: Database,
  work: (tx: Queryable) => Promise<T>,
  options: { lockTimeoutMs: number },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work, options);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= RACE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Claims the key with an unfinished record; false when a record of it exists. The row is invisible to others until
 * commit, and a concurrent claim of the same key on PostgreSQL waits here until then.
 */
export async function claimIdempotencyKey(
  tx: Queryable,
  scope: IdempotencyScope,
  fingerprint: string,
  now: number,
  expiresAt: number,
): Promise<boolean> {
  const claimed = await tx.all(
    `INSERT INTO idempotency_records (merchant_id, mode, key_kind, key, fingerprint, status, headers, body, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, 0, '', '', ?, ?) ON CONFLICT DO NOTHING RETURNING key`,
    [scope.merchantId, scope.mode, scope.kind, scope.key, fingerprint, now, expiresAt],
  );
  return claimed.length > 0;
}

/**
 * PostgreSQL: lifts the transaction's lock timeout (set for the wait on a twin's idempotency key) for the rest of it,
 * so that a lock the mutation itself waits for under load is not taken for a twin in flight.
 */
export async function endKeyWaitBound(tx: Queryable): Promise<void> {
  if (tx.dialect === "postgres") await tx.get("SELECT set_config('lock_timeout', '0', true)");
}

export async function findIdempotencyRecord(
  tx: Queryable,
  scope: IdempotencyScope,
): Promise<IdempotencyRecord | undefined> {
  const row = await tx.get<{ fingerprint: string; status: number; headers: string; body: string; expires_at: number }>(
    "SELECT fingerprint, status, headers, body, expires_at FROM idempotency_records WHERE merchant_id = ? AND mode = ? AND key_kind = ? AND key = ?",
    [scope.merchantId, scope.mode, scope.kind, scope.key],
  );
  return (
    row && {
      fingerprint: row.fingerprint,
      status: row.status,
      headers: row.headers,
      body: row.body,
      expiresAt: row.expires_at,
    }
  );
}

/** Claims the key again over its expired record: unfinished, for a new request. */
export async function reclaimIdempotencyKey(
  tx: Queryable,
  scope: IdempotencyScope,
  fingerprint: string,
  now: number,
  expiresAt: number,
): Promise<void> {
  await tx.run(
    "UPDATE idempotency_records SET fingerprint = ?, status = 0, headers = '', body = '', created_at = ?, expires_at = ? WHERE merchant_id = ? AND mode = ? AND key_kind = ? AND key = ?",
    [fingerprint, now, expiresAt, scope.merchantId, scope.mode, scope.kind, scope.key],
  );
}

/** Stores the response of the request that claimed the key. */
export async function completeIdempotencyRecord(
  tx: Queryable,
  scope: IdempotencyScope,
  response: { status: number; headers: string; body: string },
): Promise<void> {
  // The mutation's last write: sent with the COMMIT (see Queryable.runAtCommit).
  await tx.runAtCommit(
    "UPDATE idempotency_records SET status = ?, headers = ?, body = ? WHERE merchant_id = ? AND mode = ? AND key_kind = ? AND key = ?",
    [response.status, response.headers, response.body, scope.merchantId, scope.mode, scope.kind, scope.key],
  );
}

/**
 * Stores a finished response (no headers) under the key, claimed or not: an expired record of the key is replaced;
 * a live one (a twin that finished meanwhile) is kept.
 */
export async function storeFinishedIdempotencyRecord(
  tx: Queryable,
  scope: IdempotencyScope,
  record: { fingerprint: string; status: number; body: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await tx.run(
    `INSERT INTO idempotency_records (merchant_id, mode, key_kind, key, fingerprint, status, headers, body, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, ?)
     ON CONFLICT (merchant_id, mode, key_kind, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, headers = '',
       body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at
     WHERE idempotency_records.expires_at <= excluded.created_at`,
    [
      scope.merchantId,
      scope.mode,
      scope.kind,
      scope.key,
      record.fingerprint,
      record.status,
      record.body,
      record.createdAt,
      record.expiresAt,
    ],
  );
}

/** Deletes the records expired at `now`; resolves to how many went. */
export function deleteExpiredIdempotencyRecords(tx: Queryable, now: number): Promise<number> {
  return tx.run("DELETE FROM idempotency_records WHERE expires_at <= ?", [now]);
}
