// The job runner's units of work (app/shopify/jobs.server.ts): a job's outcome, with what its kind keeps of it on its
// own rows, and the purge of what is kept no longer; each one transaction.
import type { Database, Queryable } from "../../../../server/index.ts";
import { markShopifyJobDone, purgeDoneShopifyJobs, recordShopifyJobFailure } from "../jobs.ts";
import { purgeShopifyWebhookReceipts } from "../webhook-receipts.ts";

/** What a job's kind writes of an outcome on its own rows (a claim's payout state), in the job's transaction. */
export type OutcomeWrite = (tx: Queryable) => Promise<void>;

/** Marks the job done, with `alongside` in one transaction; the job's row alone is one statement and needs none. */
export async function saveShopifyJobDone(
  db: Database,
  done: { jobId: string; attempts: number; at: number },
  alongside?: OutcomeWrite,
): Promise<void> {
  if (!alongside) return markShopifyJobDone(db, done.jobId, done.attempts, done.at);
  await db.transaction(async (tx) => {
    await markShopifyJobDone(tx, done.jobId, done.attempts, done.at);
    await alongside(tx);
  });
}

/** Records a failed attempt (see recordShopifyJobFailure), with `alongside` in one transaction. */
export async function saveShopifyJobFailure(
  db: Database,
  jobId: string,
  failure: { attempts: number; runAt: number | undefined; lastError: string },
  at: number,
  alongside?: OutcomeWrite,
): Promise<void> {
  if (!alongside) return recordShopifyJobFailure(db, jobId, failure, at);
  await db.transaction(async (tx) => {
    await recordShopifyJobFailure(tx, jobId, failure, at);
    await alongside(tx);
  });
}

/** Removes done jobs and webhook receipts last touched before `before`. Returns how many rows went. */
export function purgeShopifyJobsAndReceipts(db: Database, before: number): Promise<number> {
  return db.transaction(
    async (tx) => (await purgeDoneShopifyJobs(tx, before)) + (await purgeShopifyWebhookReceipts(tx, before)),
  );
}
