import type { Logger } from "pino";
import type { Database } from "../store/database.ts";
import type { Sealer } from "../secrets/sealer.ts";
import { cryptoRandom, randomString, BASE62, type RandomSource } from "../domain/ids.ts";
import { toEvent } from "../domain/events.ts";
import { signingSecrets } from "../domain/webhook-endpoints.ts";
import { checkDestination, type HostResolver, type ResolvedAddress } from "./address-policy.ts";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signatureHeader } from "./signer.ts";
import { send, type SendResult } from "./sender.ts";
import { createFanOut } from "./fanout.ts";
import {
  claimDeliveries,
  completeDeliveries,
  releaseDelivery,
  findLeasesOfStableId,
  releaseUnrenewedLeases,
  renewDeliveryLeases,
  type ClaimedDelivery,
  type Completion,
  type Outcome,
} from "./queue.ts";
import { FAILING_AFTER_MS, RETRY_SCHEDULE_MS } from "./schedule.ts";
import { createWorker } from "../workers/worker.ts";

// The delivery worker: fans outbox events out into deliveries, claims the due ones, POSTs them signed, and records
// each attempt. Runs embedded in the API process (createProtectionApi().startBackgroundJobs()) or on its own
// (`npm run worker`), on the worker runtime (server/workers/worker.ts): on stop, in-flight requests get `graceMs` to
// finish; the rest are aborted and released. While requests run, a heartbeat renews their leases every third of
// `leaseMs`, so the lease can be short: a worker killed with -9 holds its endpoints up for at most `leaseMs`.

/** How late a live worker's renewal may be and still count as one (a statement's latency on a busy database). */
const RENEWAL_SLACK_MS = 1_000;

/** WEBHOOK_LEASE_MS's default: the request timeout, at least 3 s (three renewals a lease; two may fail or lag). */
export const defaultLeaseMs = (timeoutMs: number) => Math.max(3_000, timeoutMs);

export interface WebhookWorkerOptions {
  db: Database;
  sealer: Sealer;
  logger: Logger;
  clock?: () => number;
  random?: RandomSource;
  resolveHost?: HostResolver;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: test-mode endpoints may reach loopback and private addresses (local development). */
  allowPrivateWebhookUrls?: boolean;
  /** Per-request timeout (10 s). */
  timeoutMs?: number;
  /**
   * How long a claim holds without renewal before another worker may take it over; renewed every third of it while
   * the request runs. Bounds the stall after a worker dies. Default: defaultLeaseMs(timeoutMs).
   */
  leaseMs?: number;
  /** Wait between polls when there was nothing to do. */
  pollMs?: number;
  /** Most deliveries in flight at once (at most one per endpoint). */
  batchSize?: number;
  retrySchedule?: readonly number[];
  failingAfterMs?: number;
  /** How long the fan-out waits for a gap in event sequence numbers to fill (PostgreSQL). */
  gapGraceMs?: number;
  /** The lease holder's name (default: random, or `<stableId>/<random>`). */
  workerId?: string;
  /**
   * WORKER_ID: a name unique among the running workers and the same across restarts (a StatefulSet pod's name, a
   * systemd unit's instance). A worker started under it first hands back, due at once, what an earlier run left leased
   * (it died), instead of waiting for those leases to run out.
   */
  stableId?: string;
  /**
   * How long a finished attempt waits for others to share its transaction (group commit). Default 0: those ending
   * while a write is under way share the next one anyway, and waiting longer only delays the next claim (measured).
   */
  groupCommitMs?: number;
  /** Test seam: sees every attempt's outcome. */
  onAttempt?: (delivery: ClaimedDelivery, result: SendResult, outcome: Outcome) => void;
}

