// Webhook deliveries (one event to one endpoint), the queue the worker claims them from, their attempt log, and the
// fan-out watermark. The rules — which outcome an attempt has, when it is retried — are in server/webhooks/queue.ts.
//
// A worker claims due deliveries under a lease (status delivering, locked_by, locked_until), on PostgreSQL with
// FOR UPDATE SKIP LOCKED, so concurrent workers never claim the same one; the worker renews its leases while the
// requests run (renewDeliveryLeases), so a lease that runs out means its worker died or stalled, and the delivery is
// claimable again. Only the head of each endpoint's queue — its oldest undelivered event — is ever
// claimable, which keeps deliveries in event order per endpoint.
import { forUpdateSkipLocked, placeholders, type Database, type Queryable } from "./database.ts";
import { ENDPOINT_COLUMNS, toEndpointRecord, type EndpointRecord, type EndpointRow } from "./webhook-endpoints.ts";
import { toEventContent, type EventContent } from "./events.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Mode } from "../vocabulary/ids.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import { listPage } from "./pagination.ts";

export interface NewDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventSeq: number;
}

/** Inserts pending deliveries due at `now`: one statement per 100 rows (a round trip per row dominated fan-out). */
export async function insertDeliveries(tx: Queryable, deliveries: readonly NewDelivery[], now: number): Promise<void> {
  for (let start = 0; start < deliveries.length; start += 100) {
    const chunk = deliveries.slice(start, start + 100);
    await tx.run(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_seq, status, attempts, next_attempt_at, created_at, updated_at)
       VALUES ${chunk.map(() => "(?, ?, ?, ?, 'pending', 0, ?, ?, ?)").join(", ")}`,
      chunk.flatMap((delivery) => [
        delivery.id,
        delivery.endpointId,
        delivery.eventId,
        delivery.eventSeq,
        now,
        now,
        now,
      ]),
    );
  }
}

/** Drops every delivery to the endpoint not yet made (the endpoint is going). */
export async function deleteEndpointDeliveries(tx: Queryable, endpointId: string): Promise<void> {
  await tx.run("DELETE FROM webhook_deliveries WHERE endpoint_id = ?", [endpointId]);
}

export interface ClaimedDelivery {
  id: string;
  /** Attempts made before this one. */
  attempts: number;
  /** As it was at claim time: only one delivery per endpoint is in flight, so nothing else changes it meanwhile. */
  endpoint: EndpointRecord;
  event: EventContent;
}

export interface ClaimRequest {
  workerId: string;
  now: number;
  limit: number;
  leaseMs: number;
}

// An endpoint's head: the delivery in flight (or whose lease ran out), else its oldest pending one. Two index seeks
// per enabled endpoint on (endpoint_id, status, event_seq, id), however long the queues are.
const head = (status: string) =>
  `(SELECT x.id FROM webhook_deliveries x WHERE x.endpoint_id = e.id AND x.status = '${status}' ORDER BY x.event_seq, x.id LIMIT 1)`;

const JOINED_ENDPOINT_COLUMNS = ENDPOINT_COLUMNS.split(", ")
  .map((column) => `e.${column} AS e_${column}`)
  .join(", ");

/** Leases up to `limit` due heads of enabled endpoints to the worker, with their endpoint and event. */
export async function leaseDueDeliveries(
  tx: Queryable,
  { workerId, now, limit, leaseMs }: ClaimRequest,
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  // Picks and leases the due heads in one statement.
  const lease = `UPDATE webhook_deliveries SET status = 'delivering', locked_by = ?, locked_until = ?, updated_at = ?
     WHERE id IN (
       SELECT d.id FROM webhook_endpoints e JOIN webhook_deliveries d ON d.id = COALESCE(${head("delivering")}, ${head("pending")})
       WHERE e.status = 'enabled'
         AND ((d.status = 'pending' AND d.next_attempt_at <= ?) OR (d.status = 'delivering' AND d.locked_until <= ?))
       ORDER BY d.next_attempt_at, d.event_seq LIMIT ?${forUpdateSkipLocked(tx, "d")})`;
  const leaseParams = [workerId, now + leaseMs, now, now, now, limit];
  const withEndpointAndEvent = (deliveries: string) =>
    `SELECT d.id AS d_id, d.attempts AS d_attempts, ${JOINED_ENDPOINT_COLUMNS},
            v.id AS v_id, v.mode AS v_mode, v.type AS v_type, v.data AS v_data, v.created_at AS v_created_at
     FROM ${deliveries} d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN events v ON v.id = d.event_id`;
  let rows: Record<string, unknown>[];
  if (tx.dialect === "postgres") {
    // One round trip: the leased rows are joined to their endpoint and event in the same statement.
    rows = await tx.all(
      `WITH due AS (${lease} RETURNING id, attempts, endpoint_id, event_id) ${withEndpointAndEvent("due")}`,
      leaseParams,
    );
  } else {
    // SQLite has no UPDATE inside WITH; in-process, the second statement costs no round trip.
    const due = await tx.all<{ id: string }>(`${lease} RETURNING id`, leaseParams);
    if (due.length === 0) return [];
    const ids = due.map((row) => row.id);
    rows = await tx.all(`${withEndpointAndEvent("webhook_deliveries")} WHERE d.id IN (${placeholders(ids)})`, ids);
  }
  return rows.map((row) => ({
    id: row.d_id as string,
    attempts: Number(row.d_attempts),
    endpoint: toEndpointRecord(prefixed(row, "e_") as unknown as EndpointRow),
    event: toEventContent(prefixed(row, "v_") as unknown as Parameters<typeof toEventContent>[0]),
  }));
}

/** leaseDueDeliveries in a transaction of its own; on PostgreSQL the lease is one statement, atomic without BEGIN/COMMIT. */
export function claimDeliveries(db: Database, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  return db.dialect === "postgres"
    ? leaseDueDeliveries(db, request)
    : db.transaction((tx) => leaseDueDeliveries(tx, request));
}

function prefixed(row: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out;
}

export interface SuccessfulAttempt {
  deliveryId: string;
  statusCode: number;
  durationMs: number;
}

/** Marks deliveries succeeded in one statement; resolves to the ids the worker still held (the others it lost). */
export async function markDeliveriesSucceeded(
  tx: Queryable,
  workerId: string,
  attempts: readonly SuccessfulAttempt[],
  at: number,
): Promise<Set<string>> {
  if (attempts.length === 0) return new Set();
  const cases = attempts.map(() => "WHEN ? THEN CAST(? AS INTEGER)").join(" ");
  const rows = await tx.all<{ id: string }>(
    `UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, locked_by = NULL, locked_until = NULL,
       last_status = CASE id ${cases} END, last_error = NULL, last_duration_ms = CASE id ${cases} END, updated_at = CAST(? AS BIGINT)
     WHERE id IN (${placeholders(attempts)}) AND locked_by = ? AND status = 'delivering' RETURNING id`,
    [
      ...attempts.flatMap((attempt) => [attempt.deliveryId, attempt.statusCode]),
      ...attempts.flatMap((attempt) => [attempt.deliveryId, attempt.durationMs]),
      at,
      ...attempts.map((attempt) => attempt.deliveryId),
      workerId,
    ],
  );
  return new Set(rows.map((row) => row.id));
}

export interface FailedAttempt {
  deliveryId: string;
  /** pending: tried again at `nextAttemptAt`; failed: given up. */
  status: "pending" | "failed";
  /** Attempts made, this one included. */
  attempts: number;
  nextAttemptAt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  at: number;
}

/** Records a failed attempt on a delivery the worker holds; false when it no longer held it (lost lease). */
export async function markDeliveryAttemptFailed(
  tx: Queryable,
  workerId: string,
  failed: FailedAttempt,
): Promise<boolean> {
  const changed = await tx.run(
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, locked_by = NULL, locked_until = NULL,
       last_status = ?, last_error = ?, last_duration_ms = ?, updated_at = ?
     WHERE id = ? AND locked_by = ? AND status = 'delivering'`,
    [
      failed.status,
      failed.attempts,
      failed.nextAttemptAt,
      failed.statusCode,
      failed.error,
      failed.durationMs,
      failed.at,
      failed.deliveryId,
      workerId,
    ],
  );
  return changed > 0;
}

