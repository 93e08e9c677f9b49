// orders/cancelled: its job voids the order's plan.
import { handledWebhook } from "./webhook.ts";
import type { ShopifyOrder } from "./shopify-order.ts";

export const ordersCancelled = handledWebhook({
  topic: "orders/cancelled",
  job: "orders/cancelled",
  jobPayload: (order: ShopifyOrder) => ({ id: String(order.id) }),
});
