import BetterSqlite3 from "better-sqlite3";
import type { Database, Queryable, Row, SqlValue } from "./database.ts";
import {
  CHECKPOINT_DEFAULTS,
  startCheckpointer,
  type Checkpointer,
  type CheckpointOptions,
} from "./sqlite-checkpointer.ts";

/**
 * SQLite through better-sqlite3. Writes go through one connection and transactions are serialised by an
 * in-process queue (better-sqlite3 is synchronous, so a transaction must never interleave with another's
 * statements on the same connection). Reads outside a transaction run on the writer connection while no
 * transaction is open there (its page cache is warm: measured ~2x cheaper than a second connection, whose cache
 * every commit invalidates), and on a second, read-only connection while one is, so they never see uncommitted data.
 * A third connection, on a worker thread, checkpoints the WAL in the background (server/store/sqlite-checkpointer.ts).
 */
export function openSqlite(filename: string, checkpoint: CheckpointOptions = {}): Database {
  const writer = connect(filename);
  const reader = filename === ":memory:" ? writer : connect(filename);
  const writerStatements = new StatementCache(writer);
  const readerStatements = reader === writer ? writerStatements : new StatementCache(reader);
  let queue: Promise<unknown> = Promise.resolve();
  let checkpointer: Checkpointer | undefined;
  let commitsBeforeCheckpointer =
    filename === ":memory:" ? Infinity : (checkpoint.startAfterCommits ?? CHECKPOINT_DEFAULTS.startAfterCommits);
  const pauseWrites = (during: () => Promise<void>) => (queue = queue.then(during));

  const onWriter = queryable(writerStatements);
  const onReader = queryable(readerStatements);
  const committed = () => (writer.inTransaction ? onReader : onWriter);

  function transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const result = queue.then(async () => {
      writer.exec("BEGIN IMMEDIATE");
      try {
        const value = await work(onWriter);
        writer.exec("COMMIT");
        if (--commitsBeforeCheckpointer === 0) checkpointer = startCheckpointer(filename, pauseWrites, checkpoint);
        return value;
      } catch (error) {
        if (writer.inTransaction) writer.exec("ROLLBACK");
        throw error;
      }
    });
    queue = result.catch(() => undefined);
    return result;
  }

  return {
    dialect: "sqlite",
    all: (sql, params) => committed().all(sql, params),
    get: (sql, params) => committed().get(sql, params),
    // A write outside a transaction waits its turn in the queue: on the read-only connection it would block the
    // process for the busy timeout while a transaction is open, then fail with "database is locked".
    run: (sql, params) => transaction((tx) => tx.run(sql, params)),
    runAtCommit: (sql, params) => transaction((tx) => tx.runAtCommit(sql, params)),
    transaction,
    async close() {
      await queue;
      await checkpointer?.stop();
      if (reader !== writer) reader.close();
      writer.close();
    },
  };
}

/** The writer's automatic checkpoint, in 4 KiB pages: well above what the WAL grows by between two background ones. */
export const FALLBACK_CHECKPOINT_PAGES = 10_000;

function connect(filename: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(filename);
  db.pragma("journal_mode = WAL");
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
  db.pragma("synchronous = NORMAL");
  // The background checkpointer does the work; the writer checkpoints inside a commit (which then pays for it) only
  // when the WAL passes ~40 MB, as a fallback (the checkpointer's thread stalled or failed).
  db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  db.defaultSafeIntegers(false);
  return db;
}

/** Prepared once per distinct SQL text: preparing is most of the cost of a small statement. */
class StatementCache {
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  readonly #db: BetterSqlite3.Database;
  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }
  get(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

function queryable(statements: StatementCache): Queryable {
  return {
    dialect: "sqlite",
    async all<T = Row>(sql: string, params: SqlValue[] = []) {
      return statements.get(sql).all(...params) as T[];
    },
    async get<T = Row>(sql: string, params: SqlValue[] = []) {
      return statements.get(sql).get(...params) as T | undefined;
    },
    async run(sql: string, params: SqlValue[] = []) {
      return statements.get(sql).run(...params).changes;
    },
    async runAtCommit(sql: string, params: SqlValue[] = []) {
      statements.get(sql).run(...params);
    },
  };
}
