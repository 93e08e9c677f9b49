// Applies a provider's Prisma migration folders and records them in `_prisma_migrations` exactly as Prisma's schema
// engine does (its table DDL, a v4 uuid id, the sha256 hex of migration.sql, started_at/finished_at,
// applied_steps_count, logs of a failure), so a Prisma CLI elsewhere agrees on what is applied. We do not call
// `prisma migrate deploy`: through the pg driver adapter it fails on PostgreSQL before applying anything ("Column
// type 'name' could not be deserialized from the database", prisma/orm#27403), and the native schema engine that
// avoids the bug cannot be downloaded here. `npm run db:migrate` and the tests' fresh databases both migrate here.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import type { Queryable, SqlValue } from "./database.ts";
import { isPostgresUrl, sqliteFilename } from "./open.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

interface Migration {
  /** The folder's name, e.g. `20261122000000_init`: what `_prisma_migrations.migration_name` holds. */
  name: string;
  script: string;
  checksum: string;
}

/** The migrations folder of the provider a DATABASE_URL names (the folders `prisma.config.ts` gives Prisma). */
export function migrationsFolder(url: string): string {
  if (isPostgresUrl(url)) return path.join(ROOT, "prisma", "postgresql", "migrations");
  if (url.startsWith("file:")) return path.join(ROOT, "prisma", "migrations");
  throw new Error(`DATABASE_URL must start with file: or postgresql:// (got ${url.split(":")[0]}:)`);
}

/** Every `<folder>/<name>/migration.sql`, in name order (Prisma's order). */
function readMigrations(folder: string): Migration[] {
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(folder, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = fs.readFileSync(path.join(folder, name, "migration.sql"));
      return { name, script: bytes.toString("utf8"), checksum: checksum(bytes) };
    });
}

