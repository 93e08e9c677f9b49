// Every Shopify webhook (shopify.app.toml subscribes /webhooks/<topic>): authenticate.webhook checks the HMAC (401
// without a valid one, before anything is written), then app/shopify/webhooks.server.ts records the receipt and the
// topic's named job (app/shopify/webhooks/<topic>.ts) and runs it.
import type { ActionFunctionArgs } from "@remix-run/node";
import { shopify, shopifyRuntime } from "../shopify.server.ts";
import { receiveWebhook } from "../shopify/webhooks.server.ts";

export async function action({ request }: ActionFunctionArgs) {
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
