// How every long-running server here stops (`npm run api`, `npm start`, `npm run demo`): on SIGTERM or SIGINT it stops
// accepting connections, closes idle kept-alive connections, answers `Connection: close` on every response that starts
// from then on (so a kept-alive client moves to another instance within one request), lets the requests in flight
// finish and their answers reach a slow reader whole (up to SHUTDOWN_GRACE_MS, then closes what is left), closes what
// the process opened (the runtime: workers, rate limiter, database) and exits 0. Closing is bounded too: a database that
// hangs would otherwise keep the process alive for ever (exit 1 then, said in the log).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";
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
  const http = server as Server;
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  // Runs before the app's listener, so a response that starts after the drain began says `Connection: close`.
  http.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
    inFlight.add(response);
    response.once("close", () => inFlight.delete(response));
    if (draining) closeAfter(response);
  });
  // Node's sweep of idle connections also destroys one whose response is complete but not yet flushed to the socket
  // (a big answer to a slow reader), cutting that answer short: it waits until no response is in that state. Until
  // then an idle connection stays open, and a request on it is answered with `Connection: close`.
  const closeIdleConnections = () => {
    const flushing = [...inFlight].find((response) => response.writableEnded && !response.writableFinished);
    if (flushing) flushing.once("finish", closeIdleConnections);
    else http.closeIdleConnections();
  };
  const shutdown = (signal: NodeJS.Signals) => {
    if (draining) return;
    draining = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    const forced = setTimeout(() => {
      logger.warn("grace period over; closing remaining connections");
      http.closeAllConnections();
    }, graceMs).unref();
    // Stops listening; net's close, as http's would sweep idle connections at once (see closeIdleConnections).
    NetServer.prototype.close.call(http, async () => {
      clearTimeout(forced);
      exitOnceClosed(close, { graceMs, logger });
    });
    for (const response of inFlight) closeAfter(response);
    closeIdleConnections();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  return { isDraining: () => draining };
}

/**
 * The connection closes once this response is sent, so a kept-alive client takes its next request to another
 * instance: `Connection: close` when its headers are still to be written (Node then closes the socket after it),
 * else the socket is ended after the response's last byte.
 */
function closeAfter(response: ServerResponse): void {
  if (!response.headersSent) return void response.setHeader("Connection", "close");
  const socket = response.socket;
  response.once("finish", () => socket?.end());
}

/**
 * Runs `close` (what the process opened: workers, database) and exits: 0 once it has finished, 1 when it has not
 * within `graceMs` (at least a second): a database that accepts connections and never answers would hold the process
 * for ever, and an orchestrator's SIGKILL after its own grace would log nothing.
 */
export function exitOnceClosed(close: () => Promise<void>, { graceMs, logger }: Omit<GracefulShutdown, "close">): void {
  const timer = setTimeout(
    () => {
      logger.error({ graceMs }, "stopping: closing the workers and the database did not finish in time; exiting");
      logger.flush?.();
      process.exit(1);
    },
    Math.max(graceMs, 1_000),
  );
  close().then(
    () => {
      clearTimeout(timer);
      logger.info("stopped");
      logger.flush?.();
      process.exit(0);
    },
    (error: unknown) => {
      clearTimeout(timer);
      logger.error({ err: error }, "stopping: closing the workers and the database failed");
      logger.flush?.();
      process.exit(1);
    },
  );
}
