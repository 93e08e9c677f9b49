// The Shopify side's durable job queue: one table (shopify_jobs), written in the same transaction as whatever asked
// for the work (a webhook receipt, an installation), run at once by whoever wrote it and, if that fails or the
// process dies, by the poller after a backoff. Several app instances on PostgreSQL claim with FOR UPDATE SKIP LOCKED,
// so one job runs in one place at a time; a crashed runner's lease simply expires. Handlers must be idempotent
// (they are: every API call they make carries an idempotency key derived from the job's subject, or the job's work
// commits with its completion: JobCompletion).
import type { Logger } from "pino";
import {
  createPeriodicWorker,
  createWorker,
  DAY_MS,
  DomainError,
  newId,
  recordFailedAttempt,
  workerGroup,
  type Database,
  type Queryable,
  type RetryPolicy,
  type Services,
} from "../../server/index.ts";
import { insertShopifyJobOnce } from "./store/fee-refunds.ts";
import {
  claimDueShopifyJobs,
  insertShopifyJob,
  markShopifyJobDone,
  type JobStatus,
  type ShopifyJobRecord,
} from "./store/jobs.ts";
import {
  purgeShopifyJobsAndReceipts,
  saveShopifyJobDone,
  saveShopifyJobFailure,
  type OutcomeWrite,
} from "./store/units/jobs.ts";

/** A job as its handler gets it; the payload's type per kind is in app/shopify/named-jobs.ts. */
export interface Job<Payload = unknown> extends ShopifyJobRecord {
  payload: Payload;
}

/**
 * A handler gets its job and may hand its completion to its last unit of work (app/shopify/store/units/), which marks
 * the job done in its own transaction (`markDone(tx)`), so that the work and the completion commit together: a crash
 * then leaves both or neither, and a job whose work committed never runs again. A handler that does not is marked
 * done once it returns.
 */
export type JobHandler<Payload = unknown> = (job: Job<Payload>, completion: JobCompletion) => Promise<void>;

export interface JobCompletion {
  markDone(tx: Queryable): Promise<void>;
}

/** What became of a job after an attempt: done, to be retried (pending) or given up (dead). */
export interface JobOutcome {
  status: JobStatus;
  /** Attempts so far, this one included. */
  attempts: number;
  /** The failed attempt's error; null when done. */
  lastError: string | null;
}

/**
 * Keeps a job's outcome on what the job is about (a claim's payout state), written in the transaction that records
 * it on the job: the two never disagree.
 */
export type JobOutcomeRecorder = (tx: Queryable, job: Job, outcome: JobOutcome) => Promise<void>;

/** A failure that no retry can fix (the API refused the request as invalid): the job goes dead at once. */
export class PermanentJobError extends Error {
  readonly name = "PermanentJobError";
}

/** The core refused (a DomainError: one of its rules, e.g. docs/api.md "Money invariants"): no retry can change that. */
export async function coreRefusalIsFinal<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof DomainError) throw new PermanentJobError(`${error.code}: ${error.message}`);
    throw error;
  }
}

/** Backoff after each failed attempt; after the last one the job is "dead" (kept, logged, shown on the dashboard). */
export const RETRY_DELAYS_MS = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000,
];
const RETRY_POLICY: RetryPolicy = { delaysMs: RETRY_DELAYS_MS, afterLast: "give-up" };
/** How long a claimed job is its runner's; past it another runner may take the job (its runner died). */
export const LEASE_MS = 120_000;
/**
 * Done jobs and webhook receipts are kept this long, then purged: Shopify retries a webhook for at most 4 hours, so a
 * week of receipts drops every duplicate, and the tables do not grow without bound. Dead jobs are kept (dashboard).
 */
export const RETENTION_MS = 7 * DAY_MS;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** Adds a job. With `claimed`, the caller owns it for LEASE_MS and is expected to `run` it now. */
export async function enqueueJob(
  tx: Queryable,
  services: Services,
  input: { shop: string; kind: string; payload: unknown; subject?: string; claimed?: boolean },
): Promise<Job> {
  const now = services.clock();
  const job: Job = {
    id: newId("job", now, services.random),
    shop: input.shop,
    kind: input.kind,
    payload: input.payload,
    attempts: 0,
  };
  await insertShopifyJob(
    tx,
    { ...job, subject: input.subject ?? null, lockedUntil: input.claimed ? now + LEASE_MS : null },
    now,
  );
  return job;
}

/**
 * Adds a job under an id of the caller's (derived from what the job is about) unless one exists under it, whatever
 * became of it: the job runs at most once however often, and by however many instances, it is enqueued (a refund).
 * With `rearmDone`, a job done under the id runs again (the caller knows it finished without doing its work: a claim's
 * payout that found its approval withdrawn); never two at once. Returns whether it was added or re-armed.
 */
