// fulfillments/create: a shipment of the order was made; when it is already delivered (a fulfilment marked delivered
// at once, or a local delivery), its job records the delivery on the protected order.
import { handledWebhook } from "./webhook.ts";
import { fulfillmentPayloadOf, type ShopifyFulfillment } from "./shopify-fulfillment.ts";

export const fulfillmentsCreate = handledWebhook({
  topic: "fulfillments/create",
  job: "fulfillments/create",
  jobPayload: fulfillmentPayloadOf,
  subject: (fulfillment: ShopifyFulfillment) => String(fulfillment.order_id),
});
