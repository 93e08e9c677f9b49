// A fresh clone on a machine with only the system Node: `npm run demo` needs no other command (the bootstrap installs
// Node 22 into .tools/ and the locked packages). The clone holds what `git clone` gives once the working tree is
// committed (tracked and new files, nothing git ignores: no node_modules, .tools, .data or build), so uncommitted
// work is tested too. Slow on purpose: Node 22 and ~1400 packages from the npm cache, and better-sqlite3 from the build
// this checkout's own install kept there (test/setup/addon-build-cache.test.ts; on a machine without it, compiled).
import { afterAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { SYSTEM_NODE, systemShellEnv } from "../support/system-shell.ts";
import { waitFor } from "../support/wait.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const READY_WITHIN_MS = 25 * 60_000;

// Asynchronous file work: on a loaded machine, removing the installed clone synchronously held this worker's event
// loop for 50–60 s, and vitest fails the run when a worker leaves its RPC to the main process unanswered for 60 s.
async function cloneWorkingTree(): Promise<string> {
  const clone = await fs.promises.mkdtemp(path.join(os.tmpdir(), "pp-fresh-clone-"));
  const { stdout: files } = await promisify(execFile)(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  for (const file of files.split("\0").filter(Boolean)) {
    const from = path.join(ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    await fs.promises.mkdir(path.dirname(path.join(clone, file)), { recursive: true });
    await fs.promises.cp(from, path.join(clone, file), { verbatimSymlinks: true });
  }
  return clone;
}

describe("a fresh clone", () => {
  let clone: string | undefined;
  let demo: ChildProcess | undefined;
  afterAll(async () => {
    // Whatever is left of its process group (nothing, when SIGTERM reached the demo through npm and the bootstrap).
    try {
      if (demo) process.kill(-demo.pid!, "SIGKILL");
    } catch {
      // ESRCH: nothing left
    }
    if (clone) await fs.promises.rm(clone, { recursive: true, force: true });
  });

  it(
    "`npm run demo` with only the system Node on PATH serves its storefront, and SIGTERM exits 0",
    async () => {
      assert.ok(SYSTEM_NODE, "no system Node in /usr/local/bin or /usr/bin");
      clone = await cloneWorkingTree();
      const started = Date.now();
      const child = spawn("npm", ["run", "demo"], {
        cwd: clone,
        env: { ...systemShellEnv(SYSTEM_NODE), PORT: "0" },
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      demo = child;
      let output = "";
      child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
      const tail = () => output.slice(-4000);

      const storefront = await waitFor(
        () => {
          assert.equal(child.exitCode, null, `npm run demo exited (${child.exitCode}) before it was ready:\n${tail()}`);
          return /storefront[^\n]*?(http:\/\/\S+)/i.exec(output)?.[1];
        },
        { timeoutMs: READY_WITHIN_MS, intervalMs: 500, what: "the demo's storefront URL" },
      );
      const readyAfter = ((Date.now() - started) / 1000).toFixed(0);
      console.log(`fresh clone: npm run demo ready after ${readyAfter} s (${storefront})`);
      const response = await fetch(storefront);
      assert.equal(response.status, 200, `GET ${storefront}:\n${tail()}`);
      assert.match(response.headers.get("content-type") ?? "", /text\/html/);

      child.kill("SIGTERM");
      await waitFor(() => child.exitCode !== null || child.signalCode !== null, {
        timeoutMs: 30_000,
        what: "npm run demo to exit after SIGTERM",
      });
      assert.equal(child.exitCode, 0, `exit code after SIGTERM:\n${tail()}`);
      await assert.rejects(fetch(storefront), "the demo's server still answers after npm exited");
    },
    READY_WITHIN_MS + 60_000,
  );
});
