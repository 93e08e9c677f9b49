// npm run db:check-drift: proves that each provider's migrations folder builds exactly the database its schema
// describes. Prisma's own `migrate diff --from-migrations` needs a shadow database and the native schema engine,
// which driver-adapter mode lacks; so, per provider, this builds database A from the migration.sql files in order
// and database B from `prisma migrate diff --from-empty --to-schema-datamodel` (works offline), then compares their
// catalogs. Also checks that prisma/postgresql/schema.prisma is the generated copy of prisma/schema.prisma.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { checkPostgresSchema, POSTGRES_SCHEMA, SOURCE_SCHEMA } from "./prisma-schemas.ts";
import {
  createPostgresDatabase,
  dropPostgresDatabase,
  postgresCatalog,
  sqliteCatalog,
  type Catalog,
} from "../server/store/schema-catalog.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const PRISMA_CLI = path.join(ROOT, "node_modules", "prisma", "build", "index.js");
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const execFileAsync = promisify(execFile);
const IGNORED_TABLES = new Set(["_prisma_migrations"]);
/** Scratch folder for the SQLite files (removed on exit); Prisma's CLI opens the file its DATABASE_URL names. */
const WORK_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "pp-drift-"));

interface Provider {
  name: "sqlite" | "postgresql";
  schema: string;
  migrations: string;
  /** DATABASE_URL for the Prisma CLI, so that prisma.config.ts picks this provider. */
  prismaUrl: string;
  /** Builds two empty databases, runs `work` with their catalog readers, removes them. */
  withDatabases(work: (a: Target, b: Target) => Promise<void>): Promise<void>;
}

interface Target {
  apply(sql: string): Promise<void>;
  catalog(): Promise<Catalog>;
}

function migrationFiles(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => path.join(folder, name, "migration.sql"))
    .filter((file) => fs.existsSync(file));
}

async function schemaScript(provider: Provider): Promise<string> {
  const args = [PRISMA_CLI, "migrate", "diff", "--from-empty", "--to-schema-datamodel", provider.schema, "--script"];
  const env = { ...process.env, DATABASE_URL: provider.prismaUrl };
  try {
    return (
      await execFileAsync(process.execPath, args, { cwd: ROOT, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
    ).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `prisma migrate diff failed for ${path.relative(ROOT, provider.schema)}:\n${stderr ?? ""}${stdout ?? ""}`,
    );
  }
}

// ---- SQLite ----

function sqliteTarget(file: string): Target & { close(): void } {
  const db = new BetterSqlite3(file);
  return {
    apply: async (sql) => void db.exec(sql),
    catalog: async () => sqliteCatalog(db, IGNORED_TABLES),
    close: () => db.close(),
  };
}

const sqlite: Provider = {
  name: "sqlite",
  schema: SOURCE_SCHEMA,
  migrations: path.join(ROOT, "prisma", "migrations"),
  prismaUrl: `file:${path.join(WORK_DIR, "prisma-cli.sqlite")}`,
  async withDatabases(work) {
    const a = sqliteTarget(path.join(WORK_DIR, "migrations.sqlite"));
    const b = sqliteTarget(path.join(WORK_DIR, "schema.sqlite"));
    try {
      await work(a, b);
    } finally {
      a.close();
      b.close();
    }
  },
};

// ---- PostgreSQL ----

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const postgresql: Provider = {
  name: "postgresql",
  schema: POSTGRES_SCHEMA,
  migrations: path.join(ROOT, "prisma", "postgresql", "migrations"),
  prismaUrl: POSTGRES_ADMIN_URL,
  async withDatabases(work) {
    const suffix = randomBytes(6).toString("hex");
    const names = [`pp_drift_${suffix}_migrations`, `pp_drift_${suffix}_schema`];
    const urls = names.map((name) => POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`));
    await withClient(POSTGRES_ADMIN_URL, async (admin) => {
      for (const name of names) await createPostgresDatabase(admin, name);
    });
    try {
      const [clientA, clientB] = [
        new pg.Client({ connectionString: urls[0] }),
        new pg.Client({ connectionString: urls[1] }),
      ];
      await clientA.connect();
      await clientB.connect();
      try {
        const target = (client: pg.Client): Target => ({
          apply: async (sql) => void (await client.query(sql)),
          catalog: () => postgresCatalog(client, IGNORED_TABLES),
        });
        await work(target(clientA), target(clientB));
      } finally {
        await clientA.end();
        await clientB.end();
      }
    } finally {
      await withClient(POSTGRES_ADMIN_URL, async (admin) => {
        for (const name of names) await dropPostgresDatabase(admin, name);
      });
    }
  },
};

// ---- comparison ----

function compare(fromMigrations: Catalog, fromSchema: Catalog): string[] {
  const differences: string[] = [];
  for (const key of [...new Set([...fromMigrations.keys(), ...fromSchema.keys()])].sort()) {
    const a = fromMigrations.get(key);
    const b = fromSchema.get(key);
    if (a === b) continue;
    if (a === undefined) differences.push(`${key}: in the schema but not created by the migrations (${b})`);
    else if (b === undefined) differences.push(`${key}: created by the migrations but not in the schema (${a})`);
    else differences.push(`${key}: migrations give ${a}; schema gives ${b}`);
  }
  return differences;
}

function checkLockFile(provider: Provider): string[] {
  const lock = path.join(provider.migrations, "migration_lock.toml");
  if (!fs.existsSync(lock)) return [`${path.relative(ROOT, lock)} is missing`];
  return fs.readFileSync(lock, "utf8").includes(`provider = "${provider.name}"`)
    ? []
    : [`${path.relative(ROOT, lock)} does not say provider = "${provider.name}"`];
}

async function checkProvider(provider: Provider): Promise<string[]> {
  const files = migrationFiles(provider.migrations);
  const script = await schemaScript(provider);
  const differences = checkLockFile(provider);
  await provider.withDatabases(async (a, b) => {
    for (const file of files) {
      try {
        await a.apply(fs.readFileSync(file, "utf8"));
      } catch (error) {
        throw new Error(`${path.relative(ROOT, file)} failed to apply: ${(error as Error).message}`);
      }
    }
    await b.apply(script);
    differences.push(...compare(await a.catalog(), await b.catalog()));
  });
  return differences;
}

async function main(): Promise<number> {
  let failed = false;
  const schemaProblem = checkPostgresSchema();
  if (schemaProblem) {
    console.error(schemaProblem);
    failed = true;
  }
  // The two providers are independent: checked concurrently (each spends most of its time in the Prisma CLI).
  const providers = [sqlite, postgresql];
  const results = await Promise.all(
    providers.map((provider) => checkProvider(provider).catch((error: Error) => [error.message])),
  );
  providers.forEach((provider, i) => {
    if (results[i].length === 0) return;
    failed = true;
    console.error(
      `${provider.name}: ${path.relative(ROOT, provider.migrations)} does not match ${path.relative(ROOT, provider.schema)}:`,
    );
    for (const difference of results[i]) console.error(`  - ${difference}`);
  });
  if (results.some((differences) => differences.length > 0)) {
    console.error(
      "Edit only prisma/schema.prisma, run `npm run db:schemas`, then add a migration for the change to BOTH " +
        "prisma/migrations and prisma/postgresql/migrations (`prisma migrate diff --from-schema-datamodel <old> " +
        "--to-schema-datamodel <new> --script` writes its SQL).",
    );
  }
  if (failed) return 1;
  console.log("migrations match the schema (sqlite, postgresql)");
  return 0;
}

try {
  process.exitCode = await main();
} finally {
  fs.rmSync(WORK_DIR, { recursive: true, force: true });
}
