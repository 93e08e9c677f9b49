// npm run db:migrate: applies the pending Prisma migrations of DATABASE_URL's provider (default: the embedded SQLite
// file) and records them in `_prisma_migrations` as Prisma does. Not `prisma migrate deploy`, which fails on
// PostgreSQL through the pg driver adapter (prisma/orm#27403): see server/store/migrations.ts.
import path from "node:path";
import { DEFAULT_DATABASE_URL, migrate, migrationsFolder } from "../server/index.ts";

const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
try {
  const folder = path.relative(process.cwd(), migrationsFolder(url));
  const applied = await migrate(url);
  if (applied.length === 0)
    console.log(`Database is up to date: every migration in ${folder} is applied. Nothing to do.`);
  else
    console.log(
      `Applied ${applied.length} migration(s) from ${folder}:\n${applied.map((name) => `  ${name}`).join("\n")}`,
    );
} catch (error) {
  console.error(`db:migrate failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
