// The types of the events in the outbox (docs/api.md "Webhooks"): what endpoints subscribe to, and the test event.

export const EVENT_TYPES = [
  "offer.declined",
  "protection.confirmed",
  "protection.voided",
  "protection.cancelled",
  // The merchant set or corrected the buyer's address (POST /purchases/{id}/customer-email); the address is not in it.
  "protection.updated",
  "order.merchant_refunded",
  "claim.created",
  "claim.updated",
  // A protected order's shipment was reported, changed or scanned (docs/api.md "Delivery facts").
  "shipment.updated",
] as const;
/** The event types endpoints subscribe to. */
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * "Send a test event" on the dashboard's Webhooks page: its data is the endpoint itself, and it goes to that endpoint
 * only, never fanned out, so no endpoint subscribes to it (server/domain/webhook-deliveries.ts sendTestEvent).
 */
export const TEST_EVENT_TYPE = "webhook_endpoint.test";

/** The type of any event in the outbox. */
export type StoredEventType = EventType | typeof TEST_EVENT_TYPE;
