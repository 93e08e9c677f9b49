// What `npm run api` and `npm run demo` serve: the probes (/healthz, /readyz), the widget's static assets, the demo
// storefront page (only when the demo runs: DEMO=on), and the protection API for every other path. A request goes to
// one or the other by its path, before any router: an API request reaches the API's own Hono app straight away,
// without a second router, context and middleware chain in front of it (a wrapping app cost every quote that). It
// reaches the API with @hono/node-server's bindings (the Node request and its socket), so the rate limiter's per-IP
// and edge policies see the client address.
import { Hono } from "hono";
import { getPath } from "hono/utils/url";
import { WIDGET_PATH, widgetAssetResponse } from "./widget-assets.ts";
import { DEMO_PATH, demoPageResponse, type DemoKeys } from "./demo-page.ts";
import { probeRoutes, type ReadinessSources } from "./observability/probes.ts";

export interface ServerAppParts {
  api: { fetch(request: Request, env?: unknown): Response | Promise<Response> };
  /** The demo merchant's keys: set only when the demo runs, and then /demo is served (GET the page, POST an order). */
  demoKeys?: () => Promise<DemoKeys>;
  /** Where the widget build is (default packages/widget/dist). */
  widgetDist?: string;
  /** What /readyz checks; unset: no probes on this app. */
  readiness?: ReadinessSources;
}

const PROBE_PATHS = new Set(["/healthz", "/readyz"]);

export function createServerApp({ api, demoKeys, widgetDist, readiness }: ServerAppParts) {
  // The server's own paths; what they do not answer (another method, an unknown asset) the API answers, as a 404
  // or 405 in its error shape.
  const own = new Hono();
  if (readiness) own.route("/", probeRoutes(readiness));
  own.all(`${WIDGET_PATH}*`, async (c, next) => widgetAssetResponse(c.req.raw, widgetDist) ?? next());
  if (demoKeys)
    own.on(["GET", "POST"], DEMO_PATH, async (c, next) => (await demoPageResponse(c.req.raw, demoKeys, api)) ?? next());
  own.notFound((c) => api.fetch(c.req.raw, c.env));
  const isOwnPath = (path: string) =>
    (readiness !== undefined && PROBE_PATHS.has(path)) ||
    path.startsWith(WIDGET_PATH.slice(0, -1)) ||
    (demoKeys !== undefined && path === DEMO_PATH);
  return {
    fetch: (request: Request, env?: unknown): Response | Promise<Response> =>
      isOwnPath(getPath(request)) ? own.fetch(request, env) : api.fetch(request, env),
  };
}
