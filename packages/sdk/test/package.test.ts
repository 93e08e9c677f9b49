// The published package: built, `npm pack`ed, unpacked into a fresh project as npm install
// would, then loaded with require() and import, and type-checked as a consumer would (CJS and ESM).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const PACKAGE = path.resolve(import.meta.dirname, "..");
const ROOT = path.resolve(PACKAGE, "../..");
// Asynchronous, so the worker's event loop stays free while the build, npm and tsc run (vitest fails a run whose
// worker leaves the main process unanswered for 60 s).
const run = async (command: string, args: string[], cwd: string) =>
  (await promisify(execFile)(command, args, { cwd, encoding: "utf8" })).stdout;

describe("npm pack → install → require / import", { timeout: 120_000 }, () => {
  let project: string;
  let files: string[];

  beforeAll(async () => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-consumer-"));
    await run(process.execPath, ["scripts/build.ts"], PACKAGE); // what prepack runs; scripts are skipped below to keep --json clean
    const [packed] = JSON.parse(
      await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", project], PACKAGE),
    ) as { filename: string; files: { path: string }[] }[];
    files = packed!.files.map((file) => file.path);
    // What `npm install <tarball>` lays out: the package under node_modules, its one dependency beside it.
    const installed = path.join(project, "node_modules/@purchase-protection/sdk");
    fs.mkdirSync(installed, { recursive: true });
    await run("tar", ["-xzf", path.join(project, packed!.filename), "-C", installed, "--strip-components=1"], project);
    fs.symlinkSync(path.join(ROOT, "node_modules/canonicalize"), path.join(project, "node_modules/canonicalize"));
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  });
  afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

  it("ships dist (ESM, CJS, .d.ts), the README, the CHANGELOG and package.json — no sources or tests", () => {
    for (const file of [
      "package.json",
      "README.md",
      "CHANGELOG.md",
      "dist/esm/index.js",
      "dist/esm/index.d.ts",
      "dist/cjs/index.js",
      "dist/cjs/index.d.ts",
      "dist/cjs/package.json",
    ]) {
      assert.ok(files.includes(file), file);
    }
    assert.ok(!files.some((file) => file.startsWith("src/") || file.startsWith("test/")), files.join(", "));
    const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE, "package.json"), "utf8"));
    assert.deepEqual(Object.keys(manifest.dependencies), ["canonicalize"]);
  });

  const script = `
    const client = new sdk.ProtectionClient({ apiKey: "mch_test_x" });
    if (client.headless.DISCLOSURE_PHRASE !== "This is not insurance") throw new Error("phrase");
    if (sdk.canonicalJson({ b: 1, a: [1e21, "é"] }) !== '{"a":[1e+21,"é"],"b":1}') throw new Error("jcs");
    try { new sdk.ProtectionClient({ apiKey: "" }); throw new Error("no throw"); } catch (e) { if (!(e instanceof sdk.ServiceValidationError)) throw e; }
    console.log(Object.keys(sdk).sort().join(","));`;

  it("loads with require() (CommonJS)", async () => {
    fs.writeFileSync(path.join(project, "use.cjs"), `const sdk = require("@purchase-protection/sdk");${script}`);
    assert.match(await run(process.execPath, ["use.cjs"], project), /ProtectionClient,.*ServiceRateLimitError/);
  });

  it("loads with import (ESM)", async () => {
    fs.writeFileSync(path.join(project, "use.mjs"), `import * as sdk from "@purchase-protection/sdk";${script}`);
    assert.match(await run(process.execPath, ["use.mjs"], project), /ProtectionClient,.*ServiceRateLimitError/);
  });

  it("type-checks from a CommonJS and an ES module consumer", async () => {
    const source = `import { ProtectionClient, ServiceHttpError, type QuoteWithToken } from "@purchase-protection/sdk";
      export async function quote(): Promise<QuoteWithToken> {
        const client = new ProtectionClient({ apiKey: "mch_test_x", retry: { maxAttempts: 5 } });
        try { return await client.offers.quote({ orderAmountCents: 100, orderId: "o", protectionProgramId: "p" }); }
        catch (error) { if (error instanceof ServiceHttpError) console.log(error.code, error.requestId); throw error; }
      }\n`;
    fs.writeFileSync(path.join(project, "consumer.cts"), source);
    fs.writeFileSync(path.join(project, "consumer.mts"), source);
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    await run(
      process.execPath,
      [
        tsc,
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--target",
        "es2022",
        "--lib",
        "es2022,dom",
        "consumer.cts",
        "consumer.mts",
      ],
      project,
    );
  });
});
