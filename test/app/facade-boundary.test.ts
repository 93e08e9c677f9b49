// The app reaches the core only through its facade (server/index.ts), and the core knows nothing of the app: no
// Remix, no Shopify, no app/ module in server/.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FACADE = path.join(ROOT, "server", "index.ts");

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every module specifier of static imports and re-exports, and of dynamic import() calls. */
function specifiers(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((match) => match[1]);
}

const relative = (file: string) => path.relative(ROOT, file);

describe("the core's facade", () => {
  it("app/ imports from server/ only server/index.ts", () => {
    const deep = sourceFiles(path.join(ROOT, "app")).flatMap((file) =>
      specifiers(file)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => path.resolve(path.dirname(file), specifier))
        .filter((target) => target.startsWith(path.join(ROOT, "server") + path.sep) && target !== FACADE)
        .map((target) => `${relative(file)} → ${relative(target)}`),
    );
    assert.deepEqual(deep, []);
  });

  // The pages call use cases that own their transaction (server/core/); the Shopify app's jobs and webhooks call units of
  // work that own theirs, beside the app's tables (app/shopify/store/): nothing else in app/ opens one.
  it("app/ opens no transaction outside app/shopify/store/", () => {
    const opening = sourceFiles(path.join(ROOT, "app"))
      .map(relative)
      .filter((file) => !file.startsWith("app/shopify/store/"))
      .filter((file) => /\btransaction\(/.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    assert.deepEqual(opening, []);
  });

  // The facade exports use cases and types, not tables: the Shopify app's tables are its own (app/shopify/store/), written
  // with the database's types and helpers (and the work table's lease) the facade gives it.
  it("the facade re-exports from server/store/ only the database's opening, types and helpers and erasure, no table module", () => {
    const allowed = /^\.\/store\/(open|migrations|database|work-table|erasure)\.ts$/;
    const storeExports = specifiers(FACADE).filter((specifier) => specifier.startsWith("./store/"));
    assert.deepEqual(
      storeExports.filter((specifier) => !allowed.test(specifier)),
      [],
    );
  });

  it("server/ imports nothing from Remix, Shopify or app/", () => {
    const foreign = sourceFiles(path.join(ROOT, "server")).flatMap((file) =>
      specifiers(file)
        .filter(
          (specifier) =>
            /^@(remix-run|shopify)\//.test(specifier) ||
            path.resolve(path.dirname(file), specifier).startsWith(path.join(ROOT, "app") + path.sep),
        )
        .map((specifier) => `${relative(file)} → ${specifier}`),
    );
    assert.deepEqual(foreign, []);
  });
});
