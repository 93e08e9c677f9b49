// fulfillments/update: a shipment changed, e.g. its carrier reported it delivered; its job then records the delivery
// on the protected order (a claim that the goods never arrived is no longer approved by a rule).
import { handledWebhook } from "./webhook.ts";
import { fulfillmentPayloadOf, type ShopifyFulfillment } from "./shopify-fulfillment.ts";

export const fulfillmentsUpdate = handledWebhook({
  topic: "fulfillments/update",
  job: "fulfillments/update",
  jobPayload: fulfillmentPayloadOf,
  subject: (fulfillment: ShopifyFulfillment) => String(fulfillment.order_id),
});
