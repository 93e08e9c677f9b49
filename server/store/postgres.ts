import pg from "pg";
import { LockTimeoutError, type Database, type Queryable, type Row, type SqlValue } from "./database.ts";

// BIGINT columns hold epoch milliseconds, well inside Number's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** PostgreSQL through a pg pool. `?` placeholders are rewritten to `$n` once per distinct statement. */
export function openPostgres(connectionString: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle connection the server closed (restart, failover, pg_terminate_backend) is dropped by the pool and
  // replaced on the next query. Without a listener, node-postgres re-emits it as an uncaught 'error' that ends the process.
  pool.on("error", () => undefined);
  const onPool = queryable((text, values) => pool.query(text, values));

  return {
    ...onPool,
    async transaction<T>(work: (tx: Queryable) => Promise<T>, options: { lockTimeoutMs?: number } = {}) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        if (options.lockTimeoutMs) await client.query(`SET LOCAL lock_timeout = ${Math.floor(options.lockTimeoutMs)}`);
        const value = await work(queryable((text, values) => client.query(text, values)));
        await client.query("COMMIT");
        return value;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        if ((error as { code?: string }).code === "55P03") throw new LockTimeoutError();
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

const numbered = new Map<string, string>();
function toPositional(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, text);
  }
  return text;
}

type Run = (text: string, values: SqlValue[]) => Promise<pg.QueryResult>;

function queryable(run: Run): Queryable {
  return {
    dialect: "postgres",
    async all<T = Row>(sql: string, params: SqlValue[] = []) {
      return (await run(toPositional(sql), params)).rows as T[];
    },
    async get<T = Row>(sql: string, params: SqlValue[] = []) {
      return (await run(toPositional(sql), params)).rows[0] as T | undefined;
    },
    async run(sql: string, params: SqlValue[] = []) {
      return (await run(toPositional(sql), params)).rowCount ?? 0;
    },
  };
}
