import path from "node:path";
import type { Database } from "./database.ts";
import { openPostgres } from "./postgres.ts";
import { openSqlite } from "./sqlite.ts";

export const DEFAULT_DATABASE_URL = "file:./prisma/dev.sqlite";

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** Opens the database named by a DATABASE_URL: `file:<path>` (SQLite) or `postgres(ql)://…`. */
export function openDatabase(url: string = DEFAULT_DATABASE_URL): Database {
  if (isPostgresUrl(url)) return openPostgres(url);
  if (url.startsWith("file:")) return openSqlite(sqliteFilename(url));
  throw new Error(`DATABASE_URL must start with file: or postgresql:// (got ${url.split(":")[0]}:)`);
}

/** Prisma resolves relative SQLite paths against the working directory when a driver adapter is used; so do we. */
export function sqliteFilename(url: string): string {
  const filename = url.slice("file:".length).split("?")[0];
  return filename === ":memory:" ? filename : path.resolve(filename);
}
