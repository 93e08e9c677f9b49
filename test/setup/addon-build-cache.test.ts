// scripts/cache-addon-build.mjs: the better-sqlite3 this machine compiled, kept in npm's cache under the name
// prebuild-install looks for, is what prebuild-install installs next time, without the network or a compile: the
// fresh-clone test's install and a second clone's take seconds instead of two CPU-minutes.
import { afterAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ADDON = "better-sqlite3";
const BINARY = "build/Release/better_sqlite3.node";

describe("a compiled native addon kept for the next install", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pp-addon-cache-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
  // An npm cache of this test's own, so the machine's is neither read nor written.
  const env = { ...process.env, npm_config_cache: path.join(scratch, "npm-cache") };
  const keep = () =>
    execFileSync(process.execPath, ["scripts/cache-addon-build.mjs", `${ADDON}=${BINARY}`], {
      cwd: ROOT,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });

  it("is written once, holding only the binary, and prebuild-install unpacks and loads it with no network", () => {
    keep();
    const [kept, ...more] = fs.readdirSync(path.join(env.npm_config_cache, "_prebuilds"));
    assert.deepEqual(more, [], "one file");
    assert.match(
      kept,
      new RegExp(`^[0-9a-f]{6}-${ADDON}-v[0-9.]+-node-v${process.versions.modules}-linux-x64\\.tar\\.gz$`),
    );
    const file = path.join(env.npm_config_cache, "_prebuilds", kept);
    assert.deepEqual(execFileSync("tar", ["tzf", file], { encoding: "utf8" }).trim().split("\n"), [BINARY]);
    const writtenAt = fs.statSync(file).mtimeMs;
    keep();
    assert.equal(fs.statSync(file).mtimeMs, writtenAt, "kept already: not written again");

    // A package directory as npm unpacks it, before its install script: package.json, no build.
    const target = path.join(scratch, "package");
    fs.mkdirSync(target);
    fs.copyFileSync(path.join(ROOT, "node_modules", ADDON, "package.json"), path.join(target, "package.json"));
    const prebuildInstall = path.join(ROOT, "node_modules", "prebuild-install", "bin.js");
    // A proxy that refuses every connection: a download attempt would fail the install, so success means the cache.
    execFileSync(process.execPath, [prebuildInstall], {
      cwd: target,
      env: { ...env, https_proxy: "http://127.0.0.1:9", http_proxy: "http://127.0.0.1:9" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const unpacked = fs.readFileSync(path.join(target, BINARY));
    assert.ok(unpacked.equals(fs.readFileSync(path.join(ROOT, "node_modules", ADDON, BINARY))), "the same binary");
  });
});