export function enqueueJobOnce(
  tx: Queryable,
  services: Services,
  input: { id: string; shop: string; kind: string; payload: unknown; subject?: string; rearmDone?: boolean },
): Promise<boolean> {
  const { rearmDone, ...job } = input;
  return insertShopifyJobOnce(tx, { ...job, subject: job.subject ?? null, lockedUntil: null }, services.clock(), {
    rearmDone,
  });
}

/** Work that looks for jobs to enqueue (the fee refunds owed): run at start, then every `everyMs`. */
export interface PeriodicTask {
  name: string;
  everyMs: number;
  /** Resolves to how many things it did. */
  task: () => Promise<number>;
}

export interface JobQueueOptions {
  db: Database;
  services: Services;
  logger: Logger;
  handlers: Record<string, JobHandler>;
  /** How often the poller looks for due jobs. Default 1 000 ms; `wake()` skips the wait. */
  pollMs?: number;
  /** Jobs claimed per poll. Default 20. */
  batchSize?: number;
  /** Started and stopped with the queue. */
  periodicTasks?: PeriodicTask[];
  /** By job kind: who keeps the kind's outcomes on their own rows too. */
  outcomeRecorders?: Partial<Record<string, JobOutcomeRecorder>>;
}

export function createJobQueue(options: JobQueueOptions) {
  const { db, services, logger, handlers, pollMs = 1_000, batchSize = 20, periodicTasks = [] } = options;
  const outcomeRecorders = options.outcomeRecorders ?? {};
  const inFlight = new Set<Promise<void>>();

  /** Runs one job the caller owns; never throws: a failure is recorded and rescheduled. */
  async function run(job: Job): Promise<void> {
    const handler = handlers[job.kind];
    const recordOutcome = outcomeRecorders[job.kind];
    let markedDone = false;
    const attempts = job.attempts + 1;
    /** The kind's own record of an outcome, written in the transaction that records it on the job. */
    const outcomeWrite = (outcome: JobOutcome): OutcomeWrite | undefined =>
      recordOutcome && ((tx) => recordOutcome(tx, job, outcome));
    const doneWrite = outcomeWrite({ status: "done", attempts, lastError: null });
    const completion: JobCompletion = {
      async markDone(tx) {
        await markShopifyJobDone(tx, job.id, attempts, services.clock());
        await doneWrite?.(tx);
        markedDone = true;
      },
    };
    try {
      if (!handler) throw new Error(`no handler for job kind '${job.kind}'`);
      await handler(job, completion);
      if (!markedDone) await saveShopifyJobDone(db, { jobId: job.id, attempts, at: services.clock() }, doneWrite);
    } catch (error) {
      const { retryInMs, lastError } = recordFailedAttempt(logger, {
        item: "job",
        fields: { jobId: job.id, kind: job.kind, shop: job.shop },
        attempts,
        error,
        policy: RETRY_POLICY,
        permanent: error instanceof PermanentJobError,
      });
      const now = services.clock();
      const failure = { attempts, runAt: retryInMs === undefined ? undefined : now + retryInMs, lastError };
      const status = retryInMs === undefined ? "dead" : "pending";
      await saveShopifyJobFailure(db, job.id, failure, now, outcomeWrite({ status, attempts, lastError }));
    }
  }

  /** Claims the due jobs (up to batchSize) and runs them; resolves when they have run. Returns how many ran. */
  async function runDue(): Promise<number> {
    const due = await claimDueShopifyJobs(db, { now: services.clock(), leaseMs: LEASE_MS, limit: batchSize });
    await Promise.all(due.map((job) => track(run(job))));
    return due.length;
  }

  function track(promise: Promise<void>): Promise<void> {
    inFlight.add(promise);
    return promise.finally(() => inFlight.delete(promise));
  }

  /** Removes done jobs and webhook receipts older than RETENTION_MS. Returns how many rows went. */
  const purgeExpired = () => purgeShopifyJobsAndReceipts(db, services.clock() - RETENTION_MS);
  // A full batch means more may be due: the next round runs at once.
  const jobs = createWorker({
    name: "shopify-jobs",
    logger,
    pollMs,
    runOnce: runDue,
    round: async () => (await runDue()) === batchSize,
    settle: () => Promise.allSettled([...inFlight]),
  });
  const purge = createPeriodicWorker({ name: "shopify-purge", logger, everyMs: PURGE_EVERY_MS, task: purgeExpired });
  const periodic = periodicTasks.map((task) => createPeriodicWorker({ ...task, logger }));
  const workers = workerGroup([jobs, purge, ...periodic]);

  return {
    /** Runs a job the caller enqueued with `claimed` (tracked, so `stop` waits for it). */
    run: (job: Job) => track(run(job)),
    runDue,
    purgeExpired,
    /**
     * Starts the queue's workers: the jobs, the purge of done jobs and receipts (at start, then hourly) and the
     * periodic tasks.
     */
    start: workers.start,
    /** Look for due jobs now (a follow-up job was just enqueued). */
    wake: jobs.wake,
    /** Stops polling and waits for the jobs in flight. */
    stop: () => workers.stop(),
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
