// The Shopify app's durable job queue (shopify_jobs): a job is written in the transaction that asked for the work,
// claimed with a lease, then marked done, rescheduled or dead. Payloads are stored as JSON text.
import { claimDueRows, likeContaining, type Database, type Queryable } from "../../../server/index.ts";

export type JobStatus = "pending" | "done" | "dead";

/** A job as its runner gets it. */
export interface ShopifyJobRecord {
  id: string;
  shop: string;
  kind: string;
  payload: unknown;
  /** Attempts before this one. */
  attempts: number;
}

export interface NewShopifyJob extends Omit<ShopifyJobRecord, "attempts"> {
  /** What the job can be found by while it is pending (an order's id). */
  subject: string | null;
  /** Set when the writer runs the job at once: nobody else claims it before then. */
  lockedUntil: number | null;
}

/** How far a job got. */
export interface ShopifyJobProgress {
  status: JobStatus;
  attempts: number;
  lastError: string | null;
}

export interface DeadShopifyJob {
  id: string;
  kind: string;
  attempts: number;
  lastError: string | null;
  updatedAt: number;
}

/** Sent with the commit (runAtCommit): a job is written last in the transaction that asks for it. */
export async function insertShopifyJob(tx: Queryable, job: NewShopifyJob, at: number): Promise<void> {
  await tx.runAtCommit(
    `INSERT INTO shopify_jobs (id, shop, kind, subject, payload, status, attempts, run_at, locked_until, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)`,
    [job.id, job.shop, job.kind, job.subject, JSON.stringify(job.payload), at, job.lockedUntil, at, at],
  );
}

/** Leases up to `limit` due jobs (see claimDueRows). */
export async function claimDueShopifyJobs(
  db: Database,
  claim: { now: number; leaseMs: number; limit: number },
): Promise<ShopifyJobRecord[]> {
  const rows = await claimDueRows<{ id: string; shop: string; kind: string; payload: string; attempts: number }>(db, {
    table: "shopify_jobs",
    dueColumn: "run_at",
    columns: "id, shop, kind, payload, attempts",
    touch: "updated_at",
    ...claim,
  });
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts), payload: JSON.parse(row.payload) }));
}

/**
 * A done job keeps no payload: webhook payloads carry customer data there is no reason to keep. Sent with the commit
 * (runAtCommit): the completion is the last write of the job's work.
 */
export async function markShopifyJobDone(tx: Queryable, jobId: string, attempts: number, at: number): Promise<void> {
  await tx.runAtCommit(
    "UPDATE shopify_jobs SET status = 'done', payload = '{}', attempts = ?, locked_until = NULL, last_error = NULL, updated_at = ? WHERE id = ?",
    [attempts, at, jobId],
  );
}

/** A failed attempt: the job runs again at `runAt`, or (`runAt` undefined) is dead. */
export async function recordShopifyJobFailure(
  tx: Queryable,
  jobId: string,
  failure: { attempts: number; runAt: number | undefined; lastError: string },
  at: number,
): Promise<void> {
  await tx.run(
    "UPDATE shopify_jobs SET status = ?, attempts = ?, run_at = ?, locked_until = NULL, last_error = ?, updated_at = ? WHERE id = ?",
    [
      failure.runAt === undefined ? "dead" : "pending",
      failure.attempts,
      failure.runAt ?? at,
      failure.lastError,
      at,
      jobId,
    ],
  );
}

export async function hasPendingShopifyJob(
  tx: Queryable,
  job: { shop: string; kind: string; subject: string },
): Promise<boolean> {
  const row = await tx.get(
    "SELECT id FROM shopify_jobs WHERE shop = ? AND kind = ? AND subject = ? AND status = 'pending'",
    [job.shop, job.kind, job.subject],
  );
  return row !== undefined;
}

/** The shop's newest job of this kind. */
export async function findLatestShopifyJob(
  tx: Queryable,
  shop: string,
  kind: string,
): Promise<ShopifyJobProgress | undefined> {
  const row = await tx.get<{ status: JobStatus; attempts: number; last_error: string | null }>(
    "SELECT status, attempts, last_error FROM shopify_jobs WHERE shop = ? AND kind = ? ORDER BY created_at DESC LIMIT 1",
    [shop, kind],
  );
  return row && { status: row.status, attempts: Number(row.attempts), lastError: row.last_error };
}

/** The shop's jobs that gave up, newest first. */
export async function listDeadShopifyJobs(tx: Queryable, shop: string, limit: number): Promise<DeadShopifyJob[]> {
  const rows = await tx.all<{
    id: string;
    kind: string;
    attempts: number;
    last_error: string | null;
    updated_at: number;
  }>(
    "SELECT id, kind, attempts, last_error, updated_at FROM shopify_jobs WHERE shop = ? AND status = 'dead' ORDER BY updated_at DESC LIMIT ?",
    [shop, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    updatedAt: Number(row.updated_at),
  }));
}

/** Empties the payload of the shop's other jobs whose payload mentions `text` (case-insensitively). */
export async function blankShopifyJobPayloadsMentioning(
  tx: Queryable,
  shop: string,
  exceptJobId: string,
  text: string,
): Promise<void> {
  await tx.run(
    "UPDATE shopify_jobs SET payload = '{}' WHERE shop = ? AND id <> ? AND LOWER(payload) LIKE ? ESCAPE '\\'",
    [shop, exceptJobId, likeContaining(text.toLowerCase())],
  );
}

/** Removes done jobs last touched before `before`. Returns how many went. */
export function purgeDoneShopifyJobs(tx: Queryable, before: number): Promise<number> {
  return tx.run("DELETE FROM shopify_jobs WHERE status = 'done' AND updated_at < ?", [before]);
}
