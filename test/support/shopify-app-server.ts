// The Shopify app in a process of its own, for what needs one: a benchmark (the load generator must not share its
// event loop) and a crash test (SIGKILL, then a restart on the same database). The harness of shopify-app.ts behind
// node:http, on a database and data directory the parent owns.
//
//   node test/support/shopify-app-server.ts <shop> <databaseUrl> <dataDir>
//
// When ready it sends its parent (IPC) `{ port, productId, tiers }`. SIGTERM: closes and exits 0 (so --cpu-prof
// writes its profile).
import { once } from "node:events";
import { serve } from "@hono/node-server";
import { startShopifyApp } from "./shopify-app.ts";
import { isPostgresUrl } from "../../server/store/open.ts";
import type { FeeTier } from "@purchase-protection/contract";

export interface AppServerReady {
  port: number;
  productId: string;
  tiers: FeeTier[];
}

const [shop, databaseUrl, dataDir] = process.argv.slice(2);
const dialect = isPostgresUrl(databaseUrl) ? "postgres" : "sqlite";
const app = await startShopifyApp({
  dialect,
  shops: [shop],
  existing: { databaseUrl, dataDir },
  env: { LOG_LEVEL: "silent" },
});
// After a restart the shop is installed already (and the dead process's jobs may still be leased: no waiting on them).
if (!(await app.runtime().deps.installation(shop))) await app.install(shop);
const installation = (await app.runtime().deps.installation(shop))!;
const server = serve({ fetch: app.handle, port: 0, hostname: "127.0.0.1" });
await once(server, "listening");
process.on("SIGTERM", async () => {
  server.close();
  await app.close();
  process.exit(0);
});
const ready: AppServerReady = {
  port: (server.address() as { port: number }).port,
  productId: installation.productId!,
  tiers: [...installation.tiers],
};
process.send!(ready);
