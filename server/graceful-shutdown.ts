// How every long-running server here stops (`npm run api`, `npm start`, `npm run demo`): on SIGTERM or SIGINT it stops
// accepting connections, lets the requests in flight finish (up to SHUTDOWN_GRACE_MS, then closes what is left),
// closes what the process opened (the runtime: workers, rate limiter, database) and exits 0.
import type { ServerType } from "@hono/node-server";
import type { Logger } from "pino";

export interface GracefulShutdown {
  /** SHUTDOWN_GRACE_MS: how long in-flight requests may take before their connections are closed. */
  graceMs: number;
  logger: Logger;
  /** Runs once no connection is left. */
  close(): Promise<void>;
}

/** What the rest of the process may ask about the shutdown (the readiness probe answers 503 while draining). */
export interface Drain {
  /** True from the first SIGTERM/SIGINT on. */
  isDraining(): boolean;
}

export function exitGracefullyOnSignals(server: ServerType, { graceMs, logger, close }: GracefulShutdown): Drain {
  // Node's http server; the http2 variants @hono/node-server can also create are not used here.
  const http = server as unknown as { closeIdleConnections(): void; closeAllConnections(): void };
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    const forced = setTimeout(() => {
      logger.warn("grace period over; closing remaining connections");
      http.closeAllConnections();
    }, graceMs).unref();
    server.close(async () => {
      clearTimeout(forced);
      await close();
      logger.info("stopped");
      logger.flush?.();
      process.exit(0);
    });
    http.closeIdleConnections();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  return { isDraining: () => stopping };
}
