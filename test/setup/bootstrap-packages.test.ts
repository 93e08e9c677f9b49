// The bootstrap's package step, one bootstrap at a time: two that find no node_modules at once (`npm test` and `npm run
// demo` started together on a fresh clone) both ran `npm install` into the one node_modules. A stand-in npm on PATH
// records each install and holds it until the test lets it finish, so the second bootstrap is seen waiting, not
// inferred from timing. The stand-in prints npm's "added 1 package" summary on stdout, as npm does: a bootstrap's
// stdout is its command's alone (`.ci/node-env.sh` evaluates `--print-env`'s).
import { afterAll, afterEach, beforeEach, describe, it } from "vitest";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "../support/wait.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WAITING = /bootstrap (\d+) is installing the packages: waiting for it/;

// npm install (held until the release file exists, then a node_modules whose better-sqlite3 loads; logged with the
// pid of the bootstrap that ran it) and npm config get.
const FAKE_NPM = `#!/usr/bin/env node
const fs = require("node:fs");
const [command] = process.argv.slice(2);
const log = (line) => fs.appendFileSync(process.env.FAKE_NPM_LOG, line + "\\n");
if (command === "config") {
  console.log(process.env.FAKE_NPM_CACHE);
} else if (command === "install") {
  log("begin " + process.ppid);
  // Until released, or until the fixture is gone (a test run that was stopped).
  while (!fs.existsSync(process.env.FAKE_NPM_RELEASE)) {
    if (!fs.existsSync(process.env.FAKE_NPM_LOG)) process.exit(1);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  fs.mkdirSync("node_modules", { recursive: true });
  if (!fs.existsSync("node_modules/better-sqlite3")) fs.symlinkSync(process.env.FAKE_NPM_ADDON, "node_modules/better-sqlite3");
  log("end " + process.ppid);
  console.log("added 1 package in 0s");
} else {
  log("unexpected " + process.argv.slice(2).join(" "));
  process.exit(1);
}
`;

interface Bootstrap {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<[number | null, NodeJS.Signals | null]>;
}

describe("the bootstrap's package install", () => {
  const fixtures: string[] = [];
  let fixture: string;
  let env: NodeJS.ProcessEnv;
  const file = (name: string) => path.join(fixture, name);
  const installLog = () =>
    fs.promises.readFile(file("npm.log"), "utf8").then(
      (text) => text.trim().split("\n"),
      () => [],
    );

  beforeEach(async () => {
    fixture = await fs.promises.mkdtemp(path.join(os.tmpdir(), "pp-bootstrap-packages-"));
    fixtures.push(fixture);
    await fs.promises.mkdir(file("scripts"));
    await fs.promises.mkdir(file("bin"));
    await fs.promises.copyFile(path.join(ROOT, "scripts/bootstrap.mjs"), file("scripts/bootstrap.mjs"));
    // The addon's build kept in npm's cache is not what is under test.
    await fs.promises.writeFile(file("scripts/cache-addon-build.mjs"), "// nothing to keep in this fixture\n");
    await fs.promises.writeFile(file("package-lock.json"), '{ "lockfileVersion": 3 }\n');
    await fs.promises.writeFile(file("bin/npm"), FAKE_NPM, { mode: 0o755 });
    const vars: Record<string, string | undefined> = {
      HOME: os.homedir(),
      // The stand-in first; this Node (22): the bootstrap installs no Node under it.
      PATH: [file("bin"), path.dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
      FAKE_NPM_LOG: file("npm.log"),
      FAKE_NPM_RELEASE: file("release"),
      FAKE_NPM_CACHE: file("npm-cache"),
      FAKE_NPM_ADDON: fs.realpathSync(path.join(ROOT, "node_modules/better-sqlite3")),
    };
    env = vars as NodeJS.ProcessEnv;
  });
  const started: Bootstrap[] = [];
  // A failed test leaves a stand-in npm holding its install: let it finish, and its bootstrap with it.
  afterEach(async () => {
    await fs.promises.writeFile(file("release"), "");
    await Promise.all(started.splice(0).map((bootstrap) => bootstrap.exit));
  });
  afterAll(async () => {
    await Promise.all(fixtures.map((dir) => fs.promises.rm(dir, { recursive: true, force: true })));
  });

  const start = (): Bootstrap => {
    const child = spawn(process.execPath, [file("scripts/bootstrap.mjs"), "node", "-p", "process.version"], {
      cwd: fixture,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exit = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    const bootstrap = { child, stdout: () => stdout, stderr: () => stderr, exit };
    started.push(bootstrap);
    return bootstrap;
  };
  const ranItsCommand = async (bootstrap: Bootstrap, name: string) => {
    const [code] = await bootstrap.exit;
    const output = `${name}:\n${bootstrap.stdout()}${bootstrap.stderr()}`;
    assert.equal(code, 0, output);
    assert.equal(bootstrap.stdout(), `${process.version}\n`, `only its command's output on stdout — ${output}`);
  };

  it("a second bootstrap waits for the first one's npm install, then finds the packages installed", async () => {
    const first = start();
    await waitFor(async () => (await installLog()).length > 0, { what: "the first bootstrap's npm install" });
    const second = start();
    const waited = await waitFor(
      async () => {
        if ((await installLog()).filter((line) => line.startsWith("begin")).length > 1) {
          throw new Error("two npm installs ran at once into one node_modules");
        }
        return WAITING.exec(second.stderr());
      },
      { what: "the second bootstrap to say it waits" },
    );
    assert.equal(Number(waited[1]), first.child.pid);

    await fs.promises.writeFile(file("release"), "");
    await ranItsCommand(first, "the first bootstrap");
    await ranItsCommand(second, "the second bootstrap");
    assert.deepEqual(await installLog(), [`begin ${first.child.pid}`, `end ${first.child.pid}`]);
    const stamp = JSON.parse(await fs.promises.readFile(file("node_modules/.bootstrap-stamp.json"), "utf8"));
    assert.equal(stamp.abi, process.versions.modules);
    assert.deepEqual(await fs.promises.readdir(file(".tools")), [], "the lock released, nothing left in .tools/");
  });

  it("a lock whose bootstrap no longer runs is taken over, and what killed bootstraps left in .tools/ is removed", async () => {
    const gone = spawn(process.execPath, ["-e", "0"]);
    await once(gone, "exit");
    const deadPid = gone.pid!;
    await fs.promises.mkdir(file(".tools/packages.lock"), { recursive: true });
    await fs.promises.writeFile(file(".tools/packages.lock/owner.json"), JSON.stringify({ pid: deadPid }));
    const leftovers = [`packages.lock.waiting-${deadPid}-0a1b2c3d`, `node-22.23.3.partial-${deadPid}-4e5f6a7b`];
    for (const left of leftovers) await fs.promises.mkdir(file(`.tools/${left}/some/files`), { recursive: true });
    await fs.promises.writeFile(file("release"), "");

    const bootstrap = start();
    await ranItsCommand(bootstrap, "the bootstrap");
    assert.match(bootstrap.stderr(), new RegExp(`took over the package install lock of bootstrap ${deadPid}\\b`));
    assert.deepEqual(await installLog(), [`begin ${bootstrap.child.pid}`, `end ${bootstrap.child.pid}`]);
    assert.deepEqual(await fs.promises.readdir(file(".tools")), []);
  });
});
