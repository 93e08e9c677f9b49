// The layers of the code (README.md "Repository"): the vocabulary floor (server/vocabulary: ids, modes, actors, pages,
// money, each area's statuses and records) imports nothing above it; server/store imports only the floor, its own
// modules and the packages, never server/domain; and no module of server/, app/ or packages/ imports itself through
// others, type-only imports included: a cycle makes load order matter and two modules one.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { importCycles, importGraph } from "../support/import-graph.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PACKAGE_SOURCES = fs.readdirSync(path.join(ROOT, "packages")).map((name) => path.join("packages", name, "src"));
const graph = importGraph(ROOT, ["server", "app", ...PACKAGE_SOURCES]);

const within = (file: string, ...dirs: string[]) =>
  dirs.some((dir) => file.startsWith(path.join(...dir.split("/")) + path.sep));

/** The imports of the files under `dir` that land outside `allowed`, as "file → target". */
const importsOutside = (dir: string, allowed: string[]) =>
  graph.files
    .filter((file) => within(file, dir))
    .flatMap((file) =>
      graph.imports
        .get(file)!
        .filter((target) => !within(target, ...allowed))
        .map((target) => `${file} → ${target}`),
    );

describe("import layers", () => {
  it("finds a cycle made of type-only imports, and reads the packages by name", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-layers-"));
    try {
      fs.writeFileSync(path.join(dir, "a.ts"), 'import type { B } from "./b.ts";\nexport type A = { b?: B };\n');
      fs.writeFileSync(path.join(dir, "b.ts"), 'export type { A as B } from "./c.ts";\n');
      fs.writeFileSync(path.join(dir, "c.ts"), 'export type { A } from "./a.ts";\n');
      fs.writeFileSync(path.join(dir, "d.ts"), 'import "./a.ts";\nexport const d = () => import("./d.ts");\n');
      assert.deepEqual(importCycles(importGraph(dir, ["."])), [
        ["a.ts", "b.ts", "c.ts", "a.ts"],
        ["d.ts", "d.ts"],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.ok(graph.files.length > 300, `found only ${graph.files.length} source files`);
    assert.ok(
      graph.imports
        .get(path.join("server", "domain", "rulebook-text.ts"))!
        .includes(path.join("packages", "contract", "src", "index.ts")),
      "@purchase-protection/contract resolves to its source",
    );
  });

  it("no import cycle in server/, app/ or packages/", () => {
    assert.deepEqual(
      importCycles(graph).map((cycle) => cycle.join(" → ")),
      [],
    );
  });

  it("server/store imports only its own modules, the vocabulary floor and the packages", () => {
    assert.deepEqual(importsOutside("server/store", ["server/store", "server/vocabulary", "packages"]), []);
  });

  it("the vocabulary floor imports nothing above it", () => {
    assert.deepEqual(importsOutside("server/vocabulary", ["server/vocabulary", "packages/contract"]), []);
  });
});
