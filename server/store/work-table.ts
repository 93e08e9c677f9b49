// A table used as a work queue (email_messages, shopify_jobs): rows with a status, a due time and a lease
// (locked_until), worked through by a worker (server/workers/worker.ts). One piece of code for both, so claiming
// behaves the same everywhere. The webhook delivery queue claims per endpoint, in creation order, and keeps its own.
import { forUpdateSkipLocked, type Database } from "./database.ts";

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
         ORDER BY ${dueColumn} LIMIT ?${forUpdateSkipLocked(tx)}
       )
       RETURNING ${columns}`,
      [now + claim.leaseMs, ...(touch ? [now] : []), now, now, claim.limit],
    ),
  );
}
