// Who runs a periodic job's round, on a fake clock against the real schedule table (SQLite and PostgreSQL): worker
// processes take rounds when due, an API process under PERIODIC_JOBS=auto only when a round is overdue, and one
// process runs each round however many look at once.
import { describe, it, beforeAll, beforeEach, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../test/support/databases.ts";
import { capturedLogger } from "../../test/support/logger.ts";
import { loadConfig } from "../config.ts";
import { findPeriodicRound, type PeriodicJobRole } from "../store/periodic-jobs.ts";
import { periodicJobRound, periodicJobsPlan, periodicTiming, type PeriodicJobStance } from "./periodic-jobs.ts";
import type { PeriodicJobName } from "./periodic-jobs-setting.ts";

describe("PERIODIC_JOBS", () => {
  it("reads auto (the default), on, off and lists of job names, and refuses other names", () => {
    const config = (env: Record<string, string>) => loadConfig(env as NodeJS.ProcessEnv);
    assert.equal(config({}).PERIODIC_JOBS, "auto");
    assert.equal(config({ PERIODIC_JOBS: "off" }).PERIODIC_JOBS, "off");
    assert.deepEqual(config({ PERIODIC_JOBS: " purges, settlements" }).PERIODIC_JOBS, ["purges", "settlements"]);
    assert.throws(() => config({ PERIODIC_JOBS: "purges,webhooks" }), /PERIODIC_JOBS: .*got 'purges,webhooks'/);
  });

  it("plans: worker processes run their jobs when due, API processes stand by under auto", () => {
    const plan = (...args: Parameters<typeof periodicJobsPlan>) => Object.fromEntries(periodicJobsPlan(...args));
    assert.deepEqual(plan("auto", "worker"), { purges: "prompt", settlements: "prompt" });
    assert.deepEqual(plan("auto", "worker", new Set(["webhooks", "purges"])), { purges: "prompt" });
    assert.deepEqual(plan("auto", "api"), { purges: "standby", settlements: "standby" });
    assert.deepEqual(plan("on", "api"), { purges: "prompt", settlements: "prompt" });
    assert.deepEqual(plan("off", "worker"), {});
    assert.deepEqual(plan(["settlements"], "api"), { settlements: "prompt" });
    assert.deepEqual(plan(["settlements"], "worker", new Set(["purges"])), {});
  });
});

describe.each(DIALECTS)("the periodic jobs' shared schedule (%s)", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => (database = await createTestDatabase(dialect)));
  afterAll(async () => database?.drop());
  beforeEach(async () => void (await database.db.run("DELETE FROM periodic_jobs")));

  const INTERVAL_MS = 600_000;
  const { standbyGraceMs } = periodicTiming(INTERVAL_MS);

  function processes(job: PeriodicJobName) {
    let now = 1_700_000_000_000;
    const { logger, lines } = capturedLogger();
    logger.level = "info";
    const runs: string[] = [];
    const start = (label: string, role: PeriodicJobRole, stance: PeriodicJobStance) =>
      periodicJobRound({
        name: job,
        stance,
        role,
        intervalMs: INTERVAL_MS,
        db: database.db,
        clock: () => now,
        logger,
        process: label,
        task: async () => (runs.push(label), 1),
      });
    return {
      worker: start("worker A", "worker", "prompt"),
      api: start("api B", "api", "standby"),
      runs,
      messages: () => lines.map((line) => line.msg),
      advance: (ms: number) => (now += ms),
    };
  }

  it("the worker takes each round when due; the API leaves them while it does and takes over once one is overdue by the grace", async () => {
    const job = "purges";
    const { worker, api, runs, messages, advance } = processes(job);
    assert.equal(await worker(), "ran", "a job never run is due");
    assert.equal(await api(), "left");
    assert.deepEqual(messages(), ["periodic jobs: left to worker processes"]);

    advance(INTERVAL_MS - 1);
    assert.equal(await worker(), "left", "not due yet");
    advance(1);
    assert.equal(await api(), "left", "due, but not overdue: the worker's");
    assert.equal(await worker(), "ran");
    assert.deepEqual(runs, ["worker A", "worker A"]);

    // The worker stops: the API takes the round once it is overdue by the grace, not before.
    advance(INTERVAL_MS + standbyGraceMs - 1);
    assert.equal(await api(), "left");
    advance(1);
    assert.equal(await api(), "ran");
    assert.deepEqual((await findPeriodicRound(database.db, job))?.ranBy, "api B");
    assert.equal(messages().at(-1), "periodic jobs: taken over, no worker process ran the job");
    assert.equal(messages().filter((msg) => msg === "periodic jobs: left to worker processes").length, 1, "said once");

    // A worker again: it takes the next round when due, and the API says it leaves the job to it.
    advance(INTERVAL_MS);
    assert.equal(await worker(), "ran");
    assert.equal(await api(), "left");
    assert.equal(messages().at(-1), "periodic jobs: left to worker processes");
    assert.deepEqual(runs, ["worker A", "worker A", "api B", "worker A"]);
  });

  it("with no worker process the API runs the job every interval", async () => {
    const { api, runs, advance } = processes("settlements");
    advance(standbyGraceMs);
    assert.equal(await api(), "ran");
    advance(INTERVAL_MS + standbyGraceMs);
    assert.equal(await api(), "ran");
    assert.deepEqual(runs, ["api B", "api B"]);
  });

  it("of several processes looking at the same instant, one runs the round", async () => {
    const job = "purges";
    const first = processes(job);
    const second = processes(job);
    const outcomes = await Promise.all([first.worker(), second.worker(), first.worker(), second.worker()]);
    assert.deepEqual(outcomes.filter((outcome) => outcome === "ran").length, 1);
  });
});
