// npm run db:schemas [-- --check]: writes prisma/postgresql/schema.prisma from prisma/schema.prisma (the source of
// truth, SQLite). The copy differs only in its header line and the datasource provider. With --check nothing is
// written: exits 1 when the committed copy is not what this script would write.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
export const SOURCE_SCHEMA = path.join(ROOT, "prisma", "schema.prisma");
export const POSTGRES_SCHEMA = path.join(ROOT, "prisma", "postgresql", "schema.prisma");

const SOURCE_HEADER =
  "// prisma/postgresql/schema.prisma is generated from this file (npm run db:schemas); never edit it by hand.";
const GENERATED_HEADER =
  "// GENERATED from prisma/schema.prisma by scripts/prisma-schemas.ts (npm run db:schemas). Do not edit.";
const SQLITE_PROVIDER = /^(\s*provider\s*=\s*)"sqlite"/m;
const CLIENT_GENERATOR = /^(generator client \{)/m;
/**
 * The PostgreSQL Prisma client is generated beside the default (SQLite) one, so one install serves either database:
 * app/db.server.ts loads the client that matches DATABASE_URL. Relative to prisma/postgresql/.
 */
const POSTGRES_CLIENT_OUTPUT = "../../node_modules/.prisma/client-postgresql";

/** The PostgreSQL schema text for a given SQLite schema text. Throws when the source lacks a marker it relies on. */
export function postgresSchemaFrom(source: string): string {
  if (source.split(SOURCE_HEADER).length !== 2) {
    throw new Error(`prisma/schema.prisma must contain this header line exactly once:\n  ${SOURCE_HEADER}`);
  }
  if (!SQLITE_PROVIDER.test(source)) throw new Error('prisma/schema.prisma has no datasource with provider = "sqlite"');
  if (!CLIENT_GENERATOR.test(source)) throw new Error("prisma/schema.prisma has no `generator client {` block");
  return source
    .replace(SOURCE_HEADER, GENERATED_HEADER)
    .replace(SQLITE_PROVIDER, '$1"postgresql"')
    .replace(CLIENT_GENERATOR, `$1\n  output     = "${POSTGRES_CLIENT_OUTPUT}"`);
}

/** A line for a message; the empty string after a file's final newline is its end. */
function describeLine(lines: string[], index: number): string {
  const atEnd = index >= lines.length || (index === lines.length - 1 && lines[index] === "");
  return atEnd ? "<end of file>" : JSON.stringify(lines[index]);
}

/** null when prisma/postgresql/schema.prisma is up to date, else a message saying what to do. */
export function checkPostgresSchema(): string | null {
  const expected = postgresSchemaFrom(fs.readFileSync(SOURCE_SCHEMA, "utf8"));
  const actual = fs.existsSync(POSTGRES_SCHEMA) ? fs.readFileSync(POSTGRES_SCHEMA, "utf8") : null;
  if (actual === expected) return null;
  if (actual === null) return "prisma/postgresql/schema.prisma is missing: run `npm run db:schemas`.";
  const expectedLines = expected.split("\n");
  const actualLines = actual.split("\n");
  let line = 0;
  while (line < expectedLines.length && expectedLines[line] === actualLines[line]) line++;
  return (
    "prisma/postgresql/schema.prisma is out of date with prisma/schema.prisma: run `npm run db:schemas` " +
    "(edit only prisma/schema.prisma).\n" +
    `  first difference at line ${line + 1}:\n` +
    `    expected: ${describeLine(expectedLines, line)}\n` +
    `    found:    ${describeLine(actualLines, line)}`
  );
}

if (import.meta.main) {
  try {
    if (process.argv.includes("--check")) {
      const problem = checkPostgresSchema();
      if (problem) {
        console.error(problem);
        process.exit(1);
      }
      console.log("prisma/postgresql/schema.prisma is up to date");
    } else {
      fs.mkdirSync(path.dirname(POSTGRES_SCHEMA), { recursive: true });
      fs.writeFileSync(POSTGRES_SCHEMA, postgresSchemaFrom(fs.readFileSync(SOURCE_SCHEMA, "utf8")));
      console.log("wrote prisma/postgresql/schema.prisma");
    }
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
