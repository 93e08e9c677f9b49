// When `npm run demo` (and the tests that run the web app) build the app first: only when build/ is missing or older
// than a source file it is made from (scripts/app-build.ts). On a tree of files with set modification times.
import { describe, it, beforeEach, afterEach } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { appBuildStaleness } from "../../scripts/app-build.ts";

describe("app build staleness", () => {
  let root: string;
  const write = (file: string, secondsAgo: number) => {
    const full = path.join(root, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, "");
    const at = new Date(Date.now() - secondsAgo * 1000);
    fs.utimesSync(full, at, at);
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "pp-app-build-"));
    for (const file of ["app/root.tsx", "server/api.ts", "packages/widget/src/widget.ts", "vite.config.ts"])
      write(file, 100);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("is stale without a build", () => {
    assert.equal(appBuildStaleness(root), "there is no build yet");
  });

  it("is current when the build is newer than every source file", () => {
    write("build/server/index.js", 10);
    assert.equal(appBuildStaleness(root), undefined);
  });

  for (const source of [
    "app/routes/x.ts",
    "server/domain/y.ts",
    "packages/contract/src/z.ts",
    "vite.config.ts",
    "public/favicon.ico",
  ]) {
    it(`is stale when ${source} changed after the build`, () => {
      write("build/server/index.js", 10);
      write(source, 1);
      assert.equal(appBuildStaleness(root), `${source} is newer than build/`);
    });
  }

  it("ignores tests and files outside the sources", () => {
    write("build/server/index.js", 10);
    write("server/domain/y.test.ts", 1);
    write("test/app/z.test.ts", 1);
    write("README.md", 1);
    write("packages/widget/test/w.ts", 1);
    assert.equal(appBuildStaleness(root), undefined);
  });
});
