import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash, randomBytes } from "node:crypto";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import type { Database } from "../../server/store/database.ts";
import { migrate, migrationsFolder } from "../../server/store/migrations.ts";
import { openDatabase, sqliteFilename } from "../../server/store/open.ts";

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

/**
 * A new, empty database with a random name: a SQLite file in a temp folder, or a PostgreSQL database; a copy of
 * `template` (a SQLite file, a PostgreSQL database's name) when given.
 */
export async function createEmptyDatabase(dialect: Dialect, template?: string): Promise<EmptyDatabase> {
  const name = `pp_test_${randomBytes(6).toString("hex")}`;
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-test-"));
    const file = path.join(dir, `${name}.sqlite`);
    if (template) fs.copyFileSync(template, file);
    return {
      url: `file:${file}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  await withAdmin((admin) =>
    copyingTemplate(() => admin.query(`CREATE DATABASE ${name} ${template ? `TEMPLATE ${template}` : ""}`)),
  );
  return {
    url: POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`),
    drop: async () => {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * A new database, migrated as `npm run db:migrate` migrates one (the same function): a copy of a template that
 * function migrated once (migrating takes seconds on PostgreSQL, a copy a fraction of that, and a run makes hundreds).
 */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const empty = await createEmptyDatabase(dialect, await migratedTemplate(dialect));
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

/**
 * The template of a migrated database for `dialect`, made once per set of migrations (named by a hash of the
 * migration scripts and of the code that applies them, so a changed migration makes a new one): a SQLite file in the
 * temp folder, or a PostgreSQL database. Built under a temporary name and renamed when complete, so a process that
 * waits for it (or a run that died halfway) never copies half a template. Under `npm test` the templates are the
 * run's own (TEST_RUN_ID, set by scripts/test.ts) and removed when it ends (dropRunTemplates), as every test database
 * is; a developer's `npx vitest` keeps them for the next run.
 */
/** The environment variable naming an `npm test` run, whose templates are its own. */
export const TEST_RUN_ENV = "PP_TEST_RUN_ID";
const RUN_PREFIX = process.env[TEST_RUN_ENV] ? `${process.env[TEST_RUN_ENV]}_` : "";
const TEMPLATE_DIR = path.join(os.tmpdir(), "pp-test-templates");
const templates = new Map<Dialect, Promise<string>>();
export function migratedTemplate(dialect: Dialect): Promise<string> {
  let template = templates.get(dialect);
  if (!template) {
    template = dialect === "sqlite" ? sqliteTemplate() : postgresTemplate();
    templates.set(dialect, template);
    template.catch(() => templates.delete(dialect));
  }
  return template;
}

function migrationsHash(dialect: Dialect): string {
  const hash = createHash("sha256");
  const folder = migrationsFolder(dialect === "sqlite" ? "file:x" : "postgresql://x");
  for (const name of fs.readdirSync(folder).sort()) {
    const script = path.join(folder, name, "migration.sql");
    if (fs.existsSync(script)) hash.update(name).update(fs.readFileSync(script));
  }
  hash.update(fs.readFileSync(path.resolve(import.meta.dirname, "../../server/store/migrations.ts")));
  return hash.digest("hex").slice(0, 12);
}

async function sqliteTemplate(): Promise<string> {
  const file = path.join(TEMPLATE_DIR, `migrated-${RUN_PREFIX}${migrationsHash("sqlite")}.sqlite`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(TEMPLATE_DIR, { recursive: true });
  const building = `${file}.${randomBytes(4).toString("hex")}.building`;
  await migrate(`file:${building}`);
  // One self-contained file (the WAL folded in), so that a copy of the file alone is the whole database.
  const connection = new BetterSqlite3(sqliteFilename(`file:${building}`));
  connection.pragma("wal_checkpoint(TRUNCATE)");
  connection.close();
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${building}${suffix}`, { force: true });
  fs.renameSync(building, file);
  return file;
}

async function postgresTemplate(): Promise<string> {
  const template = `pp_template_${RUN_PREFIX}${migrationsHash("postgres")}`;
  return withAdmin(async (admin) => {
    // One process builds it while the others wait (the lock is the session's: released with it, even on a crash).
    await admin.query("SELECT pg_advisory_lock(hashtext($1))", [template]);
    try {
      const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
      if (rowCount) return template;
      const building = `${template}_building_${randomBytes(4).toString("hex")}`;
      await admin.query(`CREATE DATABASE ${building}`);
      await migrate(POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${building}`));
      await copyingTemplate(() => admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`));
      return template;
    } finally {
      await admin.query("SELECT pg_advisory_unlock(hashtext($1))", [template]);
    }
  });
}

/**
 * Runs `work` (a CREATE DATABASE … TEMPLATE, a rename), again while PostgreSQL says the template still has a session:
 * a closed client's server process can take a moment to end.
 */
async function copyingTemplate<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Removes the templates of the run `runId` (scripts/test.ts, once the tests have ended). */
export async function dropRunTemplates(runId: string): Promise<void> {
  for (const name of fs.existsSync(TEMPLATE_DIR) ? fs.readdirSync(TEMPLATE_DIR) : [])
    if (name.startsWith(`migrated-${runId}_`)) fs.rmSync(path.join(TEMPLATE_DIR, name), { force: true });
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
      `pp_template_${runId}_%`,
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
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
  "shipments",
  "shipment_events",
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
