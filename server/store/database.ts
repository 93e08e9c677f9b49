// The SQL seam between the domain and the two databases. Statements are written once with `?` placeholders
// and run unchanged on SQLite (better-sqlite3) and PostgreSQL (pg). We use the drivers directly rather than the
// Prisma client on the request path: measured in bench/api.ts, an interactive Prisma transaction costs ~10x a
// raw one here. Prisma still owns the schema and the migrations.

export type SqlValue = string | number | bigint | null;
export type Row = Record<string, unknown>;

export interface Queryable {
  readonly dialect: "sqlite" | "postgres";
  /** Rows of a SELECT (or of an INSERT/UPDATE … RETURNING). */
  all<T = Row>(sql: string, params?: SqlValue[]): Promise<T[]>;
  /** First row or undefined. */
  get<T = Row>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  /** Number of rows changed. */
  run(sql: string, params?: SqlValue[]): Promise<number>;
  /**
   * A write whose answer nobody reads, run at the end of the transaction: on PostgreSQL it is sent with the
   * COMMIT in one pipelined write (one round trip fewer), and its failure fails the commit, which rolls back. A
   * statement issued after it in the same transaction runs before it, so no later statement may depend on it.
   * Outside a transaction, and on SQLite (no round trips), it runs at once.
   */
  runAtCommit(sql: string, params?: SqlValue[]): Promise<void>;
}

export interface TransactionOptions {
  /** PostgreSQL: how long a statement waits for a row lock before LockTimeoutError. */
  lockTimeoutMs?: number;
  /**
   * PostgreSQL: the commit returns before its WAL reaches the disk (`synchronous_commit = off`). A crash of the server
   * or its machine may then lose the last commits (a suffix of them, never part of one). Only for writes whose loss
   * is redone: the webhook worker's bookkeeping, whose delivery is at least once. SQLite commits never wait for the
   * disk here (synchronous = NORMAL), so this changes nothing there.
   */
  asyncCommit?: boolean;
}

export interface Database extends Queryable {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}

/** A trivial query: resolves once the database answers (the readiness probe). */
export async function ping(db: Queryable): Promise<void> {
  await db.get("SELECT 1 AS one");
}

/** Thrown when a transaction waited too long for a row lock held by another transaction. */
export class LockTimeoutError extends Error {
  constructor() {
    super("lock wait timed out");
  }
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/** Suffix that row-locks a SELECT in a transaction on PostgreSQL; SQLite transactions are already serialised. */
export function forUpdate(tx: Queryable): string {
  return tx.dialect === "postgres" ? " FOR UPDATE" : "";
}

/**
 * Suffix for a queue's claim: on PostgreSQL it locks the rows (of `alias` only, in a join) and skips those another
 * transaction holds, so concurrent workers never claim the same one; SQLite transactions are already serialised.
 */
export function forUpdateSkipLocked(tx: Queryable, alias?: string): string {
  return tx.dialect === "postgres" ? ` FOR UPDATE${alias ? ` OF ${alias}` : ""} SKIP LOCKED` : "";
}

/**
 * An owner's row by its primary key: `columns` of `table` where `id` matches, when the row belongs to `owner`, else
 * undefined. The owner is compared on the row, not in the WHERE: with `merchant_id` and `mode` there, PostgreSQL
 * without statistics yet (a new or fast-growing table) may scan the owner's `(merchant_id, mode, …)` index and filter
 * by id (16 ms at 15,000 quotes, bench:api --postgres). `suffix` ends the statement (e.g. forUpdate). A foreign id
 * locked that way stays locked, unread, until the transaction ends.
 */
export async function findOwnedRow<T>(
  tx: Queryable,
  owner: { merchantId: string; mode: string },
  table: string,
  columns: string,
  id: string,
  suffix = "",
): Promise<T | undefined> {
  const row = await tx.get<T & { owner_merchant_id: string; owner_mode: string }>(
    `SELECT ${columns}, ${table}.merchant_id AS owner_merchant_id, ${table}.mode AS owner_mode FROM ${table} WHERE id = ?${suffix}`,
    [id],
  );
  return row && row.owner_merchant_id === owner.merchantId && row.owner_mode === owner.mode ? row : undefined;
}

/** `?, ?, ?` — one placeholder per value, for `IN (…)` lists. */
export const placeholders = (values: readonly unknown[]) => values.map(() => "?").join(", ");

/** A LIKE pattern for text containing `text` literally (its `%` and `_` are no wildcards); the query says `LIKE ? ESCAPE '\'`. */
export const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;
