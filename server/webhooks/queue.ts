import { placeholders, type Database, type Queryable } from "../store/database.ts";
import { newId, type RandomSource } from "../domain/ids.ts";
import { ENDPOINT_COLUMNS, type EndpointRow } from "../domain/webhook-endpoints.ts";
import type { EventRow } from "../domain/events.ts";
import { retryDelay } from "./schedule.ts";

// The delivery queue in SQL. A worker claims due deliveries under a lease (status delivering, locked_by,
// locked_until): on PostgreSQL with FOR UPDATE SKIP LOCKED, so concurrent workers never claim the same one; a
// lease that runs out (the worker died) makes the delivery claimable again. Only the head of each endpoint's
// queue — its oldest undelivered event — is ever claimable, which keeps deliveries in event order per endpoint.

export interface ClaimedDelivery {
  id: string;
  attempts: number;
  endpoint: EndpointRow;
  event: EventRow;
}

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface QueuePolicy {
  retrySchedule: readonly number[];
  failingAfterMs: number;
}

// An endpoint's head: the delivery in flight (or whose lease ran out), else its oldest pending one. Two index seeks
// per enabled endpoint on (endpoint_id, status, event_seq, id), however long the queues are.
const head = (status: string) =>
  `(SELECT x.id FROM webhook_deliveries x WHERE x.endpoint_id = e.id AND x.status = '${status}' ORDER BY x.event_seq, x.id LIMIT 1)`;

export interface ClaimRequest {
  workerId: string;
  now: number;
  limit: number;
  leaseMs: number;
}

export function claimDeliveries(db: Database, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  return db.transaction((tx) => claimIn(tx, request));
}

async function claimIn(tx: Queryable, { workerId, now, limit, leaseMs }: ClaimRequest): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const lock = tx.dialect === "postgres" ? " FOR UPDATE OF d SKIP LOCKED" : "";
  // Picks and leases the due heads in one statement.
  const due = await tx.all<{ id: string }>(
    `UPDATE webhook_deliveries SET status = 'delivering', locked_by = ?, locked_until = ?, updated_at = ?
     WHERE id IN (
       SELECT d.id FROM webhook_endpoints e JOIN webhook_deliveries d ON d.id = COALESCE(${head("delivering")}, ${head("pending")})
       WHERE e.status = 'enabled'
         AND ((d.status = 'pending' AND d.next_attempt_at <= ?) OR (d.status = 'delivering' AND d.locked_until <= ?))
       ORDER BY d.next_attempt_at, d.event_seq LIMIT ?${lock})
     RETURNING id`,
    [workerId, now + leaseMs, now, now, now, limit],
  );
  if (due.length === 0) return [];
  const ids = due.map((row) => row.id);
  const marks = placeholders(ids);
  const endpointColumns = ENDPOINT_COLUMNS.split(", ").map((column) => `e.${column} AS e_${column}`).join(", ");
  const rows = await tx.all<Record<string, unknown>>(
    `SELECT d.id AS d_id, d.attempts AS d_attempts, ${endpointColumns},
            v.id AS v_id, v.mode AS v_mode, v.type AS v_type, v.data AS v_data, v.created_at AS v_created_at
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN events v ON v.id = d.event_id
     WHERE d.id IN (${marks})`,
    ids,
  );
  return rows.map((row) => ({
    id: row.d_id as string,
    attempts: Number(row.d_attempts),
    endpoint: prefixed(row, "e_") as unknown as EndpointRow,
    event: prefixed(row, "v_") as unknown as EventRow,
  }));
}

function prefixed(row: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out;
}

export type Outcome = "succeeded" | "retry" | "gave_up" | "endpoint_disabled" | "lost_lease";

export interface Completion {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  /** When the attempt ended. */
  now: number;
}

/**
 * Records attempts (one transaction for a group of them) and moves each delivery on: 2xx succeeded; 410 Gone
 * disables the endpoint; any other failure is retried on the schedule until the endpoint has been failing for
 * `failingAfterMs`, when the endpoint is marked failing and the delivery gives up. A delivery another worker took
 * over meanwhile (its lease ran out) is left alone: lost_lease. With `next`, it also claims what is due next.
 */
export async function completeDeliveries(
  db: Database, random: RandomSource, workerId: string, completions: Completion[], policy: QueuePolicy, next?: ClaimRequest,
): Promise<{ outcomes: Outcome[]; claimed: ClaimedDelivery[] }> {
  return db.transaction(async (tx) => {
    const recorded = await recordSuccesses(tx, workerId, completions.filter((completion) => succeeded(completion.result)));
    const outcomes: Outcome[] = [];
    for (const completion of completions) {
      if (!succeeded(completion.result)) outcomes.push(await recordFailure(tx, workerId, completion, policy));
      else if (!recorded.has(completion.delivery.id)) outcomes.push("lost_lease");
      else {
        const endpoint = completion.delivery.endpoint;
        if (endpoint.failing_since !== null) await tx.run("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?", [endpoint.id]);
        outcomes.push("succeeded");
      }
    }
    await insertAttempts(tx, random, completions);
    // The same transaction claims what is due next (those endpoints' next events, typically): one commit per group.
    return { outcomes, claimed: next ? await claimIn(tx, next) : [] };
  });
}

