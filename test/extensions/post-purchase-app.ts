// The app side of the post-purchase blocks for their tests: the Shopify app booted through its real wiring
// (test/support/shopify-app.ts) with installed shops, orders protected by a signed orders/create webhook, and the
// status route (app/routes/extensions.protection-status.ts) called as Remix calls it or served on loopback.
import { once } from "node:events";
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { startShopifyApp, type ShopifyAppHarness } from "../support/shopify-app.ts";
import { orderPayload, shopifyId, TEST_APP } from "../support/shopify.ts";
import type { Dialect } from "../support/databases.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";

export const STATUS_URL = `${TEST_APP.SHOPIFY_APP_URL}/extensions/protection-status`;
/** Where the app puts the portal (PORTAL_URL unset): its own /portal. */
export const PORTAL_URL = `${TEST_APP.SHOPIFY_APP_URL}/portal`;

export interface PostPurchaseApp {
  app: ShopifyAppHarness;
  /** Delivers an orders/create for `shop` (opted in unless told otherwise) and waits for its jobs. */
  placeOrder(shop: string, options?: { optedIn?: boolean }): Promise<{ orderId: string }>;
  /** The plan the order got (undefined without one). */
  planOf(orderId: string): Promise<{ id: string; referenceNumber: string; freeLookEndsAt: number } | undefined>;
  /** The route's answer, thrown Responses (the library's 401 and preflight) included, as Remix sends them. */
  call(request: Request): Promise<Response>;
  /** The route on a loopback HTTP server (for the extension in happy-dom); its origin. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function startPostPurchaseApp(dialect: Dialect, shops: string[]): Promise<PostPurchaseApp> {
  const app = await startShopifyApp({ dialect, shops });
  for (const shop of shops) await app.install(shop);
  const route = await import("../../app/routes/extensions.protection-status.ts");
  const db = app.database.db;
  let server: ReturnType<typeof serve> | undefined;

  async function call(request: Request): Promise<Response> {
    const handler = request.method === "GET" || request.method === "HEAD" ? route.loader : route.action;
    try {
      return await handler({ request, params: {}, context: {} });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  return {
    app,
    call,
    async placeOrder(shop, { optedIn = true } = {}) {
      const installation = (await db.get<{ product_id: string; tiers: string }>(
        "SELECT product_id, tiers FROM shop_installations WHERE shop = ?",
        [shop],
      ))!;
      const [tier] = JSON.parse(installation.tiers) as { priceCents: number; variantId: string }[];
      const order = orderPayload({
        id: shopifyId(),
        lines: [
          { productId: 111, price: "30.00" },
          ...(optedIn
            ? [
                {
                  productId: installation.product_id,
                  variantId: tier.variantId,
                  price: formatDecimalAmount(tier.priceCents, "USD"),
                },
              ]
            : []),
        ],
        attributes: optedIn ? { _protection: "accepted" } : {},
      });
      const status = await app.deliver({ topic: "orders/create", shop, payload: order });
      if (status !== 200) throw new Error(`orders/create answered ${status}`);
      await app.settled();
      return { orderId: String(order.id) };
    },
    async planOf(orderId) {
      const row = await db.get<{ id: string; reference_number: string; free_look_ends_at: number | string }>(
        `SELECT p.id, p.reference_number, p.free_look_ends_at FROM shopify_orders s JOIN plans p ON p.id = s.plan_id
         WHERE s.order_id = ?`,
        [orderId],
      );
      return (
        row && { id: row.id, referenceNumber: row.reference_number, freeLookEndsAt: Number(row.free_look_ends_at) }
      );
    },
    async listen() {
      // The extension's fetch reaches the route as Shopify's CDN-hosted sandbox would reach the app: over HTTP.
      server = serve({
        fetch: (request) =>
          new URL(request.url).pathname === "/extensions/protection-status"
            ? call(request)
            : new Response("Not found", { status: 404 }),
        port: 0,
        hostname: "127.0.0.1",
      });
      await once(server, "listening");
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async close() {
      server?.close();
      await app.close();
    },
  };
}
