// PERIODIC_JOBS=auto through real processes on one database (SQLite and PostgreSQL): with `npm run worker` running the
// purges and settlements, `npm run api` leaves them to it (it says so, and every round's row names the worker); once
// the worker stops, the API takes them over within interval + grace + one look (server/workers/periodic-jobs.ts).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { startApiProcess, type ApiProcess } from "../support/api-process.ts";
import { startWorkerProcess } from "../support/webhook-events.ts";
import { waitFor } from "../support/wait.ts";
import { findPeriodicRound } from "../../server/store/periodic-jobs.ts";
import { periodicTiming } from "../../server/workers/periodic-jobs.ts";
import { PERIODIC_JOB_NAMES } from "../../server/workers/periodic-jobs-setting.ts";

// Long enough that a worker slowed by a busy machine still looks well within the grace (3 looks of 1.5 s).
const INTERVAL_MS = 6_000;
const { checkMs, standbyGraceMs } = periodicTiming(INTERVAL_MS);
/** The longest an API process may take to run a job after the worker's last round, plus room for a busy machine. */
const TAKEOVER_BOUND_MS = INTERVAL_MS + standbyGraceMs + checkMs + 10_000;

// The two databases' runs at the same time: each waits on rounds INTERVAL_MS apart, not on the CPU.
describe.concurrent.each(DIALECTS)("periodic jobs: npm run api beside npm run worker (%s)", (dialect) => {
  let database: TestDatabase;
  let api: ApiProcess | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-periodic-jobs-"));
  const key = randomBytes(32);
  const env = {
    DATA_DIR: dataDir,
    PERIODIC_JOBS_INTERVAL_MS: String(INTERVAL_MS),
    WEBHOOK_WORKER: "off",
    EMAIL_WORKER: "off",
    LOG_LEVEL: "info",
  };
  beforeAll(async () => (database = await createTestDatabase(dialect)));
  afterAll(async () => {
    await api?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const rounds = () => Promise.all(PERIODIC_JOB_NAMES.map((job) => findPeriodicRound(database.db, job)));

  it("the API leaves the jobs to a running worker and takes them over when it stops", async () => {
    const worker = startWorkerProcess(database.url, key, { args: ["--only", "purges,settlements"], env });
    const exited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
    const workerLabel = `pid ${worker.pid}`;
    await waitFor(async () => (await rounds()).every((round) => round?.ranBy?.endsWith(workerLabel)), {
      timeoutMs: 30_000,
      what: "the worker's first rounds",
    });

    api = await startApiProcess({ ...env, DATABASE_URL: database.url, ENCRYPTION_KEY: key.toString("base64") });
    const apiLabel = `pid ${api.child.pid}`;
    const said = (msg: string) => api!.lines.filter((line) => line.msg === msg).map((line) => line.job);
    await waitFor(() => said("periodic jobs: left to worker processes").length === PERIODIC_JOB_NAMES.length, {
      timeoutMs: 30_000,
      what: "the API saying it leaves both jobs to worker processes",
    });
    // A later round of each job, due while the API stands by, taken by the worker too (rounds are INTERVAL_MS apart:
    // polled often enough to see each).
    const roundsSeen = new Map(PERIODIC_JOB_NAMES.map((job) => [job, new Set<number>()]));
    await waitFor(
      async () => {
        for (const [index, round] of (await rounds()).entries()) {
          assert.ok(round?.ranBy?.endsWith(workerLabel), `a round taken by ${round?.ranBy}, not the worker`);
          roundsSeen.get(PERIODIC_JOB_NAMES[index])!.add(round!.ranAt!);
        }
        return [...roundsSeen.values()].every((seen) => seen.size >= 2);
      },
      { timeoutMs: 4 * INTERVAL_MS + 20_000, intervalMs: 100, what: "a later round of each job by the worker" },
    );
    assert.deepEqual(said("periodic jobs: taken over, no worker process ran the job"), []);

    worker.kill("SIGTERM");
    assert.equal(await exited, 0);
    const stoppedAt = Date.now();
    await waitFor(async () => (await rounds()).every((round) => round?.ranBy?.endsWith(apiLabel)), {
      timeoutMs: TAKEOVER_BOUND_MS,
      intervalMs: 50,
      what: "the API taking both jobs over",
    });
    const takeoverMs = Date.now() - stoppedAt;
    // The log line follows the row's update: it may still be on its way through the process's stdout.
    await waitFor(
      () => said("periodic jobs: taken over, no worker process ran the job").length === PERIODIC_JOB_NAMES.length,
      {
        what: "the API saying it took both jobs over",
      },
    );
    assert.deepEqual(said("periodic jobs: taken over, no worker process ran the job").sort(), [...PERIODIC_JOB_NAMES]);
    console.log(`periodic jobs (${dialect}): the API took over ${takeoverMs} ms after the worker stopped`);
  });
});
