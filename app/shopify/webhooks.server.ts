// Receiving a Shopify webhook, after `authenticate.webhook` has checked its HMAC: the receipt (unique by
// X-Shopify-Webhook-Id, so Shopify's retries and duplicates are dropped) and the job that does the topic's work
// commit in one transaction (saveWebhookReceipt); then the job runs at once. Shopify wants an answer within 5 s: past
// INLINE_BUDGET_MS the answer goes out and the job finishes (or is retried) in the background. Each topic — its payload's shape and
// the named job it feeds — is a module in app/shopify/webhooks/.
import { saveWebhookReceipt } from "./store/units/webhooks.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import type { JobQueue } from "./jobs.server.ts";
import { handledWebhookFor } from "./webhooks/topics.ts";

export const INLINE_BUDGET_MS = 3_000;

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
  deps: Pick<ShopifyDeps, "db" | "services" | "logger" | "sealer">,
  queue: Pick<JobQueue, "run">,
  webhook: VerifiedWebhook,
  budgetMs = INLINE_BUDGET_MS,
): Promise<"accepted" | "duplicate" | "ignored"> {
  const handled = handledWebhookFor(webhook.topic);
  if (!handled) {
    deps.logger.warn({ shop: webhook.shop, topic: webhook.topic }, "webhook for a topic we do not handle");
    return "ignored";
  }
  const { webhookId, eventId, shop, topic } = webhook;
  const job = await saveWebhookReceipt(
    deps.db,
    deps.services,
    { webhookId, eventId, shop, topic, receivedAt: deps.services.clock() },
    () => ({
      kind: handled.job,
      subject: handled.subject?.(webhook.payload),
      payload: handled.jobPayload(webhook.payload, deps.sealer),
    }),
  );
  if (!job) return "duplicate";
  let budget: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([queue.run(job), new Promise((resolve) => (budget = setTimeout(resolve, budgetMs)))]);
  clearTimeout(budget);
  return "accepted";
}
