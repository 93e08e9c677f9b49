// The standalone protection API: `npm run api`. Listens on HOST:PORT (127.0.0.1:8787), serves /api/v1, and on
// SIGTERM/SIGINT stops accepting connections, lets in-flight requests finish, then closes the database.
import { serve } from "@hono/node-server";
import { loadConfig } from "./config.ts";
import { createRuntime } from "./runtime.ts";
import { API_BASE_PATH } from "./http/app.ts";
import { createServerApp } from "./server-app.ts";
import { demoKeysFor } from "./demo-page.ts";

const runtime = createRuntime(loadConfig());
const { config, logger } = runtime;
runtime.api.startBackgroundJobs();

if (config.DEMO === "on") logger.warn("DEMO=on: serving the demo storefront page /demo (never on a production server)");
const demoKeys = config.DEMO === "on" ? demoKeysFor(runtime) : undefined;
const server = serve(
  { fetch: createServerApp({ api: runtime.api, demoKeys }).fetch, hostname: config.HOST, port: config.PORT },
  (info) => {
    logger.info(
      { url: `http://${info.address}:${info.port}${API_BASE_PATH}`, database: config.DATABASE_URL.split(":")[0] },
      "protection API listening",
    );
  },
);

let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: finishing in-flight requests");
  const forced = setTimeout(() => {
    logger.warn("grace period over; closing remaining connections");
    (server as unknown as { closeAllConnections(): void }).closeAllConnections();
  }, config.SHUTDOWN_GRACE_MS).unref();
  server.close(async () => {
    clearTimeout(forced);
    await runtime.close();
    logger.info("stopped");
    logger.flush?.();
    process.exit(0);
  });
  (server as unknown as { closeIdleConnections(): void }).closeIdleConnections();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
