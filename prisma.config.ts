// Prisma runs fully offline through driver adapters (no binary engines). The DATABASE_URL scheme picks the
// provider: file: → SQLite (embedded default), postgres(ql): → PostgreSQL. Each provider has its own schema
// copy and migrations folder.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

const databaseUrl = process.env.DATABASE_URL ?? "file:./prisma/dev.sqlite";
process.env.DATABASE_URL = databaseUrl;
const isPostgres = /^postgres(ql)?:/.test(databaseUrl);

// allowExitOnIdle: without it the CLI (migrate deploy/diff) waits ~10 s for the idle pool before exiting.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: isPostgres ? path.join("prisma", "postgresql", "schema.prisma") : path.join("prisma", "schema.prisma"),
  migrations: {
    path: isPostgres ? path.join("prisma", "postgresql", "migrations") : path.join("prisma", "migrations"),
  },
  adapter: async () =>
    isPostgres
      ? new PrismaPg({ connectionString: databaseUrl, allowExitOnIdle: true })
      : new PrismaBetterSQLite3({ url: databaseUrl }),
});
