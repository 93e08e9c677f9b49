// The METRICS_PORT listener every process may open (`npm run api`, `npm start`, `npm run worker`): GET /metrics in
// the Prometheus text format, and /healthz and /readyz as on the main port (the worker's only probes). Bound to
// METRICS_HOST (default 127.0.0.1), never the public port, so the metrics are not served to the internet.
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import { DATABASE_PROBE_TIMEOUT_MS, probeRoutes, type ReadinessSources } from "./probes.ts";
import { queueGauges, registry } from "./metrics.ts";

export interface ProbeServerOptions extends Omit<ReadinessSources, "databaseUrl"> {
  config: Pick<Config, "METRICS_PORT" | "METRICS_HOST" | "METRICS_QUEUE_CACHE_MS" | "DATABASE_URL">;
  logger: Logger;
}

/** Listens on METRICS_HOST:METRICS_PORT; resolves once listening, or at once (undefined) when METRICS_PORT is unset. */
export async function startProbeServer({
  config,
  logger,
  ...sources
}: ProbeServerOptions): Promise<ServerType | undefined> {
  if (config.METRICS_PORT === undefined) return undefined;
  const queues = queueGauges({
    db: sources.db,
    cacheMs: config.METRICS_QUEUE_CACHE_MS,
    timeoutMs: DATABASE_PROBE_TIMEOUT_MS,
    logger,
  });
  const app = probeRoutes({ ...sources, databaseUrl: config.DATABASE_URL });
  app.get("/metrics", async (c) => {
    await queues.refresh();
    return c.body(await registry.metrics(), 200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
  });
  const server = serve({ fetch: app.fetch, hostname: config.METRICS_HOST, port: config.METRICS_PORT });
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const { address, port } = server.address() as AddressInfo;
  logger.info(
    { url: `http://${address.includes(":") ? `[${address}]` : address}:${port}/metrics` },
    "metrics listening",
  );
  // It must not keep a stopping process alive; it answers (readiness 503) until the process exits.
  server.unref();
  return server;
}
