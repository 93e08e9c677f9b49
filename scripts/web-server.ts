// npm start: the Remix app's production server (the web app: the pages, the API at /api/v1, the widget, the workers),
// over the build in build/. Listens on HOST:PORT (default 127.0.0.1:8787) like every server here, serves the build's
// static assets (fingerprinted /assets/* immutable for a year, anything else for an hour) and hands every other
// request to Remix, with the Node request in the load context (the API's per-IP rate limits key on its socket).
// SIGTERM/SIGINT (to npm too: the script execs node): the drain `npm run api` has (server/graceful-shutdown.ts), closing
// the app's runtimes (Shopify job queue, protection runtime) last. The probes /healthz and /readyz answer at the root,
// and METRICS_PORT opens the metrics listener, as on `npm run api` (server/observability/). `npm run demo` runs this
// same server.
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve, type HttpBindings } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { Hono, type Context } from "hono";
import pino, { type Logger } from "pino";
// The configuration's two modules, not the facade: the rest of the core comes with the build (its entry module), and
// importing server/index.ts here too would load a second copy of every module (about a third of a start's CPU).
import { loadConfig, type Config } from "../server/config.ts";
import { logStartupWarnings } from "../server/startup-warnings.ts";
import type { ReadinessSources } from "../server/index.ts";
import type { ApiLoadContext } from "../app/protection-api.server.ts";
import type * as EntryModule from "../app/entry.server.tsx";
import { SERVER_BUILD } from "./app-build.ts";
import { pageMetrics } from "./page-metrics.ts";

/** The build, with what app/entry.server.tsx exports for this server. */
type AppBuild = ServerBuild & { entry: { module: typeof EntryModule } };
type WebParts = AppBuild["entry"]["module"];

/** @hono/node-server's bindings (`c.env`): the Node request and response. */
type WebEnv = { Bindings: HttpBindings };
type WebApp = Hono<WebEnv>;

const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * Listens, then loads the build; resolves once requests can be answered, with the origin it serves and the build's
 * entry module (its copy of the core's names, for a caller that must not load server/ again).
 */
export async function startWebServer(config: Config, logger: Logger): Promise<{ origin: string; parts: WebParts }> {
  if (!fs.existsSync(SERVER_BUILD)) throw new Error("There is no build in build/: run `npm run build` first.");
  // Requests that arrive while the build loads wait for it.
  let serveWith!: (app: WebApp) => void;
  const app = new Promise<WebApp>((resolve) => (serveWith = resolve));
  const server = serve({
    fetch: async (request, env) => (await app).fetch(request, env),
    hostname: config.HOST,
    port: config.PORT,
  });
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const { address, port } = server.address() as AddressInfo;
  // PORT=0 picks a port: the app's configuration (read from the environment when the build loads) gets the real one.
  if (config.PORT === 0) process.env.PORT = String(port);
  const build: AppBuild = await import(pathToFileURL(SERVER_BUILD).href);
  const { exitGracefullyOnSignals, startProbeServer } = build.entry.module;
  const readiness: ReadinessSources = {
    db: () => build.entry.module.protectionDatabase(),
    databaseUrl: config.DATABASE_URL,
    // `drain` is set below, before the app can take its first request.
    isDraining: () => drain.isDraining(),
  };
  serveWith(webApp(build, readiness));
  const drain = exitGracefullyOnSignals(server, {
    graceMs: config.SHUTDOWN_GRACE_MS,
    logger,
    close: () => build.entry.module.closeRuntimes(),
  });
  await startProbeServer({ ...readiness, config, logger });
  return { origin: `http://${address.includes(":") ? `[${address}]` : address}:${port}`, parts: build.entry.module };
}

function webApp(build: AppBuild, readiness: ReadinessSources): WebApp {
  const assets = path.resolve(ROOT, build.assetsBuildDirectory);
  const cacheFor = (value: string) => (_path: string, c: { header(name: string, value: string): void }) =>
    c.header("Cache-Control", value);
  const handleRequest = createRequestHandler(build);
  const parts = build.entry.module;
  const app: WebApp = new Hono();
  app.route("/", parts.probeRoutes(readiness));
  app.use(
    `${build.publicPath}assets/*`,
    serveStatic({
      root: assets,
      rewriteRequestPath: (requestPath) => `/${requestPath.slice(build.publicPath.length)}`,
      onFound: cacheFor("public, max-age=31536000, immutable"),
    }),
  );
  app.use("*", serveStatic({ root: assets, onFound: cacheFor("public, max-age=3600") }));
  app.use("*", pageMetrics(build.routes, parts));
  app.all("*", (c) => {
    const checked = checkedRequest(c.req.raw, parts);
    return checked instanceof Response ? checked : handleRequest(checked, getLoadContext(c));
  });
  return app;
}

/**
 * What a request passes before anything reads its body (docs/api.md "Security"). Its path's body limit (app/body-limits.ts;
 * the API at /api/v1 checks its own, in its error shape): a declared Content-Length over it is 413 unread (what
 * the client sends on is discarded, as @hono/node-server drains it: 64 MiB or 500 ms at most, then the connection is
 * closed); a chunked body is counted and cut once past it. A page's POST from another
 * origin is 403 (the Remix check that would refuse it throws: a 500) and a page address with a malformed
 * percent-escape 400.
 */
function checkedRequest(request: Request, { bodyLimitFor, refusal }: WebParts): Request | Response {
  const { pathname } = new URL(request.url);
  const limit = bodyLimitFor(pathname);
  if (!limit) return request;
  if (limit.form) {
    try {
      decodeURIComponent(pathname);
    } catch {
      return refusal(400, "Bad Request: the address holds a malformed percent-escape.");
    }
    if (!SAFE_METHODS.has(request.method) && !sameOrigin(request.headers))
      return refusal(403, "Forbidden: this form was sent from another site.");
  }
  const declared = request.headers.get("content-length");
  if (declared !== null)
    return Number(declared) > limit.bytes ? refusal(413, `Content Too Large: at most ${limit.bytes} bytes.`) : request;
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return request;
  let received = 0;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      // The chunk that passes the limit still goes through, so the pages' form reader, which counts too, refuses it
      // with its own 413; a reader that does not count gets an error on the next.
      transform(chunk, controller) {
        if (received > limit.bytes) return controller.error(new Error(`the body passed ${limit.bytes} bytes`));
        received += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  return new Request(request, { body: counted, duplex: "half" } as RequestInit);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Remix's rule for an action (throwIfPotentialCSRFAttack): no Origin, or one whose host is the request's. */
function sameOrigin(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (origin === null) return true;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  try {
    return host !== null && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** The Node request (its socket has the client address) for the API route, as `npm run api` hands it to the API. */
function getLoadContext(c: Context<WebEnv>): ApiLoadContext {
  return { nodeBindings: c.env };
}

if (path.resolve(process.argv[1] ?? "") === import.meta.filename) {
  const config = loadConfig();
  const logger = pino({ level: config.LOG_LEVEL, base: { service: "web" } });
  logStartupWarnings(config, logger);
  const { origin } = await startWebServer(config, logger);
  logger.info({ url: origin, api: `${origin}/api/v1` }, "web app listening");
}
