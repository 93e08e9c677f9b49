// `npm run db:migrate` (scripts/migrate.ts → server/store/migrations.ts) on fresh SQLite and PostgreSQL databases:
// every migration folder applied and recorded in `_prisma_migrations` as Prisma records it, a second run a no-op,
// refusals that change nothing, failures recorded as Prisma records them, and Prisma's own CLI agreeing (SQLite: the
// only provider whose `prisma migrate` works here, see prisma/orm#27403).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrate } from "../../server/store/migrations.ts";
import { openDatabase } from "../../server/store/open.ts";
import {
  COUNTED_TABLES,
  createEmptyDatabase,
  DIALECTS,
  migratedTemplate,
  rowCounts,
  type Dialect,
  type EmptyDatabase,
} from "../support/databases.ts";
import { waitFor } from "../support/wait.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PRISMA_LOCK_KEY = 72707369;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `npm run db:migrate` (the documented command, exactly) against `url`. */
function startDbMigrate(url: string) {
  const child = spawn("npm", ["run", "--silent", "db:migrate"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const done = new Promise<Run>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}
const dbMigrate = (url: string) => startDbMigrate(url).done;

/** Prisma's CLI as `npm test` runs it (schema engine through the driver adapter of prisma.config.ts). */
function prisma(url: string, ...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "prisma", "build", "index.js"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Name and sha256 of every migration.sql of a provider, read here independently of the code under test. */
function migrationFiles(dialect: Dialect): { name: string; checksum: string }[] {
  const folder = path.join(ROOT, "prisma", ...(dialect === "postgres" ? ["postgresql", "migrations"] : ["migrations"]));
  return fs
    .readdirSync(folder)
    .filter((name) => fs.existsSync(path.join(folder, name, "migration.sql")))
    .sort()
    .map((name) => ({
      name,
      checksum: createHash("sha256")
        .update(fs.readFileSync(path.join(folder, name, "migration.sql")))
        .digest("hex"),
    }));
}

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: unknown;
  migration_name: string;
  logs: string | null;
  rolled_back_at: unknown;
  started_at: unknown;
  applied_steps_count: number;
}

async function migrationRows(url: string): Promise<MigrationRow[]> {
  const db = openDatabase(url);
  try {
    return await db.all<MigrationRow>("SELECT * FROM _prisma_migrations ORDER BY migration_name, started_at");
  } finally {
    await db.close();
  }
}

async function withDatabase(
  dialect: Dialect,
  work: (database: EmptyDatabase) => Promise<void>,
  template?: string,
): Promise<void> {
  const database = await createEmptyDatabase(dialect, template);
  try {
    await work(database);
  } finally {
    await database.drop();
  }
}

/** withDatabase on a copy of the template migrate() made for the run (as the first case proves db:migrate makes one). */
const withMigratedDatabase = async (dialect: Dialect, work: (database: EmptyDatabase) => Promise<void>) =>
  withDatabase(dialect, work, await migratedTemplate(dialect));

/** A migrations folder of hand-written fixtures, for what the real folders must never contain. */
async function withMigrationsFolder(
  work: (folder: string, write: (name: string, sql: string) => void) => Promise<void>,
): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pp-migrations-"));
  const write = (name: string, sql: string) => {
    fs.mkdirSync(path.join(folder, name), { recursive: true });
    fs.writeFileSync(path.join(folder, name, "migration.sql"), sql);
  };
  try {
    await work(folder, write);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The `_prisma_migrations` DDL compiled into the installed Prisma schema engine. */
function prismaEngineDdl(dialect: Dialect): string {
  const engine = fs
    .readFileSync(path.join(ROOT, "node_modules", "prisma", "build", "schema_engine_bg.wasm"))
    .toString("latin1");
  const start = engine.indexOf(
    dialect === "sqlite" ? 'CREATE TABLE "_prisma_migrations" (' : "CREATE TABLE _prisma_migrations (",
  );
  assert.ok(start >= 0, "the schema engine's _prisma_migrations DDL was not found");
  return engine.slice(start, engine.indexOf(");", start) + 2);
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// Every case has a database of its own and waits on child processes and PostgreSQL: they all run at once.
describe.concurrent.each(DIALECTS)("npm run db:migrate (%s)", (dialect) => {
  it("migrates a fresh database, records every migration as Prisma does, and a second run is a no-op", () =>
    withDatabase(dialect, async ({ url }) => {
      const files = migrationFiles(dialect);
      const first = await dbMigrate(url);
      assert.equal(first.code, 0, first.stderr);
      for (const { name } of files) assert.match(first.stdout, new RegExp(`^  ${name}$`, "m"));

      const rows = await migrationRows(url);
      assert.deepEqual(
        rows.map(({ migration_name, checksum, applied_steps_count, logs, rolled_back_at }) => ({
          migration_name,
          checksum,
          applied_steps_count,
          logs,
          rolled_back_at,
        })),
        files.map(({ name, checksum }) => ({
          migration_name: name,
          checksum,
          applied_steps_count: 1,
          logs: null,
          rolled_back_at: null,
        })),
      );
      for (const row of rows) {
        assert.match(row.id, UUID_V4);
        assert.ok(row.started_at !== null && row.finished_at !== null, `${row.migration_name} has both timestamps`);
      }
      const db = openDatabase(url);
      try {
        assert.deepEqual(
          Object.values(await rowCounts(db)),
          COUNTED_TABLES.map(() => 0),
          "every domain table exists",
        );
      } finally {
        await db.close();
      }

      const second = await dbMigrate(url);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /up to date/);
      assert.deepEqual(await migrationRows(url), rows);
    }));

  it("creates _prisma_migrations with the DDL of the installed Prisma schema engine", () =>
    withMigratedDatabase(dialect, async ({ url }) => {
      if (dialect === "sqlite") {
        const db = openDatabase(url);
        const table = await db.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = '_prisma_migrations'");
        await db.close();
        assert.equal(`${table!.sql};`, prismaEngineDdl("sqlite"));
        return;
      }
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query("CREATE SCHEMA prisma_reference");
        await client.query(`SET search_path TO prisma_reference; ${prismaEngineDdl("postgres")}`);
        const catalog = async (schema: string) =>
          (
            await client.query(
              `SELECT c.column_name, c.ordinal_position, c.data_type, c.character_maximum_length, c.is_nullable, c.column_default,
                      (SELECT count(*) FROM information_schema.key_column_usage k WHERE k.table_schema = c.table_schema
                         AND k.table_name = c.table_name AND k.column_name = c.column_name)::int AS in_key
                 FROM information_schema.columns c
                WHERE c.table_schema = $1 AND c.table_name = '_prisma_migrations' ORDER BY c.ordinal_position`,
              [schema],
            )
          ).rows;
        const ours = await catalog("public");
        assert.equal(ours.length, 8);
        assert.deepEqual(ours, await catalog("prisma_reference"));
      } finally {
        await client.end();
      }
    }));

  it("refuses an applied migration whose file changed, exits non-zero and applies nothing", () =>
    withMigratedDatabase(dialect, async ({ url }) => {
      const [first, ...others] = migrationFiles(dialect);
      const db = openDatabase(url);
      // The first migration was applied from another file; the last one is pending again.
      await db.run("UPDATE _prisma_migrations SET checksum = ? WHERE migration_name = ?", ["0".repeat(64), first.name]);
      await db.run("DELETE FROM _prisma_migrations WHERE migration_name = ?", [others.at(-1)!.name]);
      await db.close();
      const before = await migrationRows(url);

      const refused = await dbMigrate(url);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        new RegExp(
          `modified after they were applied[\\s\\S]*${first.name}: applied with checksum 0{64}, the file's is ${first.checksum}`,
        ),
      );
      assert.deepEqual(await migrationRows(url), before);
    }));

  it("rolls a failing migration back, records it as failed as Prisma does, and refuses to go on until it is resolved", () =>
    withDatabase(dialect, ({ url }) =>
      withMigrationsFolder(async (folder, write) => {
        write("0001_ok", "CREATE TABLE ok_table (id INTEGER PRIMARY KEY);\n");
        write(
          "0002_broken",
          "CREATE TABLE half_table (id INTEGER PRIMARY KEY);\nINSERT INTO missing_table VALUES (1);\n",
        );
        await assert.rejects(
          migrate(url, folder),
          /migration 0002_broken failed and was rolled back[\s\S]*missing_table/,
        );

        const db = openDatabase(url);
        const tables = async () =>
          (
            await db.all<{ n: string }>(
              dialect === "sqlite"
                ? "SELECT name AS n FROM sqlite_master WHERE type = 'table' AND name LIKE '%_table'"
                : "SELECT tablename AS n FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE '%_table'",
            )
          )
            .map((row) => row.n)
            .sort();
        assert.deepEqual(await tables(), ["ok_table"], "the failed migration's first statement was rolled back");
        const failed = (await migrationRows(url)).find((row) => row.migration_name === "0002_broken")!;
        assert.equal(failed.finished_at, null);
        assert.equal(failed.rolled_back_at, null);
        assert.equal(failed.applied_steps_count, 0);
        assert.match(
          failed.logs!,
          /^Migration name: 0002_broken\n\nDatabase error code: \S+\n\nDatabase error:\n.*missing_table/,
        );

        const rows = await migrationRows(url);
        await assert.rejects(
          migrate(url, folder),
          /lists failed migrations; no migration was applied[\s\S]*0002_broken/,
        );
        assert.deepEqual(await migrationRows(url), rows);

        // Resolved as the refusal says: fix the file, mark the failed row rolled back.
        write("0002_broken", "CREATE TABLE half_table (id INTEGER PRIMARY KEY);\n");
        await db.run("UPDATE _prisma_migrations SET rolled_back_at = CURRENT_TIMESTAMP WHERE id = ?", [failed.id]);
        assert.deepEqual(await migrate(url, folder), ["0002_broken"]);
        assert.deepEqual(await tables(), ["half_table", "ok_table"]);
        assert.deepEqual(
          (await migrationRows(url)).map((row) => [
            row.migration_name,
            row.finished_at !== null,
            row.rolled_back_at !== null,
          ]),
          [
            ["0001_ok", true, false],
            ["0002_broken", false, true],
            ["0002_broken", true, false],
          ],
        );
        await db.close();
      }),
    ));
});

describe.concurrent("npm run db:migrate and Prisma's CLI (sqlite)", () => {
  it("agree: Prisma finds nothing to apply after db:migrate, db:migrate finds nothing after Prisma, and the rows match", () =>
    withDatabase("sqlite", ({ url: ours }) =>
      withDatabase("sqlite", async ({ url: prismas }) => {
        // The two databases' runs, one after the other on each, both at once.
        const prismaAfterOurs = async () => {
          assert.equal((await dbMigrate(ours)).code, 0);
          const status = await prisma(ours, "migrate", "status");
          assert.equal(status.code, 0, status.stdout + status.stderr);
          assert.match(status.stdout, /Database schema is up to date!/);
          assert.match((await prisma(ours, "migrate", "deploy")).stdout, /No pending migrations to apply/);
        };
        const oursAfterPrisma = async () => {
          const deployed = await prisma(prismas, "migrate", "deploy");
          assert.equal(deployed.code, 0, deployed.stdout + deployed.stderr);
          assert.match((await dbMigrate(prismas)).stdout, /up to date/);
        };
        await Promise.all([prismaAfterOurs(), oursAfterPrisma()]);

        // Same values where Prisma's are deterministic, same storage format where they are not.
        const shape = (row: MigrationRow) => ({
          ...row,
          id: UUID_V4.test(row.id),
          started_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/.test(String(row.started_at)),
          finished_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/.test(String(row.finished_at)),
        });
        assert.deepEqual((await migrationRows(ours)).map(shape), (await migrationRows(prismas)).map(shape));
      }),
    ));
});

describe.concurrent("db:migrate and other migrators", () => {
  it("waits while another migrator holds Prisma's advisory lock (postgres)", () =>
    withDatabase("postgres", async ({ url }) => {
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query("SELECT pg_advisory_lock($1)", [PRISMA_LOCK_KEY]);
        const run = startDbMigrate(url);
        let exited = false;
        run.child.on("exit", () => (exited = true));
        const waiting = () =>
          holder.query(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            [PRISMA_LOCK_KEY],
          );
        await waitFor(
          async () => {
            if (exited) assert.fail(`db:migrate finished without waiting for the lock: ${(await run.done).stdout}`);
            return (await waiting()).rowCount !== 0;
          },
          // npm's and node's start, slow while the other cases start theirs.
          { timeoutMs: 60_000, what: "db:migrate to wait for the advisory lock" },
        );
        assert.equal(
          (await holder.query("SELECT to_regclass('_prisma_migrations') AS t")).rows[0].t,
          null,
          "nothing done before the lock",
        );

        await holder.query("SELECT pg_advisory_unlock($1)", [PRISMA_LOCK_KEY]);
        const result = await run.done;
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(
          (await migrationRows(url)).map((row) => row.migration_name),
          migrationFiles("postgres").map((file) => file.name),
        );
      } finally {
        await holder.end();
      }
    }));

  it("runs Prisma's SQLite RedefineTables scripts on referenced tables and refuses one that breaks a foreign key", () =>
    withDatabase("sqlite", ({ url }) =>
      withMigrationsFolder(async (folder, write) => {
        write(
          "0001_parent_child",
          `CREATE TABLE "parent" ("id" INTEGER NOT NULL PRIMARY KEY, "name" TEXT);
CREATE TABLE "child" ("id" INTEGER NOT NULL PRIMARY KEY, "parent_id" INTEGER NOT NULL REFERENCES "parent" ("id"));
INSERT INTO "parent" VALUES (1, 'a');
INSERT INTO "child" VALUES (1, 1);
`,
        );
        // What `prisma migrate diff` writes for a changed column on SQLite.
        write(
          "0002_redefine_parent",
          `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_parent" ("id" INTEGER NOT NULL PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '');
INSERT INTO "new_parent" ("id", "name") SELECT "id", coalesce("name", '') FROM "parent";
DROP TABLE "parent";
ALTER TABLE "new_parent" RENAME TO "parent";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`,
        );
        assert.deepEqual(await migrate(url, folder), ["0001_parent_child", "0002_redefine_parent"]);

        write("0003_orphan_child", `DELETE FROM "parent";\n`);
        await assert.rejects(
          migrate(url, folder),
          /0003_orphan_child failed[\s\S]*FOREIGN KEY constraint failed: 1 row\(s\), first child rowid 1 → parent/,
        );
        const db = openDatabase(url);
        assert.deepEqual(await db.all("SELECT id, name FROM parent"), [{ id: 1, name: "a" }]);
        await db.close();
      }),
    ));
});
