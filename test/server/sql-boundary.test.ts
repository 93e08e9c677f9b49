// SQL lives in the repository modules only (README.md "Repository"): server/store for the core's tables, and
// app/shopify/store for the Shopify app's own tables (shop_installations, shopify_jobs, shopify_orders, …), which the
// app owns and the core never reads, so their SQL stays with the app's code rather than behind the core's facade. No
// other source file of the server, the app, the packages or the scripts holds SQL statement text in a string or
// template literal, or reads a database handle's `.dialect`.
// Files are parsed with the TypeScript compiler, so comments and prose outside literals never count. SQL is
// recognised by its upper-case keywords, the way every statement in this repository is written: a sentence such as
// "Select a plan from the list" in a UI string is not a statement.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PACKAGE_SOURCES = fs.readdirSync(path.join(ROOT, "packages")).map((name) => path.join("packages", name, "src"));
const SCANNED = ["server", "app", "scripts", ...PACKAGE_SOURCES];
const EXEMPT = [path.join("server", "store") + path.sep, path.join("app", "shopify", "store") + path.sep];
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs|jsx)$/;
const TEST_FILE = /\.test\.(ts|tsx)$/;

/** Statement shapes; a template literal's substitutions read as a name (`UPDATE ${table} SET`). */
const SQL_STATEMENTS: [RegExp, string][] = [
  [/^\s*(SELECT|WITH)\b/, "a statement"],
  [/\bSELECT\b[\s\S]*\bFROM\b/, "SELECT … FROM"],
  [/\bINSERT\s+INTO\b/, "INSERT INTO"],
  [/\bUPDATE\s+\S+\s+SET\b/, "UPDATE … SET"],
  [/\bDELETE\s+FROM\b/, "DELETE FROM"],
  [/\bON\s+CONFLICT\b/, "ON CONFLICT"],
  [/\bFOR\s+UPDATE\b/, "FOR UPDATE"],
  [/\b(CREATE|ALTER|DROP)\s+(UNIQUE\s+)?(TABLE|INDEX|DATABASE|SCHEMA|VIEW|TRIGGER|TYPE)\b/, "DDL"],
];

export interface Violation {
  line: number;
  what: string;
}

/** The SQL literals and `.dialect` reads of one source text. */
export function sqlViolations(fileName: string, text: string): Violation[] {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const violations: Violation[] = [];
  const report = (node: ts.Node, what: string) =>
    violations.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
  const visit = (node: ts.Node): void => {
    const literal = literalText(node);
    if (literal !== undefined) {
      const match = SQL_STATEMENTS.find(([pattern]) => pattern.test(literal));
      if (match) report(node, `SQL (${match[1]}): ${JSON.stringify(literal.trim().replace(/\s+/g, " ").slice(0, 60))}`);
      if (ts.isTemplateExpression(node)) return; // its spans' literals are part of the text just checked
    }
    if (readsDialect(node)) report(node, "reads .dialect");
    ts.forEachChild(node, visit);
  };
  visit(source);
  return violations;
}

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((span) => ` name ${span.literal.text}`).join("");
  return undefined;
}

function readsDialect(node: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(node)) return node.name.text === "dialect";
  if (ts.isElementAccessExpression(node))
    return ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === "dialect";
  // const { dialect } = db
  if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
    const property = node.propertyName ?? node.name;
    return ts.isIdentifier(property) && property.text === "dialect";
  }
  return false;
}

function sourceFiles(dir: string): string[] {
  const absolute = path.join(ROOT, dir);
  if (!fs.existsSync(absolute)) return [];
  return fs.readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || EXEMPT.includes(relative + path.sep) ? [] : sourceFiles(relative);
    return SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name) ? [relative] : [];
  });
}

describe("the SQL boundary", () => {
  it("recognises statements and dialect reads in literals only", () => {
    const found = sqlViolations(
      "sample.ts",
      [
        "// select a plan from the list; DELETE FROM in a comment does not count",
        'const a = "Select a plan from the list";',
        'const b = tx.all("SELECT id FROM plans WHERE id = ?");',
        "const c = `UPDATE ${table} SET locked_until = ?`;",
        "const d = `INSERT INTO t (id) VALUES (?) ON CONFLICT (id) DO NOTHING`;",
        "const e = db.dialect === 'postgres';",
        "const { dialect } = db;",
        'const f = "SELECT pg_advisory_xact_lock(1)";',
        "/* CREATE TABLE x (id TEXT) */ const g = 'Update your settings';",
        "const h = `CREATE UNIQUE INDEX i ON t (c)`;",
      ].join("\n"),
    );
    assert.deepEqual(
      found.map((violation) => violation.line),
      [3, 4, 5, 6, 7, 8, 10],
    );
  });

  it("holds: SQL text and dialect checks appear only in server/store and app/shopify/store", () => {
    const files = SCANNED.flatMap(sourceFiles);
    assert.ok(files.length > 100, `found only ${files.length} source files to check`);
    const violations = files.flatMap((file) =>
      sqlViolations(file, fs.readFileSync(path.join(ROOT, file), "utf8")).map(
        (violation) => `${file}:${violation.line}: ${violation.what}`,
      ),
    );
    assert.deepEqual(
      violations,
      [],
      `SQL belongs in a repository module under server/store (app/shopify/store for the Shopify app's tables):\n${violations.join("\n")}`,
    );
  });
});
