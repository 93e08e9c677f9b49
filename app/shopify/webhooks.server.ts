// Receiving a Shopify webhook, after `authenticate.webhook` has checked its HMAC: the receipt (unique by
// X-Shopify-Webhook-Id, so Shopify's retries and duplicates are dropped) and the job that does the topic's work
// commit in one transaction; then the job runs at once. Shopify wants an answer within 5 s: past INLINE_BUDGET_MS
// the answer goes out and the job finishes (or is retried) in the background.
import type { ShopifyDeps } from "./deps.server.ts";
import { enqueueJob, type JobQueue } from "./jobs.server.ts";
import { orderPayloadOf } from "./orders.server.ts";

export const INLINE_BUDGET_MS = 3_000;

/** The topics we subscribe to (shopify.app.toml), each with what its job keeps of the payload. */
const PAYLOAD_OF: Record<string, (payload: any) => unknown> = {
  "orders/create": orderPayloadOf,
  "orders/cancelled": (order) => ({ id: String(order.id) }),
  "refunds/create": (refund) => ({ id: String(refund.id), order_id: String(refund.order_id), transactions: refund.transactions ?? [] }),
  "app/uninstalled": () => ({}),
  "app/scopes_update": (payload) => ({ current: payload.current ?? [] }),
  "customers/data_request": (payload) => payload,
  "customers/redact": (payload) => payload,
  "shop/redact": () => ({}),
};

export const SUBSCRIBED_TOPICS = Object.keys(PAYLOAD_OF);

export interface VerifiedWebhook {
  shop: string;
  /** As in X-Shopify-Topic: "orders/create". */
  topic: string;
  webhookId: string;
  eventId: string | null;
  payload: unknown;
}

/** Returns "duplicate" for a webhook id seen before, "ignored" for a topic we do not handle, else "accepted". */
export async function receiveWebhook(
  deps: ShopifyDeps,
  queue: JobQueue,
  webhook: VerifiedWebhook,
  budgetMs = INLINE_BUDGET_MS,
): Promise<"accepted" | "duplicate" | "ignored"> {
  const keep = PAYLOAD_OF[webhook.topic];
  if (!keep) {
    deps.logger.warn({ shop: webhook.shop, topic: webhook.topic }, "webhook for a topic we do not handle");
    return "ignored";
  }
  const job = await deps.db.transaction(async (tx) => {
    const fresh = await tx.all(
      `INSERT INTO shopify_webhook_receipts (webhook_id, event_id, shop, topic, received_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (webhook_id) DO NOTHING RETURNING webhook_id`,
      [webhook.webhookId, webhook.eventId, webhook.shop, webhook.topic, deps.services.clock()],
    );
    if (fresh.length === 0) return undefined;
    // An order's jobs can be found by its id: a cancellation or refund that overtakes its order waits for this one.
    const subject = webhook.topic === "orders/create" ? String((webhook.payload as { id?: unknown }).id) : undefined;
    return enqueueJob(tx, deps.services, { shop: webhook.shop, kind: webhook.topic, subject, payload: keep(webhook.payload), claimed: true });
  });
  if (!job) return "duplicate";
  let budget: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([queue.run(job), new Promise((resolve) => (budget = setTimeout(resolve, budgetMs)))]);
  clearTimeout(budget);
  return "accepted";
}
