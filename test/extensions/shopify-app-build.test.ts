// `npm test` runs `shopify app build` on the repository and fails on a problem it reports (scripts/test.ts). The
// CLI exits 0 on theme check offenses and bundler warnings, so the step reads its output: here, on a copy of the app
// with one of each planted, the same command exits 0 and buildProblems finds both. That the build reports nothing on
// the repository and writes each UI extension's shopify.d.ts exactly as committed is the step's own check
// (typesRewritten), on the build it runs anyway; below, that check names a changed file and passes unchanged ones.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  buildProblems,
  readTypeFiles,
  SHOPIFY_APP_BUILD_ARGS,
  SHOPIFY_APP_BUILD_ENV,
  SHOPIFY_CLI,
  SHOPIFY_TYPE_FILES,
  typesRewritten,
} from "../../scripts/shopify-app-build.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The app as the CLI reads it, without build outputs; node_modules linked. */
function copyApp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-shopify-build-"));
  for (const file of ["shopify.app.toml", "shopify.web.toml", "package.json", "tsconfig.json"]) {
    fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  fs.cpSync(path.join(ROOT, "extensions"), path.join(dir, "extensions"), {
    recursive: true,
    filter: (source) => !/[\\/](dist|manifest\.json)$/.test(source),
  });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

function build(dir: string) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [SHOPIFY_CLI, ...SHOPIFY_APP_BUILD_ARGS, "--path", dir], {
      cwd: dir,
      env: { ...process.env, ...SHOPIFY_APP_BUILD_ENV },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("shopify app build (the npm test step)", () => {
  let dir: string;
  beforeAll(() => {
    dir = copyApp();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("exits 0 on a theme check error and a bundler warning; buildProblems finds both", async () => {
    fs.appendFileSync(
      path.join(dir, "extensions", "theme-embed", "blocks", "protection.liquid"),
      `{{ "missing.css" | asset_url | stylesheet_tag }}\n`,
    );
    fs.appendFileSync(
      path.join(dir, "extensions", "checkout-protection", "src", "offer.ts"),
      "export const planted = { key: 1, key: 2 };\n",
    );
    const { code, output } = await build(dir);
    assert.equal(code, 0, output);
    const problems = buildProblems(output);
    assert.ok(
      problems.some((line) => /\[error\]: MissingAsset/.test(line)),
      output,
    );
    assert.ok(
      problems.some((line) => /\[WARNING\] Duplicate key "key"/.test(line)),
      output,
    );
  });
});

describe("typesRewritten (the step's check that the build leaves each committed shopify.d.ts as it is)", () => {
  it("names each type file whose text changed since readTypeFiles, and nothing when none did", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "pp-shopify-types-"));
    try {
      for (const file of SHOPIFY_TYPE_FILES) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.copyFileSync(path.join(ROOT, file), path.join(root, file));
      }
      const before = readTypeFiles(root);
      assert.deepEqual(typesRewritten(before, root), [], "written as committed");
      const [changed] = SHOPIFY_TYPE_FILES;
      fs.appendFileSync(path.join(root, changed), "// another CLI version's line\n");
      const problems = typesRewritten(before, root);
      assert.equal(problems.length, 1, problems.join("\n"));
      assert.ok(problems[0].startsWith(`${changed}: `), problems[0]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
