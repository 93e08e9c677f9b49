-- Issue 34: which processes run the periodic jobs (purges, settlements) is a setting (PERIODIC_JOBS). Their schedule
-- is shared here, one row per job: a process runs a round only after moving next_run_at on with a conditional UPDATE,
-- so of all the processes that may run a job one runs each round, and ran_by names it. Worker processes take a round
-- when it is due; API and web processes (PERIODIC_JOBS=auto) only when it is overdue, i.e. no worker process runs it.

-- CreateTable
CREATE TABLE "periodic_jobs" (
    "job" TEXT NOT NULL PRIMARY KEY,
    "next_run_at" BIGINT NOT NULL,
    "ran_by" TEXT,
    "ran_by_role" TEXT,
    "ran_at" BIGINT
);
