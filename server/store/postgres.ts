import type { Socket } from "node:net";
import pg from "pg";
import { coalesceWrites } from "./coalesce-writes.ts";
import {
  LockTimeoutError,
  type Database,
  type Queryable,
  type Row,
  type SqlValue,
  type TransactionOptions,
} from "./database.ts";

// BIGINT columns hold epoch milliseconds, well inside Number's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * PostgreSQL through a pg pool. `?` placeholders are rewritten to `$n` once per distinct statement, and statements
 * run as named prepared statements (each connection parses and plans one once): planning was measured at 0.66 ms of
 * a 1 ms webhook claim, and preparing cut PostgreSQL's CPU per webhook delivery by 43% (bench/webhooks.ts).
 * Connections run in pg's pipeline mode, so that a transaction's BEGIN goes out with its first statement, and its
 * runAtCommit statements with its COMMIT, each pair in one write: the API's cost on this database is round trips
 * (bench:api --postgres --profile). Everything else awaits each statement, as without it.
 */
export function openPostgres(connectionString: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString, max: poolSize, pipeline: true } as pg.PoolConfig);
  // An idle connection the server closed (restart, failover, pg_terminate_backend) is dropped by the pool and
  // replaced on the next query. Without a listener, node-postgres re-emits it as an uncaught 'error' that ends the process.
  pool.on("error", () => undefined);
  pool.on("connect", (client) =>
    coalesceWrites((client as unknown as { connection: { stream: Socket } }).connection.stream),
  );
  const onPool = queryable(
    (query) => pool.query(query),
    (query) => pool.query(query).then(() => undefined),
  );

  return {
    ...onPool,
    async transaction<T>(work: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}) {
      const client = await pool.connect();
      // Pipelined statements fail together: after the first failure PostgreSQL answers every later one with 25P02
      // ("current transaction is aborted"), and work awaiting several at once may see that answer first. The first
      // failure is the cause (a lock timeout, a unique violation), so that is what the transaction reports.
      let firstFailure: unknown;
      const noteFailure = <R>(sent: Promise<R>): Promise<R> =>
        sent.catch((error) => {
          firstFailure ??= error;
          throw error;
        });
      try {
        // BEGIN (with its settings: a simple query may hold several statements) goes out in the same write as the
        // transaction's first statement (pipeline mode), which waits for both.
        const settings = [
          ...(options.lockTimeoutMs ? [`SET LOCAL lock_timeout = ${Math.floor(options.lockTimeoutMs)}`] : []),
          ...(options.asyncCommit ? ["SET LOCAL synchronous_commit = off"] : []),
        ];
        let begun: Promise<unknown> | undefined = client.query(["BEGIN", ...settings].join("; "));
        // Awaited below; handled here too, so that work failing before its first statement leaves no stray rejection.
        begun.catch(() => undefined);
        const afterBegin = async <R>(sent: Promise<R>): Promise<R> => {
          const pending = begun;
          begun = undefined;
          if (pending) await Promise.all([pending, sent.catch(() => undefined)]);
          return sent;
        };
        const atCommit: pg.QueryConfig<SqlValue[]>[] = [];
        const value = await work(
          queryable(
            (query) => afterBegin(noteFailure(client.query(query))),
            async (query) => void atCommit.push(query),
          ),
        );
        // Sent together (pipeline mode); if one fails, PostgreSQL answers the COMMIT with a rollback.
        await afterBegin(Promise.all([...atCommit.map((query) => client.query(query)), client.query("COMMIT")]));
        return value;
      } catch (thrown) {
        await client.query("ROLLBACK").catch(() => undefined);
        const error = (thrown as { code?: string }).code === "25P02" && firstFailure ? firstFailure : thrown;
        if ((error as { code?: string }).code === "55P03") throw new LockTimeoutError();
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

// Statements built with a varying number of rows are distinct texts; past this many, new texts run unnamed, so
// neither this map nor each connection's set of prepared statements grows without bound.
const MAX_PREPARED = 500;
const prepared = new Map<string, { name?: string; text: string }>();
function statement(sql: string): { name?: string; text: string } {
  let known = prepared.get(sql);
  if (known === undefined) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    known = prepared.size < MAX_PREPARED ? { name: `pp${prepared.size}`, text } : { text };
    prepared.set(sql, known);
  }
  return known;
}

type Run = (query: pg.QueryConfig<SqlValue[]>) => Promise<pg.QueryResult>;

function queryable(run: Run, runAtCommit: (query: pg.QueryConfig<SqlValue[]>) => Promise<void>): Queryable {
  const execute = (sql: string, values: SqlValue[]) => run({ ...statement(sql), values });
  return {
    dialect: "postgres",
    async all<T = Row>(sql: string, params: SqlValue[] = []) {
      return (await execute(sql, params)).rows as T[];
    },
    async get<T = Row>(sql: string, params: SqlValue[] = []) {
      return (await execute(sql, params)).rows[0] as T | undefined;
    },
    async run(sql: string, params: SqlValue[] = []) {
      return (await execute(sql, params)).rowCount ?? 0;
    },
    runAtCommit: (sql: string, params: SqlValue[] = []) => runAtCommit({ ...statement(sql), values: params }),
  };
}
