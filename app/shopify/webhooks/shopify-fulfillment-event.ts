// Shopify's FulfillmentEvent webhook body (fulfillment_events/create), as documented for the REST FulfillmentEvent
// resource: a carrier's scan of a fulfilment. The fields the app reads; the address fields are not kept.

/**
 * The statuses of the pinned API version (2026-10: FulfillmentEventStatus), lower-case as the REST body spells them;
 * returning_to_sender and picked_up are in Shopify's unstable version, read here so a newer version needs no change.
 */
export type FulfillmentEventStatus =
  | "attempted_delivery"
  | "carrier_picked_up"
  | "confirmed"
  | "delayed"
  | "delivered"
  | "failure"
  | "in_transit"
  | "label_printed"
  | "label_purchased"
  | "out_for_delivery"
  | "ready_for_pickup"
  | "picked_up"
  | "returning_to_sender";

export interface ShopifyFulfillmentEvent {
  id: number;
  fulfillment_id: number;
  order_id: number;
  status: FulfillmentEventStatus;
  message?: string | null;
  /** When the scan happened (the carrier's time). */
  happened_at: string;
  city?: string | null;
  province?: string | null;
  country?: string | null;
  created_at: string;
}

/** What the delivery job keeps: the order, the fulfilment, the scan's status, time, town and message. */
export interface FulfillmentEventPayload {
  order_id: string;
  fulfillment_id: string;
  status: FulfillmentEventStatus;
  happened_at: string;
  /** "City, Province, Country" as far as Shopify gives it; null without any. */
  location: string | null;
  message: string | null;
}

export const fulfillmentEventPayloadOf = (event: ShopifyFulfillmentEvent): FulfillmentEventPayload => ({
  order_id: String(event.order_id),
  fulfillment_id: String(event.fulfillment_id),
  status: event.status,
  happened_at: event.happened_at,
  location: [event.city, event.province, event.country].filter(Boolean).join(", ") || null,
  message: event.message || null,
});
