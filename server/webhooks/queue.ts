import type { Database, Queryable, TransactionOptions } from "../store/database.ts";
import { newId, type RandomSource } from "../domain/ids.ts";
import {
  insertAttempts,
  claimDeliveries,
  leaseDueDeliveries,
  markDeliveriesSucceeded,
  markDeliveryAttemptFailed,
  releaseDeliveryLease,
  renewDeliveryLeases,
  findLeasesOfStableId,
  releaseUnrenewedLeases,
  type ClaimedDelivery,
  type ClaimRequest,
} from "../store/webhook-deliveries.ts";
import { clearEndpointFailing, markEndpointFailingSince, setEndpointStatus } from "../store/webhook-endpoints.ts";
import { retryDelay } from "./schedule.ts";

// The delivery queue's rules: what an attempt's result does to its delivery and its endpoint. The queue itself
// (leases, per-endpoint event order) is in server/store/webhook-deliveries.ts.

export type { ClaimedDelivery };

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The start of the receiver's answer, when one came. */
  responseExcerpt?: string | null;
}

/**
 * A group commit (attempts recorded, deliveries moved on, the next ones claimed) does not wait for the disk on
 * PostgreSQL: if a crash loses it, the leases run out and those deliveries are made again, which at-least-once delivery
 * allows (a crash loses a suffix of commits, so per-endpoint order holds). Events and fan-out commit durably.
 * bench:webhooks: +13 % deliveries/s on PostgreSQL.
 */
const GROUP_COMMIT: TransactionOptions = { asyncCommit: true };

export interface QueuePolicy {
  retrySchedule: readonly number[];
  failingAfterMs: number;
}

/** Claims due deliveries on their own (the loop's claims; a group commit claims inside its transaction). */
export { claimDeliveries };

/** The heartbeat: extends the leases on deliveries in flight, in one statement; resolves to those still held. */
export { renewDeliveryLeases };

/** At the start of a worker with a stable id: what an earlier run of it left leased, and handing it back. */
export { findLeasesOfStableId, releaseUnrenewedLeases };

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
  db: Database,
  random: RandomSource,
  workerId: string,
  completions: Completion[],
  policy: QueuePolicy,
  next?: ClaimRequest,
): Promise<{ outcomes: Outcome[]; claimed: ClaimedDelivery[] }> {
  return db.transaction(async (tx) => {
    const successes = completions.flatMap(({ delivery, result, now }) =>
      succeeded(result)
        ? [{ deliveryId: delivery.id, statusCode: result.statusCode, durationMs: result.durationMs, now }]
        : [],
    );
    // Sent at once and answered below, after the claim has gone out too: on PostgreSQL (pipeline mode) they share a
    // round trip. The claim needs this update's effect (the next heads), not its answer (which leases were held).
    const marking = markDeliveriesSucceeded(
      tx,
      workerId,
      successes,
      Math.max(...successes.map((success) => success.now)),
    );
    marking.catch(() => undefined); // awaited below (a rejection before then is not unhandled)
    const failures = new Map<string, Outcome>();
    for (const completion of completions)
      if (!succeeded(completion.result))
        failures.set(completion.delivery.id, await recordFailure(tx, workerId, completion, policy));
    // A 2xx shows the endpoint is up again, lease or not; cleared before the claim reads the endpoints.
    const recovered = completions.filter((c) => succeeded(c.result) && c.delivery.endpoint.failingSince !== null);
    for (const endpointId of new Set(recovered.map((c) => c.delivery.endpoint.id)))
      await clearEndpointFailing(tx, endpointId);
    // The same transaction claims what is due next (those endpoints' next events, typically): one commit per group.
    const claiming = next ? leaseDueDeliveries(tx, next) : Promise.resolve([]);
    claiming.catch(() => undefined); // likewise; if the update failed, that is the error the caller sees
    const recorded = await marking;
    const outcomes = completions.map(
      ({ delivery }): Outcome => failures.get(delivery.id) ?? (recorded.has(delivery.id) ? "succeeded" : "lost_lease"),
    );
    await insertAttempts(
      tx,
      completions.map(({ delivery, result, now }) => ({
        id: newId("wa", now, random),
        merchantId: delivery.endpoint.merchantId,
        mode: delivery.endpoint.mode,
        endpointId: delivery.endpoint.id,
        deliveryId: delivery.id,
        eventId: delivery.event.id,
        outcome: succeeded(result) ? "succeeded" : "failed",
        statusCode: result.statusCode,
        error: errorOf(result),
        responseExcerpt: result.responseExcerpt ?? null,
        durationMs: result.durationMs,
        attemptedAt: now,
      })),
    );
    return { outcomes, claimed: await claiming };
  }, GROUP_COMMIT);
}

const succeeded = (result: AttemptResult): result is AttemptResult & { statusCode: number } =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
const errorOf = (result: AttemptResult) => result.error ?? (succeeded(result) ? null : `HTTP ${result.statusCode}`);

async function recordFailure(
  tx: Queryable,
  workerId: string,
  { delivery, result, now }: Completion,
  policy: QueuePolicy,
): Promise<Outcome> {
  const endpointId = delivery.endpoint.id;
  const gone = result.statusCode === 410;
  // As read at claim time: only one delivery per endpoint is in flight, so nothing else changed it meanwhile.
  const failingSince = delivery.endpoint.failingSince ?? now;
  const gaveUp = !gone && now - failingSince >= policy.failingAfterMs;
  const outcome: Outcome = gone ? "endpoint_disabled" : gaveUp ? "gave_up" : "retry";
  const attempts = delivery.attempts + 1;
  const status = outcome === "retry" ? "pending" : "failed";
  const nextAttemptAt = outcome === "retry" ? now + retryDelay(attempts, policy.retrySchedule) : now;
  const held = await markDeliveryAttemptFailed(tx, workerId, {
    deliveryId: delivery.id,
    status,
    attempts,
    nextAttemptAt,
    statusCode: result.statusCode,
    error: errorOf(result),
    durationMs: result.durationMs,
    at: now,
  });
  if (!held) return "lost_lease";
  if (gone) await setEndpointStatus(tx, endpointId, "disabled", now);
  else if (gaveUp) await setEndpointStatus(tx, endpointId, "failing", now);
  else if (delivery.endpoint.failingSince === null) await markEndpointFailingSince(tx, endpointId, now);
  return outcome;
}

/** Hands a claimed delivery back untried (graceful shutdown): due again at once, no attempt counted. */
export async function releaseDelivery(db: Database, workerId: string, id: string, now: number): Promise<void> {
  await db.transaction((tx) => releaseDeliveryLease(tx, workerId, id, now));
}
