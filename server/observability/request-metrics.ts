// Counts and times requests for the metrics, labelled by the route's template (`/api/v1/plans/:id`), never the path a
// request names: ids would make a series per plan. The API's routes here; the web app's pages in
// scripts/page-metrics.ts, with the same metrics.
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { httpRequestDuration, httpRequests, UNMATCHED_ROUTE } from "./metrics.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** One answered request: `route` is a template or UNMATCHED_ROUTE; `startedAt` is its performance.now() on arrival. */
export function recordRequest(method: string, route: string, status: number, startedAt: number): void {
  const labels = { method: METHODS.has(method) ? method : "other", route, status: String(status) };
  httpRequests.inc(labels);
  httpRequestDuration.observe(labels, (performance.now() - startedAt) / 1000);
}

/** The API's middleware: the template of the route that answered. */
export function requestMetrics(): MiddlewareHandler {
  return async function measure(c, next) {
    const started = performance.now();
    await next();
    // The last route that matched is the handler's; when only the catch-all middleware matched, no route did.
    const template = routePath(c, -1);
    const matched = template !== "*" && template !== "/*" && template !== "";
    recordRequest(c.req.method, matched ? template : UNMATCHED_ROUTE, c.res.status, started);
  };
}
