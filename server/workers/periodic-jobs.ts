// Which process runs which periodic job (the purges, the settlements), and when: PERIODIC_JOBS.
//   auto (default)  worker processes (`npm run worker`, within its --only) take each round when it is due; an API or
//                   web process takes one only when it is overdue by a standby grace, i.e. when no worker process runs
//                   the job (none started, or the last one stopped), and logs when it leaves the job to workers again.
//   on              this process takes the rounds when they are due, as a worker process does.
//   off             this process runs no periodic job.
//   purges,…        the jobs listed, when due; no other.
// Whoever may run a job, one process runs each round: the schedule is shared in the database (a round is taken by one
// conditional UPDATE, server/store/periodic-jobs.ts). Each process looks every `checkMs`, so a worker process is on
// time within one look, and an API process takes over within interval + grace + one look after the workers stop.
import os from "node:os";
import type { Logger } from "pino";
import type { Database } from "../store/database.ts";
import { findPeriodicRound, takePeriodicRound, type PeriodicJobRole } from "../store/periodic-jobs.ts";
import { createWorker, type Worker } from "./worker.ts";
import { PERIODIC_JOB_NAMES, type PeriodicJobName, type PeriodicJobsSetting } from "./periodic-jobs-setting.ts";

/** `prompt`: takes a round when it is due; `standby`: only when it is overdue (no worker process took it). */
export type PeriodicJobStance = "prompt" | "standby";

/** The jobs this process runs and how; `only` is a worker process's --only (an API process may run them all). */
export function periodicJobsPlan(
  setting: PeriodicJobsSetting,
  role: PeriodicJobRole,
  only: ReadonlySet<string> = new Set(PERIODIC_JOB_NAMES),
): Map<PeriodicJobName, PeriodicJobStance> {
  const plan = new Map<PeriodicJobName, PeriodicJobStance>();
  for (const job of PERIODIC_JOB_NAMES) {
    if (!only.has(job) || setting === "off" || (Array.isArray(setting) && !setting.includes(job))) continue;
    plan.set(job, setting === "auto" && role === "api" ? "standby" : "prompt");
  }
  return plan;
}

/** How often a process looks at the schedule, and how overdue a round is before a standby process takes it. */
export function periodicTiming(intervalMs: number) {
  const checkMs = Math.min(30_000, Math.max(100, Math.floor(intervalMs / 4)));
  return { intervalMs, checkMs, standbyGraceMs: 3 * checkMs };
}

/** The latest due time of a round this process may take at `now`. */
export function takesRoundsDueBy(stance: PeriodicJobStance, now: number, timing: ReturnType<typeof periodicTiming>) {
  return stance === "prompt" ? now : now - timing.standbyGraceMs;
}

/** What the schedule's rows and the logs call this process: "worker host pid 123". */
export const processLabel = (role: PeriodicJobRole) => `${role} ${os.hostname()} pid ${process.pid}`;

export interface PeriodicJobOptions {
  name: PeriodicJobName;
  stance: PeriodicJobStance;
  role: PeriodicJobRole;
  intervalMs: number;
  db: Database;
  clock: () => number;
  logger: Logger;
  task: () => Promise<number>;
  /** Default processLabel(role). */
  process?: string;
}

/**
 * One look at the schedule: takes the round and runs the task when this process may, else leaves it. Logs when a
 * standby process finds the job left to worker processes, and when it takes the job over.
 */
export function periodicJobRound(options: PeriodicJobOptions): () => Promise<"ran" | "left"> {
  const { name, stance, role, db, clock, logger } = options;
  const timing = periodicTiming(options.intervalMs);
  const label = options.process ?? processLabel(role);
  let leftToWorkers = false;

  return async () => {
    const now = clock();
    const dueBy = takesRoundsDueBy(stance, now, timing);
    if (
      await takePeriodicRound(db, { job: name, dueBy, nextRunAt: now + timing.intervalMs, process: label, role, now })
    ) {
      if (leftToWorkers) logger.info({ job: name }, "periodic jobs: taken over, no worker process ran the job");
      leftToWorkers = false;
      await options.task();
      return "ran";
    }
    if (stance === "standby" && !leftToWorkers) {
      const last = await findPeriodicRound(db, name);
      if (last?.ranByRole === "worker") {
        leftToWorkers = true;
        logger.info({ job: name, worker: last.ranBy }, "periodic jobs: left to worker processes");
      }
    }
    return "left";
  };
}

/** A periodic job on the shared schedule, looked at every `checkMs`; runOnce runs its task at once (tests, tools). */
export function createPeriodicJob(options: PeriodicJobOptions): Worker {
  const round = periodicJobRound(options);
  const { checkMs, intervalMs } = periodicTiming(options.intervalMs);
  return createWorker({
    name: options.name,
    logger: options.logger,
    pollMs: checkMs,
    round: async () => (await round(), false),
    runOnce: options.task,
    settings: { stance: options.stance, everyMs: intervalMs },
  });
}
