// Every Shopify webhook delivery accepted (shopify_webhook_receipts), by X-Shopify-Webhook-Id: Shopify retries and
// may deliver twice, and the unique id is what drops the duplicates.
import type { Queryable } from "../../../server/index.ts";

export interface ShopifyWebhookReceipt {
  webhookId: string;
  eventId: string | null;
  shop: string;
  topic: string;
  receivedAt: number;
}

/** Records the receipt; false when this webhook id was received before. */
export async function insertShopifyWebhookReceipt(tx: Queryable, receipt: ShopifyWebhookReceipt): Promise<boolean> {
  const inserted = await tx.all(
    `INSERT INTO shopify_webhook_receipts (webhook_id, event_id, shop, topic, received_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (webhook_id) DO NOTHING RETURNING webhook_id`,
    [receipt.webhookId, receipt.eventId, receipt.shop, receipt.topic, receipt.receivedAt],
  );
  return inserted.length > 0;
}

/** Removes receipts older than `before`. Returns how many went. */
export function purgeShopifyWebhookReceipts(tx: Queryable, before: number): Promise<number> {
  return tx.run("DELETE FROM shopify_webhook_receipts WHERE received_at < ?", [before]);
}
