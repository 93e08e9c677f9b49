// Shopify's Fulfillment webhook body (fulfillments/create, fulfillments/update), as documented for the REST
// Fulfillment resource: the fields the app reads. shipment_status is the carrier's latest word on the shipment.

export type ShipmentStatus =
  | "label_printed"
  | "label_purchased"
  | "attempted_delivery"
  | "ready_for_pickup"
  | "confirmed"
  | "in_transit"
  | "out_for_delivery"
  | "delivered"
  | "failure";

export interface ShopifyFulfillment {
  id: number;
  order_id: number;
  status: "pending" | "open" | "success" | "cancelled" | "error" | "failure";
  /** Null until a carrier reports on the shipment. */
  shipment_status: ShipmentStatus | null;
  created_at: string;
  /** When the fulfilment last changed: with shipment_status "delivered", when the delivery was reported. */
  updated_at: string;
  tracking_company?: string | null;
  tracking_number?: string | null;
  /** The order lines it fulfils; requires_shipping false on a line that ships nothing (the protection line). */
  line_items?: { requires_shipping?: boolean }[];
}

/**
 * What the delivery job keeps: the order, the fulfilment (its id, carrier and tracking number: the order's shipment)
 * and the shipment's status and time; no addresses. id, tracking_company and tracking_number are absent on jobs queued
 * before they were kept.
 */
export interface FulfillmentPayload {
  order_id: string;
  id?: string;
  tracking_company?: string | null;
  tracking_number?: string | null;
  /** False: none of its lines ships (the protection line the app fulfils itself): no parcel. Absent on older jobs. */
  ships?: boolean;
  shipment_status: ShipmentStatus | null;
  updated_at: string;
}

export const fulfillmentPayloadOf = (fulfillment: ShopifyFulfillment): FulfillmentPayload => ({
  order_id: String(fulfillment.order_id),
  id: String(fulfillment.id),
  tracking_company: fulfillment.tracking_company ?? null,
  tracking_number: fulfillment.tracking_number ?? null,
  ships: !(fulfillment.line_items?.length && fulfillment.line_items.every((line) => line.requires_shipping === false)),
  shipment_status: fulfillment.shipment_status ?? null,
  updated_at: fulfillment.updated_at,
});
