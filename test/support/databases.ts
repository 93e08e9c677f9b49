import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Database } from "../../server/store/database.ts";
import { openDatabase } from "../../server/store/open.ts";

export type Dialect = "sqlite" | "postgres";
export const DIALECTS: Dialect[] = ["sqlite", "postgres"];

const ROOT = path.resolve(import.meta.dirname, "../..");
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** The SQL of every migration of a provider, in order: the same files `prisma migrate deploy` applies. */
export function migrationSql(dialect: Dialect): string[] {
  const folder = path.join(ROOT, "prisma", ...(dialect === "postgres" ? ["postgresql", "migrations"] : ["migrations"]));
  return fs
    .readdirSync(folder)
    .filter((name) => fs.statSync(path.join(folder, name)).isDirectory())
    .sort()
    .map((name) => fs.readFileSync(path.join(folder, name, "migration.sql"), "utf8"));
}

export interface TestDatabase {
  url: string;
  db: Database;
  /** Closes the connection and removes the database (file or PostgreSQL database). */
  drop(): Promise<void>;
}

/** A new, migrated database with a random name: a SQLite file in a temp folder, or a PostgreSQL database. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const name = `pp_test_${randomBytes(6).toString("hex")}`;
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-test-"));
    const url = `file:${path.join(dir, `${name}.sqlite`)}`;
    const db = openDatabase(url);
    await db.transaction(async (tx) => {
      for (const sql of migrationSql("sqlite")) for (const statement of splitStatements(sql)) await tx.run(statement);
    });
    return { url, db, drop: async () => { await db.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
  }
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const sql of migrationSql("postgres")) await client.query(sql);
  await client.end();
  const db = openDatabase(url);
  return {
    url,
    db,
    drop: async () => {
      await db.close();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
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

/** better-sqlite3 runs one statement per call; Prisma's migration files hold several, none with a ';' inside. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter(Boolean);
}

export const COUNTED_TABLES = ["merchants", "api_keys", "protection_programs", "quotes", "plans", "orders", "claims", "settlement_credits", "events", "email_messages", "idempotency_records"];

/** Row counts of every domain table: compare before and after to prove a request changed nothing. */
export async function rowCounts(db: Database, tables: readonly string[] = COUNTED_TABLES): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
  return counts;
}