/**
 * Extends the worker's leases on deliveries in flight to `until`, in one statement however many there are (the
 * heartbeat); resolves to the ids it still held. A delivery missing from the answer was taken over after its lease ran
 * out (or finished meanwhile): the worker must not record its outcome as its own.
 */
export async function renewDeliveryLeases(
  db: Database,
  workerId: string,
  ids: readonly string[],
  until: number,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const renew = (tx: Queryable) =>
    tx.all<{ id: string }>(
      `UPDATE webhook_deliveries SET locked_until = ?
       WHERE id IN (${placeholders(ids)}) AND locked_by = ? AND status = 'delivering' RETURNING id`,
      [until, ...ids, workerId],
    );
  // As claimDeliveries: on SQLite a write goes through the writer's transaction queue.
  const rows = await (db.dialect === "postgres" ? renew(db) : db.transaction(renew));
  return new Set(rows.map((row) => row.id));
}

export interface HeldLease {
  deliveryId: string;
  lockedBy: string;
  lockedUntil: number;
}

/** The leases held under `stableId` by other runs than `currentHolder` (their holders are `<stableId>/<random>`). */
export async function findLeasesOfStableId(
  db: Queryable,
  stableId: string,
  currentHolder: string,
): Promise<HeldLease[]> {
  const prefix = `${stableId}/`;
  const rows = await db.all<{ id: string; locked_by: string; locked_until: unknown }>(
    `SELECT id, locked_by, locked_until FROM webhook_deliveries
     WHERE status = 'delivering' AND substr(locked_by, 1, ?) = ? AND locked_by <> ?`,
    [prefix.length, prefix, currentHolder],
  );
  return rows.map((row) => ({ deliveryId: row.id, lockedBy: row.locked_by, lockedUntil: Number(row.locked_until) }));
}

