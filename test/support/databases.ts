import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Database } from "../../server/store/database.ts";
import { migrate } from "../../server/store/migrations.ts";
import { openDatabase } from "../../server/store/open.ts";

export type Dialect = "sqlite" | "postgres";
export const DIALECTS: Dialect[] = ["sqlite", "postgres"];

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  db: Database;
  /** Closes the connection and removes the database (file or PostgreSQL database). */
  drop(): Promise<void>;
}

export interface EmptyDatabase {
  url: string;
  /** Removes the database (file or PostgreSQL database). */
  drop(): Promise<void>;
}

/** A new, empty database with a random name: a SQLite file in a temp folder, or a PostgreSQL database. */
export async function createEmptyDatabase(dialect: Dialect): Promise<EmptyDatabase> {
  const name = `pp_test_${randomBytes(6).toString("hex")}`;
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-test-"));
    return {
      url: `file:${path.join(dir, `${name}.sqlite`)}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  return {
    url: POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`),
    drop: async () => {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** A new database, migrated as `npm run db:migrate` migrates one (the same function). */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const empty = await createEmptyDatabase(dialect);
  await migrate(empty.url);
  const db = openDatabase(empty.url);
  return {
    url: empty.url,
    db,
    drop: async () => {
      await db.close();
      await empty.drop();
    },
  };
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

export const COUNTED_TABLES = [
  "merchants",
  "api_keys",
  "protection_programs",
  "quotes",
  "plans",
  "orders",
  "claims",
  "claim_timeline",
  "claim_evidence",
  "portal_sessions",
  "fee_refunds",
  "settlement_credits",
  "events",
  "email_messages",
  "idempotency_records",
];

/** Row counts of every domain table: compare before and after to prove a request changed nothing. */
export async function rowCounts(
  db: Database,
  tables: readonly string[] = COUNTED_TABLES,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables)
    counts[table] = Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
  return counts;
}