const succeeded = (result: AttemptResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
const errorOf = (result: AttemptResult) => result.error ?? (succeeded(result) ? null : `HTTP ${result.statusCode}`);

/** The attempt log rows of a group, in one statement (a round trip per row is most of a group's cost on PostgreSQL). */
async function insertAttempts(tx: Queryable, random: RandomSource, completions: Completion[]): Promise<void> {
  if (completions.length === 0) return;
  const params = completions.flatMap(({ delivery, result, now }) => [
    newId("wa", now, random), delivery.endpoint.merchant_id, delivery.endpoint.mode, delivery.endpoint.id, delivery.id, delivery.event.id,
    succeeded(result) ? "succeeded" : "failed", result.statusCode, errorOf(result), result.durationMs, now,
  ]);
  await tx.run(
    `INSERT INTO webhook_attempts (id, merchant_id, mode, endpoint_id, delivery_id, event_id, outcome, status_code, error, duration_ms, attempted_at)
     VALUES ${completions.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
    params,
  );
}

/** Marks a group's successful deliveries succeeded in one statement; the ids this worker still held. */
async function recordSuccesses(tx: Queryable, workerId: string, completions: Completion[]): Promise<Set<string>> {
  if (completions.length === 0) return new Set();
  const cases = completions.map(() => "WHEN ? THEN CAST(? AS INTEGER)").join(" ");
  const rows = await tx.all<{ id: string }>(
    `UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, locked_by = NULL, locked_until = NULL,
       last_status = CASE id ${cases} END, last_error = NULL, last_duration_ms = CASE id ${cases} END, updated_at = CAST(? AS BIGINT)
     WHERE id IN (${placeholders(completions)}) AND locked_by = ? AND status = 'delivering' RETURNING id`,
    [
      ...completions.flatMap(({ delivery, result }) => [delivery.id, result.statusCode]),
      ...completions.flatMap(({ delivery, result }) => [delivery.id, result.durationMs]),
      Math.max(...completions.map((completion) => completion.now)),
      ...completions.map(({ delivery }) => delivery.id),
      workerId,
    ],
  );
  return new Set(rows.map((row) => row.id));
}

async function recordFailure(tx: Queryable, workerId: string, { delivery, result, now }: Completion, policy: QueuePolicy): Promise<Outcome> {
  const endpointId = delivery.endpoint.id;
  const gone = result.statusCode === 410;
  // As read at claim time: only one delivery per endpoint is in flight, so nothing else changed it meanwhile.
  const failingSince = delivery.endpoint.failing_since ?? now;
  const gaveUp = !gone && now - failingSince >= policy.failingAfterMs;
  const outcome: Outcome = gone ? "endpoint_disabled" : gaveUp ? "gave_up" : "retry";
  const attempts = delivery.attempts + 1;
  const status = outcome === "retry" ? "pending" : "failed";
  const nextAttemptAt = outcome === "retry" ? now + retryDelay(attempts, policy.retrySchedule) : now;
  const error = errorOf(result);
  const changed = await tx.run(
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, locked_by = NULL, locked_until = NULL,
       last_status = ?, last_error = ?, last_duration_ms = ?, updated_at = ?
     WHERE id = ? AND locked_by = ? AND status = 'delivering'`,
    [status, attempts, nextAttemptAt, result.statusCode, error, result.durationMs, now, delivery.id, workerId],
  );
  if (changed === 0) return "lost_lease";
  if (gone) await tx.run("UPDATE webhook_endpoints SET status = 'disabled', updated_at = ? WHERE id = ?", [now, endpointId]);
  else if (gaveUp) await tx.run("UPDATE webhook_endpoints SET status = 'failing', updated_at = ? WHERE id = ?", [now, endpointId]);
  else if (delivery.endpoint.failing_since === null) await tx.run("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ? AND failing_since IS NULL", [now, endpointId]);
  return outcome;
}

/** Hands a claimed delivery back untried (graceful shutdown): due again at once, no attempt counted. */
export async function releaseDelivery(db: Database, workerId: string, id: string, now: number): Promise<void> {
  await db.transaction((tx) =>
    tx.run("UPDATE webhook_deliveries SET status = 'pending', locked_by = NULL, locked_until = NULL, next_attempt_at = ?, updated_at = ? WHERE id = ? AND locked_by = ? AND status = 'delivering'", [
      now, now, id, workerId,
    ]),
  );
}
