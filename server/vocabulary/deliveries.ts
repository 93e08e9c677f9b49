// Delivery facts' vocabulary (docs/api.md "Delivery facts"): what a carrier can say about a shipment, where a
// shipment was reported from, and the states derived from what the carriers said (server/domain/delivery-states.ts).

/** What a carrier scan says: the statuses a shipment event may carry. */
export const SHIPMENT_EVENT_STATUSES = [
  "in_transit",
  "out_for_delivery",
  "attempted_delivery",
  "delayed",
  "delivered",
  "failure",
  "returned_to_sender",
] as const;
export type ShipmentEventStatus = (typeof SHIPMENT_EVENT_STATUSES)[number];

/** Who reported the shipment: the Shopify app (from the shop's fulfilments) or the merchant's cart through the API. */
export const SHIPMENT_SOURCES = ["shopify", "api"] as const;
export type ShipmentSource = (typeof SHIPMENT_SOURCES)[number];

/**
 * What the carriers' word alone says, kept on the shipment when an event arrives: `pending` (no scan yet), then the
 * latest scan's meaning.
 */
export const CARRIER_STATUSES = ["pending", "in_transit", "delivered", "failed", "returned_to_sender"] as const;
export type CarrierStatus = (typeof CARRIER_STATUSES)[number];

/**
 * A shipment's state at a time: the carrier status, or `stalled` (presumed lost) when a pending or moving parcel
 * has had no scan for the stall period.
 */
export const SHIPMENT_STATES = [
  "pending",
  "in_transit",
  "stalled",
  "delivered",
  "failed",
  "returned_to_sender",
] as const;
export type ShipmentState = (typeof SHIPMENT_STATES)[number];

/** An order's state: its shipments' state that matters most to a claim, or `not_shipped` before the first one. */
export const ORDER_DELIVERY_STATES = ["not_shipped", ...SHIPMENT_STATES] as const;
export type OrderDeliveryState = (typeof ORDER_DELIVERY_STATES)[number];