export function createWebhookWorker(options: WebhookWorkerOptions) {
  const clock = options.clock ?? Date.now;
  const random = options.random ?? cryptoRandom;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const leaseMs = options.leaseMs ?? defaultLeaseMs(timeoutMs);
  const pollMs = options.pollMs ?? 50;
  const batchSize = options.batchSize ?? 100;
  const groupCommitMs = options.groupCommitMs ?? 0;
  const policy = {
    retrySchedule: options.retrySchedule ?? RETRY_SCHEDULE_MS,
    failingAfterMs: options.failingAfterMs ?? FAILING_AFTER_MS,
  };
  const workerId =
    options.workerId ??
    (options.stableId
      ? `${options.stableId}/${randomString(BASE62, 8, random)}`
      : `wkr_${randomString(BASE62, 16, random)}`);
  const log = options.logger.child({ component: "webhook-worker", workerId });
  const fanOut = createFanOut(
    options.db,
    { clock, random },
    { batchSize: 500, gapGraceMs: options.gapGraceMs ?? 10_000 },
  ).fanOut;

  /** Set when a stop's grace period ends: requests still running are aborted and their deliveries released. */
  let graceOver = false;
  const inFlight = new Set<Promise<void>>();
  const completions: (Completion & { done: (outcome: Outcome) => void })[] = [];
  let flushing: Promise<void> | undefined;
  /** The deliveries this worker holds a lease on, each with the abort for its request (lease lost, or grace over). */
  const held = new Map<string, AbortController>();
  let heartbeat: NodeJS.Timeout | undefined;
  let renewing = false;
  /** With a stableId: handing back what an earlier run left leased, started by the first round. */
  let releasingEarlier: Promise<void> | undefined;

  /** One round, for tests and tools: fan out new events, claim due deliveries, attempt them all. Resolves to the attempts made. */
  async function runOnce(): Promise<number> {
    await fanOut();
    const claimed = await claimDeliveries(options.db, { workerId, now: clock(), limit: batchSize, leaseMs });
    await Promise.all(claimed.map(deliver));
    return claimed.length;
  }

  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    const request = hold(delivery.id);
    try {
      await attempt(delivery, request.signal);
    } finally {
      letGo(delivery.id, request);
    }
  }

  /**
   * Renews the delivery's lease until letGo. The request's controller aborts when the heartbeat finds the lease taken
   * over or the grace period ends.
   */
  function hold(deliveryId: string): AbortController {
    const request = new AbortController();
    if (graceOver) request.abort();
    // Claimed again while an earlier request for it still runs (its lease had run out): that one is superseded.
    held.get(deliveryId)?.abort();
    held.set(deliveryId, request);
    if (!heartbeat) {
      heartbeat = setInterval(() => void renew(), leaseMs / 3);
      heartbeat.unref();
    }
    return request;
  }

  function letGo(deliveryId: string, request: AbortController) {
    if (held.get(deliveryId) === request) held.delete(deliveryId);
    if (held.size > 0) return;
    clearInterval(heartbeat);
    heartbeat = undefined;
  }

  /**
   * The heartbeat: one statement renews every lease held. A delivery it no longer holds (the lease ran out — a stall
   * longer than two renewals — and another worker took it) has its request aborted and its outcome left to the new
   * holder; the new holder's repeat carries the same event id.
   */
  async function renew() {
    if (renewing || held.size === 0) return;
    renewing = true;
    const ids = [...held.keys()];
    try {
      const kept = await renewDeliveryLeases(options.db, workerId, ids, clock() + leaseMs);
      for (const id of ids) if (!kept.has(id)) held.get(id)?.abort();
    } catch (error) {
      // The next tick tries again; until the leases run out nobody else takes them.
      log.warn({ err: error, deliveries: ids.length }, "renewing webhook leases failed");
    } finally {
      renewing = false;
    }
  }

  /**
   * Hands back, due at once, the deliveries an earlier run under the same stable id left leased (it died), after one
   * renewal interval: a lease renewed meanwhile belongs to a live worker with the same id (a misconfiguration), and is
   * left alone rather than delivered twice at the same time.
   */
  async function releaseEarlier(stableId: string) {
    const earlier = await findLeasesOfStableId(options.db, stableId, workerId);
    if (earlier.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, leaseMs / 3 + RENEWAL_SLACK_MS));
    const released = await releaseUnrenewedLeases(options.db, earlier, clock());
    log.info({ released }, "handed back the webhook deliveries an earlier run left leased");
    // Leases still held under the id by another run now were renewed or taken during the wait: that run is alive.
    const live = await findLeasesOfStableId(options.db, stableId, workerId);
    if (live.length > 0)
      log.error(
        { stableId, leases: live.length },
        "another running webhook worker has this WORKER_ID (its leases are renewed): give each worker its own",
      );
  }

  /** One attempt under the worker's lease: not recorded when `signal` aborts before the grace ends (lease lost). */
  async function attempt(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const now = clock();
    const body = JSON.stringify(toEvent(delivery.event));
    const timestamp = Math.floor(now / 1000);
    const headers = {
      "Content-Type": "application/json; charset=utf-8",
      "User-Agent": "PurchaseProtection-Webhooks/1",
      [EVENT_ID_HEADER]: delivery.event.id,
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: signatureHeader(signingSecrets(delivery.endpoint, options.sealer, now), timestamp, body),
    };
    let result: SendResult;
    const address = await destination(delivery);
    if (typeof address === "string")
      result = { statusCode: null, error: address, durationMs: 0, responseExcerpt: null };
    else result = await send({ url: delivery.endpoint.url, headers, body, timeoutMs, address, signal });
    if (signal.aborted && !graceOver) {
      log.warn(
        { deliveryId: delivery.id, eventId: delivery.event.id },
        "webhook lease taken over; attempt not recorded",
      );
      return;
    }
    if (graceOver && result.statusCode === null) {
      await releaseDelivery(options.db, workerId, delivery.id, clock());
      return;
    }
    const outcome = await complete({ delivery, result, now: clock() });
    if (outcome !== "succeeded") {
      log.info(
        {
          deliveryId: delivery.id,
          endpointId: delivery.endpoint.id,
          eventId: delivery.event.id,
          statusCode: result.statusCode,
          error: result.error,
          outcome,
        },
        "webhook attempt failed",
      );
    }
    options.onAttempt?.(delivery, result, outcome);
  }

  /**
   * Group commit: attempts that end within `groupCommitMs` of each other, or while a write is under way, are recorded
   * in one transaction, which also claims the next due deliveries when the loop is running (not in runOnce).
   */
  function complete(completion: Completion): Promise<Outcome> {
    return new Promise((done) => {
      completions.push({ ...completion, done });
      flushing ??= new Promise((resolve) => setTimeout(resolve, groupCommitMs)).then(flush);
    });
  }

  async function flush() {
    while (completions.length > 0) {
      const group = completions.splice(0);
      try {
        const room = worker.running ? batchSize - (inFlight.size - group.length) : 0;
        const next = { workerId, now: clock(), limit: room, leaseMs };
        const { outcomes, claimed } = await completeDeliveries(options.db, random, workerId, group, policy, next);
        group.forEach((completion, i) => completion.done(outcomes[i]));
        for (const delivery of claimed) track(delivery);
      } catch (error) {
        // Not recorded: the leases run out and the deliveries are attempted again (at least once).
        log.error({ err: error, deliveries: group.length }, "recording webhook attempts failed");
        for (const completion of group) completion.done("lost_lease");
      }
    }
    flushing = undefined;
  }

  /** The checked address to connect to (undefined: DNS as usual), or why the endpoint may not be reached. */
  async function destination(delivery: ClaimedDelivery): Promise<ResolvedAddress | undefined | string> {
    try {
      return await checkDestination(new URL(delivery.endpoint.url), delivery.endpoint.mode, options);
    } catch (error) {
      return `address not allowed: ${(error as Error).message}`;
    }
  }

  /**
   * One round of the loop: fan-out, then claims while deliveries are in flight, up to batchSize at once, so one slow
   * endpoint never holds up the others. Steady traffic is claimed by the group commits themselves (see flush).
   * Resolves true when it claimed some (look again at once).
   */
  async function round(): Promise<boolean> {
    if (options.stableId !== undefined)
      releasingEarlier ??= releaseEarlier(options.stableId).catch((error) =>
        log.error({ err: error }, "handing back an earlier run's webhook leases failed (they run out instead)"),
      );
    await fanOut();
    const room = batchSize - inFlight.size;
    if (room <= 0) return false;
    const deliveries = await claimDeliveries(options.db, { workerId, now: clock(), limit: room, leaseMs });
    for (const delivery of deliveries) track(delivery);
    return deliveries.length > 0;
  }

  function track(delivery: ClaimedDelivery) {
    const task = deliver(delivery)
      .catch((error) => log.error({ err: error, deliveryId: delivery.id }, "webhook delivery failed"))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  }

  const worker = createWorker({
    name: "webhooks",
    logger: log,
    pollMs,
    round,
    runOnce,
    settle: async () => {
      await releasingEarlier;
      await Promise.all(inFlight);
      await flushing;
    },
    abort: () => {
      graceOver = true;
      for (const request of held.values()) request.abort();
    },
    settings: { timeoutMs, batchSize },
  });
  return Object.assign(worker, { workerId });
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
