import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { BASE62, randomString } from "../domain/ids.ts";
import type { ApiEnv } from "./env.ts";

/** `req_` + 24 base62 characters: the id in X-Request-Id, error bodies and log lines. */
export const newRequestId = () => `req_${randomString(BASE62, 24)}`;

/** Gives every request an id (`req_` + 24 characters) in X-Request-Id and a logger that carries it. */
export function requestContext(logger: Logger): MiddlewareHandler<ApiEnv> {
  return async function identifyAndLog(c, next) {
    const requestId = newRequestId();
    // The child logger is made on first use: most requests log nothing but their closing line, and none when the
    // level is above info (a child per request was a measurable share of a quote's CPU).
    let log: Logger | undefined;
    const requestLog = () => (log ??= logger.child({ request_id: requestId }));
    c.set("requestId", requestId);
    c.set("requestLog", requestLog);
    // Set before the response exists: headers added to a finished response force @hono/node-server's slow path.
    c.header("X-Request-Id", requestId);
    const started = performance.now();
    await next();
    if (!logger.isLevelEnabled("info")) return;
    // Method, path and outcome only: headers and bodies (keys, tokens, e-mail addresses) are never logged.
    requestLog().info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      "request",
    );
  };
}
