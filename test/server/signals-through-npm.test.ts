// What an orchestrator starts is npm (`npm run api`, `npm run worker`, `npm start`), and it signals that process (PID 1
// in a container). The scripts `exec` node, so SIGTERM to npm's pid reaches the server: it drains, stops listening
// and exits 0, and npm with it. Without `exec`, npm's `sh -c` died of the signal and left node running and listening.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { connectionRefused, startNpmScript, type NpmScriptProcess } from "../support/npm-script.ts";
import { plainAppEnv } from "../support/web-app.ts";
import { waitFor } from "../support/wait.ts";
import { ensureAppBuilt } from "../../scripts/app-build.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const listeningPort = (url: unknown) => Number(new URL(String(url)).port);

/** SIGTERM to npm's pid; resolves once npm has exited 0 and the server's own shutdown line was logged. */
async function stopThroughNpm(script: NpmScriptProcess, shutdownMessage: string): Promise<void> {
  process.kill(script.child.pid!, "SIGTERM");
  assert.deepEqual(await script.exited, { code: 0, signal: null });
  await waitFor(() => script.lines.some((line) => line.msg === shutdownMessage), {
    what: `the node process to log "${shutdownMessage}"`,
  });
}

describe("SIGTERM to the npm process reaches node", () => {
  let database: TestDatabase;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-signals-"));
  // A SHUTDOWN_GRACE_MS far longer than the test waits: a prompt exit is the drain's doing, not the grace timer's.
  const env = () =>
    plainAppEnv({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "info",
      SHUTDOWN_GRACE_MS: "60000",
    });

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("every long-running script execs its process (the servers, the benchmarks, the tools bootstrap.mjs runs)", () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const longRunning = Object.keys(scripts).filter((name) =>
      /^(api|worker|start|demo|dev|shopify|prisma|test|bench:.*)$/.test(name),
    );
    for (const name of longRunning) assert.match(scripts[name], /^(\w+=\S+ )*exec /, name);
  });

  it("npm run api: stops listening and exits 0", async () => {
    const api = await startNpmScript("api", env(), (line) => line.msg === "protection API listening");
    try {
      const port = listeningPort(api.started.url);
      assert.equal(await connectionRefused(port), false);
      await stopThroughNpm(api, "shutting down: finishing in-flight requests");
      assert.equal(await connectionRefused(port), true, "nothing listens once npm has exited");
    } finally {
      api.killGroup();
    }
  });

  it("npm run worker: stops its workers and exits 0", async () => {
    const worker = await startNpmScript("worker", env(), (line) => line.msg === "worker process started");
    try {
      await stopThroughNpm(worker, "shutting down: finishing in-flight work");
    } finally {
      worker.killGroup();
    }
  });

  it("npm start: stops listening and exits 0", async () => {
    await ensureAppBuilt();
    const web = await startNpmScript("start", env(), (line) => line.msg === "web app listening");
    try {
      const port = listeningPort(web.started.url);
      assert.equal(await connectionRefused(port), false);
      await stopThroughNpm(web, "shutting down: finishing in-flight requests");
      assert.equal(await connectionRefused(port), true, "nothing listens once npm has exited");
    } finally {
      web.killGroup();
    }
  }, 300_000);
});
