// fulfillment_events/create: a carrier scanned a fulfilment (in transit, out for delivery, delivered, …); its job
// records the scan on the protected order's shipment, whose delivery state is then recomputed.
import { handledWebhook } from "./webhook.ts";
import { fulfillmentEventPayloadOf, type ShopifyFulfillmentEvent } from "./shopify-fulfillment-event.ts";

export const fulfillmentEventsCreate = handledWebhook({
  topic: "fulfillment_events/create",
  job: "fulfillment_events/create",
  jobPayload: fulfillmentEventPayloadOf,
  subject: (event: ShopifyFulfillmentEvent) => String(event.order_id),
});
