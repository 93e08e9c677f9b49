// Liveness and readiness for an orchestrator (docs/operations.md "Health and readiness probes"): GET /healthz answers
// 200 while the process runs; GET /readyz 200 only when the database answers within a short timeout, its applied
// migrations are the ones this build ships, and the process is not draining, else 503 naming what is not ready.
// Served at the root of the main port (`npm run api`, `npm start`) and on the METRICS_PORT listener.
import { Hono } from "hono";
import { ping, type Queryable } from "../store/database.ts";
import { migrationDrift } from "../store/migrations.ts";

/** How long the readiness probe waits for the database: well under a probe's usual 1 s timeout. */
export const DATABASE_PROBE_TIMEOUT_MS = 800;

export interface ReadinessSources {
  /** The process's database; may throw (a runtime that could not start), which reads as not ready. */
  db: () => Queryable;
  databaseUrl: string;
  isDraining: () => boolean;
}

export interface Readiness {
  ready: boolean;
  /** What is not ready, in words; empty when ready. Nothing secret: no address, no error text of the driver. */
  notReady: string[];
}

export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  const notReady: string[] = [];
  if (sources.isDraining()) notReady.push("draining: the process is shutting down");
  const answer = await within(databaseProblems(sources), DATABASE_PROBE_TIMEOUT_MS);
  notReady.push(...(answer === "timeout" ? [`database: no answer within ${DATABASE_PROBE_TIMEOUT_MS} ms`] : answer));
  return { ready: notReady.length === 0, notReady };
}

/** What `work` resolves to, or "timeout" once `ms` have passed first (the work goes on; its outcome is dropped). */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, ms, "timeout")));
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function databaseProblems({ db, databaseUrl }: ReadinessSources): Promise<string[]> {
  let database: Queryable;
  try {
    database = db();
    await ping(database);
  } catch {
    return ["database: does not answer"];
  }
  try {
    const drift = await migrationDrift(database, databaseUrl);
    return [
      ...(drift.missing.length > 0 ? [`migrations: not applied: ${drift.missing.join(", ")}`] : []),
      ...(drift.extra.length > 0 ? [`migrations: applied but not in this build: ${drift.extra.join(", ")}`] : []),
      ...(drift.modified.length > 0 ? [`migrations: applied from another file: ${drift.modified.join(", ")}`] : []),
    ];
  } catch {
    return ["migrations: the database has no readable _prisma_migrations (not migrated?)"];
  }
}

const NO_STORE = { "Cache-Control": "no-store" };

/** GET (and HEAD) /healthz and /readyz, to mount at the root of a port. */
export function probeRoutes(sources: ReadinessSources): Hono {
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "alive" }, 200, NO_STORE));
  app.get("/readyz", async (c) => {
    const { ready, notReady } = await checkReadiness(sources);
    return c.json(ready ? { status: "ready" } : { status: "not ready", notReady }, ready ? 200 : 503, NO_STORE);
  });
  return app;
}
