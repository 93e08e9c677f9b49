// The standalone protection API: `npm run api`. Listens on HOST:PORT (127.0.0.1:8787), serves /api/v1 and the probes
// (/healthz, /readyz; with METRICS_PORT also /metrics on a listener of their own, server/observability/), and on
// SIGTERM/SIGINT (to npm too: the script execs node) drains: stops accepting connections, closes idle kept-alive
// ones, answers `Connection: close` from then on, lets in-flight requests finish, then closes the database and exits 0
// (server/graceful-shutdown.ts, as `npm start` does).
import { serve } from "@hono/node-server";
import { loadConfig } from "./config.ts";
import { createRuntime } from "./runtime.ts";
import { API_BASE_PATH } from "./http/app.ts";
import { createServerApp } from "./server-app.ts";
import { demoKeysFor } from "./demo-page.ts";
import { exitGracefullyOnSignals } from "./graceful-shutdown.ts";
import type { ReadinessSources } from "./observability/probes.ts";
import { startProbeServer } from "./observability/probe-server.ts";
import { logStartupWarnings } from "./startup-warnings.ts";

const runtime = createRuntime(loadConfig());
const { config, logger } = runtime;
runtime.api.startBackgroundJobs();

logStartupWarnings(config, logger);
const demoKeys = config.DEMO === "on" ? demoKeysFor(runtime) : undefined;
const readiness: ReadinessSources = {
  db: () => runtime.db,
  databaseUrl: config.DATABASE_URL,
  // `drain` is set below, before the server can take its first request.
  isDraining: () => drain.isDraining(),
};
const server = serve(
  { fetch: createServerApp({ api: runtime.api, demoKeys, readiness }).fetch, hostname: config.HOST, port: config.PORT },
  (info) => {
    logger.info(
      { url: `http://${info.address}:${info.port}${API_BASE_PATH}`, database: config.DATABASE_URL.split(":")[0] },
      "protection API listening",
    );
  },
);

const drain = exitGracefullyOnSignals(server, {
  graceMs: config.SHUTDOWN_GRACE_MS,
  logger,
  close: () => runtime.close(),
});
await startProbeServer({ ...readiness, config, logger });
