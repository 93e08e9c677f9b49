// What `npm run api` and `npm run demo` serve, as one Hono app: the probes (/healthz, /readyz), the widget's static
// assets, the demo storefront page (only when the demo runs: DEMO=on), then the protection API. Every request reaches
// the API with @hono/node-server's bindings (the Node request and its socket), so the rate limiter's per-IP and edge
// policies see the client address.
import { Hono } from "hono";
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

export function createServerApp({ api, demoKeys, widgetDist, readiness }: ServerAppParts) {
  const app = new Hono();
  if (readiness) app.route("/", probeRoutes(readiness));
  app.all(`${WIDGET_PATH}*`, async (c, next) => widgetAssetResponse(c.req.raw, widgetDist) ?? next());
  if (demoKeys)
    app.on(["GET", "POST"], DEMO_PATH, async (c, next) => (await demoPageResponse(c.req.raw, demoKeys, api)) ?? next());
  app.all("*", (c) => api.fetch(c.req.raw, c.env));
  return app;
}
