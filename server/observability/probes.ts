// Liveness and readiness for an orchestrator (docs/operations.md "Health and readiness probes"): GET /healthz answers
// 200 while the process runs; GET /readyz 200 only when the database answers within a short timeout, every migration
// this build ships is applied as shipped, and the process is not draining, else 503 naming what is not ready.
// Migrations of a newer build do not make an older one unready: they are written to run under the release before
// (docs/operations.md "Rolling out a release"), and a rolling update keeps the old processes serving until the new
// ones are ready; the answer notes them.
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
  /** What an operator may want to know that does not stop the process serving (a newer build's migrations). */
  notes: string[];
}

export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  const notReady: string[] = [];
  if (sources.isDraining()) notReady.push("draining: the process is shutting down");
  const answer = await within(databaseFacts(sources), DATABASE_PROBE_TIMEOUT_MS);
  if (answer === "timeout") notReady.push(`database: no answer within ${DATABASE_PROBE_TIMEOUT_MS} ms`);
  else notReady.push(...answer.problems);
  return { ready: notReady.length === 0, notReady, notes: answer === "timeout" ? [] : answer.notes };
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

async function databaseFacts({ db, databaseUrl }: ReadinessSources): Promise<{ problems: string[]; notes: string[] }> {
  let database: Queryable;
  try {
    database = db();
    await ping(database);
  } catch {
    return { problems: ["database: does not answer"], notes: [] };
  }
  try {
    const drift = await migrationDrift(database, databaseUrl);
    return {
      problems: [
        ...(drift.missing.length > 0 ? [`migrations: not applied: ${drift.missing.join(", ")}`] : []),
        ...(drift.modified.length > 0 ? [`migrations: applied from another file: ${drift.modified.join(", ")}`] : []),
      ],
      notes: drift.extra.length > 0 ? [`migrations: applied from a newer build: ${drift.extra.join(", ")}`] : [],
    };
  } catch {
    return { problems: ["migrations: the database has no readable _prisma_migrations (not migrated?)"], notes: [] };
  }
}

const NO_STORE = { "Cache-Control": "no-store" };

/** GET (and HEAD) /healthz and /readyz, to mount at the root of a port. */
export function probeRoutes(sources: ReadinessSources): Hono {
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "alive" }, 200, NO_STORE));
  app.get("/readyz", async (c) => {
    const { ready, notReady, notes } = await checkReadiness(sources);
    const body = ready ? { status: "ready" } : { status: "not ready", notReady };
    return c.json(notes.length > 0 ? { ...body, notes } : body, ready ? 200 : 503, NO_STORE);
  });
  return app;
}