/**
 * Hands back untried, due at `now`, those of `leases` still exactly as they were read (not renewed since, not
 * finished, not taken over). Resolves to how many.
 */
export async function releaseUnrenewedLeases(db: Database, leases: readonly HeldLease[], now: number): Promise<number> {
  if (leases.length === 0) return 0;
  return db.transaction((tx) =>
    tx.run(
      `UPDATE webhook_deliveries SET status = 'pending', locked_by = NULL, locked_until = NULL, next_attempt_at = ?, updated_at = ?
       WHERE status = 'delivering' AND (${leases.map(() => "(id = ? AND locked_by = ? AND locked_until = ?)").join(" OR ")})`,
      [now, now, ...leases.flatMap((lease) => [lease.deliveryId, lease.lockedBy, lease.lockedUntil])],
    ),
  );
}

/** Hands a held delivery back untried: due again at `now`, no attempt counted. */
export async function releaseDeliveryLease(tx: Queryable, workerId: string, id: string, now: number): Promise<void> {
  await tx.run(
    "UPDATE webhook_deliveries SET status = 'pending', locked_by = NULL, locked_until = NULL, next_attempt_at = ?, updated_at = ? WHERE id = ? AND locked_by = ? AND status = 'delivering'",
    [now, now, id, workerId],
  );
}

export interface AttemptRecord {
  id: string;
  merchantId: string;
  mode: Mode;
  endpointId: string;
  deliveryId: string;
  eventId: string;
  outcome: "succeeded" | "failed";
  /** The receiver's HTTP status; null when no response came. */
  statusCode: number | null;
  error: string | null;
  /** The start of the receiver's answer (server/webhooks/sender.ts). */
  responseExcerpt: string | null;
  durationMs: number;
  attemptedAt: number;
}

/**
 * Appends to the attempt log in one statement (a round trip per row is most of a group's cost on PostgreSQL), sent
 * with the commit: nothing in the transaction reads the log.
 */
export async function insertAttempts(tx: Queryable, attempts: readonly AttemptRecord[]): Promise<void> {
  if (attempts.length === 0) return;
  await tx.runAtCommit(
    `INSERT INTO webhook_attempts (id, merchant_id, mode, endpoint_id, delivery_id, event_id, outcome, status_code, error, response_excerpt, duration_ms, attempted_at)
     VALUES ${attempts.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
    attempts.flatMap((attempt) => [
      attempt.id,
      attempt.merchantId,
      attempt.mode,
      attempt.endpointId,
      attempt.deliveryId,
      attempt.eventId,
      attempt.outcome,
      attempt.statusCode,
      attempt.error,
      attempt.responseExcerpt,
      attempt.durationMs,
      attempt.attemptedAt,
    ]),
  );
}

interface AttemptRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  endpoint_id: string;
  delivery_id: string;
  event_id: string;
  outcome: "succeeded" | "failed";
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  duration_ms: number;
  attempted_at: number;
}

/** An endpoint's attempt log, newest first. */
export function listAttemptsPage(
  tx: Queryable,
  owner: Actor,
  endpointId: string,
  query: PageQuery,
): Promise<Page<AttemptRecord>> {
  return listPage(
    tx,
    owner,
    "webhook_attempts",
    "id, merchant_id, mode, endpoint_id, delivery_id, event_id, outcome, status_code, error, response_excerpt, duration_ms, attempted_at",
    [["endpoint_id = ?", endpointId]],
    query,
    (row: AttemptRow): AttemptRecord => ({
      id: row.id,
      merchantId: row.merchant_id,
      mode: row.mode,
      endpointId: row.endpoint_id,
      deliveryId: row.delivery_id,
      eventId: row.event_id,
      outcome: row.outcome,
      statusCode: row.status_code,
      error: row.error,
      responseExcerpt: row.response_excerpt,
      durationMs: row.duration_ms,
      attemptedAt: row.attempted_at,
    }),
  );
}

/**
 * Locks the fan-out watermark `name` (creating it at 0 the first time) and returns the last seq fanned out;
 * undefined when another worker holds it.
 */
export async function lockFanOutWatermark(tx: Queryable, name: string): Promise<number | undefined> {
  const read = () =>
    tx.get<{ last_seq: number }>(`SELECT last_seq FROM webhook_fanout WHERE name = ?${forUpdateSkipLocked(tx)}`, [
      name,
    ]);
  let mark = await read();
  if (!mark) {
    await tx.run("INSERT INTO webhook_fanout (name, last_seq) VALUES (?, 0) ON CONFLICT DO NOTHING", [name]);
    mark = await read();
  }
  return mark && Number(mark.last_seq);
}

export async function saveFanOutWatermark(tx: Queryable, name: string, lastSeq: number): Promise<void> {
  await tx.run("UPDATE webhook_fanout SET last_seq = ? WHERE name = ?", [lastSeq, name]);
}
