// A migration's own test: the provider's migrations up to a point copied into a scratch folder, so a test can build a
// database as it was before the migration, fill it, then run the migration on it.
import fs from "node:fs";
import path from "node:path";
import type { Dialect } from "./databases.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Copies the provider's migrations up to `last` (included) into `folder`. */
export function copyMigrations(dialect: Dialect, folder: string, last: string): void {
  const source = path.join(ROOT, "prisma", ...(dialect === "postgres" ? ["postgresql", "migrations"] : ["migrations"]));
  for (const name of fs.readdirSync(source).sort()) {
    if (name > last || !fs.existsSync(path.join(source, name, "migration.sql"))) continue;
    fs.mkdirSync(path.join(folder, name), { recursive: true });
    fs.copyFileSync(path.join(source, name, "migration.sql"), path.join(folder, name, "migration.sql"));
  }
}
