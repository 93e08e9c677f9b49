// The periodic jobs' shared schedule (periodic_jobs, one row per job; server/workers/periodic-jobs.ts decides who
// may take a round when). A round is taken by moving next_run_at on in one conditional UPDATE: the database lets one
// process through per round, however many try at the same instant.
import type { Queryable } from "./database.ts";

export type PeriodicJobRole = "worker" | "api";

/** Who took a job's last round, and when the next one is due. */
export interface PeriodicJobRound {
  nextRunAt: number;
  ranBy: string | null;
  ranByRole: PeriodicJobRole | null;
  ranAt: number | null;
}

/**
 * Takes the job's round when it was due at `dueBy` or earlier: the next becomes due at `nextRunAt`, and the row names
 * `process`. Resolves false when the round is not due that early or another process took it. A job never run is due.
 */
export async function takePeriodicRound(
  db: Queryable,
  round: { job: string; dueBy: number; nextRunAt: number; process: string; role: PeriodicJobRole; now: number },
): Promise<boolean> {
  await db.run("INSERT INTO periodic_jobs (job, next_run_at) VALUES (?, 0) ON CONFLICT (job) DO NOTHING", [round.job]);
  const changed = await db.run(
    `UPDATE periodic_jobs SET next_run_at = ?, ran_by = ?, ran_by_role = ?, ran_at = ?
     WHERE job = ? AND next_run_at <= ?`,
    [round.nextRunAt, round.process, round.role, round.now, round.job, round.dueBy],
  );
  return changed === 1;
}

export async function findPeriodicRound(db: Queryable, job: string): Promise<PeriodicJobRound | undefined> {
  const row = await db.get<{
    next_run_at: unknown;
    ran_by: string | null;
    ran_by_role: string | null;
    ran_at: unknown;
  }>("SELECT next_run_at, ran_by, ran_by_role, ran_at FROM periodic_jobs WHERE job = ?", [job]);
  return (
    row && {
      nextRunAt: Number(row.next_run_at),
      ranBy: row.ran_by,
      ranByRole: row.ran_by_role as PeriodicJobRole | null,
      ranAt: row.ran_at === null ? null : Number(row.ran_at),
    }
  );
}
