// Counts and times the API's requests for the metrics, labelled by the route's template (`/api/v1/plans/:id`), never
// the path a request names: ids would make a series per plan.
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { httpRequestDuration, httpRequests, UNMATCHED_ROUTE } from "./metrics.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function requestMetrics(): MiddlewareHandler {
  return async function measure(c, next) {
    const started = performance.now();
    await next();
    // The last route that matched is the handler's; when only the catch-all middleware matched, no route did.
    const template = routePath(c, -1);
    const labels = {
      method: METHODS.has(c.req.method) ? c.req.method : "other",
      route: template === "*" || template === "/*" || template === "" ? UNMATCHED_ROUTE : template,
      status: String(c.res.status),
    };
    httpRequests.inc(labels);
    httpRequestDuration.observe(labels, (performance.now() - started) / 1000);
  };
}
