import { serve } from "@hono/node-server";
import { Hono } from "hono";
const mode = process.argv[2];
const app = new Hono();
if (mode === "after") app.use(async (c, next) => { await next(); c.header("X-Request-Id", "req_123"); });
app.post("/api/v1/offers/quote", async (c) => {
  const body = mode === "json" ? await c.req.json() : await c.req.text();
  return c.body(JSON.stringify({ ok: true, n: typeof body }), 200, { "Content-Type": "application/json" });
});
const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => process.send?.({ port: info.port }));
process.on("SIGTERM", () => { s.close(() => process.exit(0)); (s as any).closeAllConnections(); });
