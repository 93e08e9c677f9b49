// orders/create: an order was placed. Its job protects the order when it carries the opt-in
// (app/shopify/orders.server.ts); the job is found by the order id, so a cancellation or refund that overtakes it
// waits for it.
import type { OrderPayload } from "../named-jobs.ts";
import { handledWebhook } from "./webhook.ts";
import type { ShopifyOrder } from "./shopify-order.ts";

/** Keeps what the protection job needs from Shopify's order. */
export function orderPayloadOf(order: ShopifyOrder): OrderPayload {
  return {
    id: String(order.id),
    admin_graphql_api_id: order.admin_graphql_api_id,
    currency: order.currency,
    subtotal_price: order.subtotal_price ?? order.total_price,
    email: order.email || order.contact_email || order.customer?.email || null,
    name: order.name ?? null,
    note_attributes: (order.note_attributes ?? []).map(({ name, value }) => ({
      name: String(name),
      value: String(value),
    })),
    line_items: (order.line_items ?? []).map(({ product_id, price, quantity }) => ({ product_id, price, quantity })),
  };
}

export const ordersCreate = handledWebhook({
  topic: "orders/create",
  job: "orders/create",
  jobPayload: orderPayloadOf,
  subject: (order: ShopifyOrder) => String(order.id),
});
