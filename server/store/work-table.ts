// A table used as a work queue (email_messages, shopify_jobs): rows with a status, a due time and a lease
// (locked_until), and a poller that works through them. One piece of code for both, so claiming and polling behave
// the same everywhere. The webhook delivery queue claims per endpoint, in creation order, and keeps its own.
import type { Logger } from "pino";
import type { Database } from "./database.ts";

export interface ClaimDue {
  table: string;
  /** The due-time column (epoch ms): rows with `status = 'pending'` and this <= now are due. */
  dueColumn: string;
  /** The columns RETURNING gives back. */
  columns: string;
  /** A column set to `now` along with the lease (an updated_at). */
  touch?: string;
  now: number;
  leaseMs: number;
  limit: number;
}

/**
 * Leases up to `limit` due rows whose lease is free (never taken, or run out: its holder died) and returns them.
 * On PostgreSQL FOR UPDATE SKIP LOCKED lets several processes claim at once without taking the same row; SQLite
 * transactions are serialised anyway.
 */
export function claimDueRows<T>(db: Database, claim: ClaimDue): Promise<T[]> {
  const { table, dueColumn, columns, touch, now } = claim;
  return db.transaction((tx) =>
    tx.all<T>(
      `UPDATE ${table} SET locked_until = ?${touch ? `, ${touch} = ?` : ""}
       WHERE id IN (
         SELECT id FROM ${table} WHERE status = 'pending' AND ${dueColumn} <= ? AND (locked_until IS NULL OR locked_until <= ?)
         ORDER BY ${dueColumn} LIMIT ?${tx.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""}
       )
       RETURNING ${columns}`,
      [now + claim.leaseMs, ...(touch ? [now] : []), now, now, claim.limit],
    ),
  );
}

/** The wait after the `attempts`-th failure, or undefined when that was the last one (the row has failed for good). */
export const backoffOrGiveUp = (delaysMs: readonly number[], attempts: number): number | undefined => delaysMs[attempts - 1];

export interface PollerOptions {
  /** Handles one batch; resolves with how many rows it handled. */
  cycle: () => Promise<number>;
  /** A full batch means more may be due: the next cycle runs at once. */
  batchSize: number;
  pollMs: number;
  logger: Logger;
  /** For the log line when a cycle throws ("e-mail worker", …). */
  name: string;
}

/** Runs `cycle` now, again while batches come back full, then every `pollMs`, until stopped. */
export function createPoller(options: PollerOptions) {
  const { cycle, batchSize, pollMs, logger, name } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = true;
  let running: Promise<void> | undefined;

  async function loop(): Promise<void> {
    try {
      while (!stopped && (await cycle()) === batchSize);
    } catch (error) {
      logger.error({ err: error }, `${name} failed; retrying on the next poll`);
    }
  }

  function tick() {
    if (stopped || running) return;
    running = loop().finally(() => {
      running = undefined;
      if (!stopped) timer = setTimeout(tick, pollMs);
    });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setTimeout(tick, 0);
    },
    /** Look now rather than at the next poll (new work was just written). */
    wake() {
      if (stopped || running) return;
      clearTimeout(timer);
      timer = setTimeout(tick, 0);
    },
    /** Stops polling; resolves when the cycle under way has finished. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
