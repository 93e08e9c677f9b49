// Every Shopify webhook (shopify.app.toml subscribes /webhooks/<topic>): authenticate.webhook checks the HMAC (401
// without a valid one, before anything is written), then app/shopify/webhooks.server.ts records the receipt and the
// topic's named job (app/shopify/webhooks/<topic>.ts) and runs it.
import type { ActionFunctionArgs } from "@remix-run/node";
import { shopify, shopifyRuntime } from "../shopify.server.ts";
import { receiveWebhook } from "../shopify/webhooks.server.ts";

// Shopify only POSTs. Any other method is the caller's mistake, answered as one; without the loader Remix would
// log a GET as an unexpected server error.
const methodNotAllowed = () =>
  new Response("Method Not Allowed\n", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" },
  });

export const loader = methodNotAllowed;

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const app = shopify();
  const runtime = shopifyRuntime();
  if (!app || !runtime) return new Response("Shopify is not configured (demo mode)", { status: 503 });
  const { shop, webhookId, payload } = await app.authenticate.webhook(request);
  await receiveWebhook(runtime.deps, runtime.queue, {
    shop,
    topic: request.headers.get("X-Shopify-Topic") ?? "",
    webhookId,
    eventId: request.headers.get("X-Shopify-Event-Id"),
    payload,
  });
  return new Response(null, { status: 200 });
}