/** Prisma's migration checksum: the sha256 of the migration.sql bytes, 64 lower-case hex digits. */
function checksum(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** What the readiness probe compares: the migrations a database has applied against those this build ships. */
export interface MigrationDrift {
  /** Shipped, not applied (or applied and failed): the database is behind this build. */
  missing: string[];
  /** Applied, not shipped: the database is ahead of this build (or was migrated by another one). */
  extra: string[];
  /** Applied from a migration.sql that differs from the shipped one. */
  modified: string[];
}

/**
 * Compares `_prisma_migrations` (finished rows, not rolled back) with the provider's migrations folder, which is read
 * once per folder. Throws when the table cannot be read (an unmigrated database).
 */
export async function migrationDrift(db: Queryable, url: string): Promise<MigrationDrift> {
  const folder = migrationsFolder(url);
  const shipped = (shippedByFolder[folder] ??= readMigrations(folder));
  const applied = await db.all<{ migration_name: string; checksum: string }>(
    "SELECT migration_name, checksum FROM _prisma_migrations WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL",
  );
  const appliedChecksums = new Map(applied.map((row) => [row.migration_name, row.checksum]));
  const shippedNames = new Set(shipped.map((migration) => migration.name));
  return {
    missing: shipped.filter((migration) => !appliedChecksums.has(migration.name)).map((migration) => migration.name),
    extra: applied.filter((row) => !shippedNames.has(row.migration_name)).map((row) => row.migration_name),
    modified: shipped
      .filter((migration) => appliedChecksums.has(migration.name))
      .filter((migration) => appliedChecksums.get(migration.name) !== migration.checksum)
      .map((migration) => migration.name),
  };
}

const shippedByFolder: Record<string, Migration[]> = {};

interface MigrationRow {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: unknown;
  started_at: unknown;
  logs: string | null;
}

/**
 * Applies the migrations of `folder` that `_prisma_migrations` does not list yet, in order, each in its own
 * transaction; returns their names (none when the database is up to date). Refuses, before applying anything, a
 * database with a failed migration (as `prisma migrate deploy` does) or with an applied migration whose file has
 * changed since (as `prisma migrate dev` does). A migration that fails is rolled back and left as a failed row.
 */
export async function migrate(url: string, folder = migrationsFolder(url)): Promise<string[]> {
  const migrations = readMigrations(folder);
  const connection = isPostgresUrl(url) ? await postgresConnection(url) : sqliteConnection(sqliteFilename(url));
  try {
    await connection.lock();
    await connection.exec(connection.migrationsTableDdl);
    // Rolled-back rows are history only: their migration counts as not applied (Prisma's rule).
    const rows = await connection.query<MigrationRow>(
      "SELECT id, checksum, migration_name, finished_at, started_at, logs FROM _prisma_migrations WHERE rolled_back_at IS NULL",
    );
    refuseFailed(rows);
    refuseModified(rows, migrations);
    const applied = new Set(rows.map((row) => row.migration_name));
    const pending = migrations.filter((migration) => !applied.has(migration.name));
    for (const migration of pending) await apply(connection, migration);
    return pending.map((migration) => migration.name);
  } finally {
    await connection.close();
  }
}

function refuseFailed(rows: MigrationRow[]): void {
  const failed = rows.filter((row) => row.finished_at === null);
  if (failed.length === 0) return;
  const details = failed.map(
    (row) =>
      `- ${row.migration_name} (id ${row.id}, started ${String(row.started_at)})${row.logs ? `:\n${row.logs.trim()}` : ""}`,
  );
  throw new Error(
    `_prisma_migrations lists failed migrations; no migration was applied.\n${details.join("\n")}\n` +
      "Fix its migration.sql (db:migrate rolled the failed migration back; Prisma on SQLite applies without a transaction, " +
      "so undo whatever part of it Prisma applied), then mark the row rolled back " +
      "(`UPDATE _prisma_migrations SET rolled_back_at = CURRENT_TIMESTAMP WHERE id = '<id>'`, or `prisma migrate resolve " +
      "--rolled-back <name>` with a native schema engine) and run db:migrate again.",
  );
}

function refuseModified(rows: MigrationRow[], migrations: Migration[]): void {
  const byName = new Map(migrations.map((migration) => [migration.name, migration]));
  const modified = rows.filter(
    (row) => byName.has(row.migration_name) && byName.get(row.migration_name)!.checksum !== row.checksum,
  );
  if (modified.length === 0) return;
  const details = modified.map(
    (row) =>
      `- ${row.migration_name}: applied with checksum ${row.checksum}, the file's is ${byName.get(row.migration_name)!.checksum}`,
  );
  throw new Error(
    `migrations were modified after they were applied; no migration was applied.\n${details.join("\n")}\n` +
      "Restore the applied migration.sql and put the change in a new migration folder.",
  );
}

/**
 * One transaction holds a migration's script and its row (Prisma's final row: applied_steps_count 1, finished_at set),
 * so a crash can never leave a migration half applied or applied but unrecorded. A failure is rolled back, then
 * recorded as Prisma records one: the row with its logs, no finished_at, applied_steps_count 0.
 */
async function apply(connection: MigrationConnection, migration: Migration): Promise<void> {
  const id = randomUUID();
  const startedAt = timestamp();
  const record = (finishedAt: string | null, logs: string | null) =>
    connection.query(
      "INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [id, migration.checksum, finishedAt, migration.name, logs, startedAt, finishedAt === null ? 0 : 1],
    );
  try {
    await connection.transaction(async () => {
      await connection.exec(migration.script);
      await record(timestamp(), null);
    });
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    const logs = `Migration name: ${migration.name}\n\nDatabase error code: ${code ?? "none"}\n\nDatabase error:\n${message ?? String(error)}`;
    await record(null, logs);
    throw new Error(
      `migration ${migration.name} failed and was rolled back; it is recorded as failed in _prisma_migrations.\n${logs}`,
    );
  }
}

/** UTC with milliseconds and an explicit offset: what Prisma writes into SQLite's DATETIME columns; PostgreSQL parses it. */
function timestamp(): string {
  return new Date().toISOString().replace("Z", "+00:00");
}

/** The little migrating needs from a database; the two providers differ only here. */
interface MigrationConnection {
  /** Prisma's own DDL for the provider's `_prisma_migrations` (schema engine), run only when the table is missing. */
  readonly migrationsTableDdl: string;
  /** Keeps other migrators out until close (PostgreSQL: Prisma's own advisory lock, so ours and Prisma's never run at once). */
  lock(): Promise<void>;
  /** Runs a script of any number of statements. */
  exec(script: string): Promise<void>;
  /** Runs one statement with `?` placeholders. */
  query<T>(sql: string, params?: SqlValue[]): Promise<T[]>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction(work: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

const SQLITE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

const POSTGRES_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

function sqliteConnection(filename: string): MigrationConnection {
  const db = new BetterSqlite3(filename);
  // Foreign keys are off while migrating and checked before each commit: SQLite's documented procedure for schema
  // changes, which Prisma's RedefineTables scripts rely on (their own `PRAGMA foreign_keys=OFF` does nothing inside
  // a transaction, so dropping a referenced table would fail here where Prisma, applying without one, succeeds).
  db.pragma("foreign_keys = OFF");
  db.pragma("busy_timeout = 5000");
  // The journal the store opens the file with (server/store/sqlite.ts): commits append to the WAL without an fsync
  // each, and closing checkpoints it. A fresh test database migrates about as fast as one transaction of every script.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  return {
    migrationsTableDdl: SQLITE_MIGRATIONS_TABLE,
    async lock() {
      // None. Prisma's (`locking_mode=EXCLUSIVE`) would fail db:migrate while a server has the file open; each
      // migration's BEGIN IMMEDIATE still serialises it with the server's writes. Run one migrator at a time.
    },
    async exec(script) {
      db.exec(script);
    },
    async query<T>(sql: string, params: SqlValue[] = []) {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...params) as T[];
      statement.run(...params);
      return [];
    },
    async transaction(work) {
      db.exec("BEGIN IMMEDIATE");
      try {
        await work();
        const violations = db.pragma("foreign_key_check") as { table: string; rowid: number; parent: string }[];
        if (violations.length > 0) {
          const first = violations[0];
          throw Object.assign(
            new Error(
              `FOREIGN KEY constraint failed: ${violations.length} row(s), first ${first.table} rowid ${first.rowid} → ${first.parent}`,
            ),
            {
              code: "SQLITE_CONSTRAINT_FOREIGNKEY",
            },
          );
        }
        db.exec("COMMIT");
      } catch (error) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw error;
      }
    },
    async close() {
      db.close();
    },
  };
}

async function postgresConnection(url: string): Promise<MigrationConnection> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    migrationsTableDdl: POSTGRES_MIGRATIONS_TABLE,
    async lock() {
      // Prisma's advisory lock key; held until this session ends.
      await client.query("SELECT pg_advisory_lock(72707369)");
    },
    async exec(script) {
      // No parameters: the simple query protocol, which runs many statements in one call.
      await client.query(script);
    },
    async query<T>(sql: string, params: SqlValue[] = []) {
      let n = 0;
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows as T[];
    },
    async transaction(work) {
      await client.query("BEGIN");
      try {
        await work();
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    },
    close: () => client.end(),
  };
}
