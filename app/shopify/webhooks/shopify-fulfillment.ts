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
}

/** What the delivery job keeps: the order, and the shipment's status and time (no addresses, no tracking). */
export interface FulfillmentPayload {
  order_id: string;
  shipment_status: ShipmentStatus | null;
  updated_at: string;
}

export const fulfillmentPayloadOf = (fulfillment: ShopifyFulfillment): FulfillmentPayload => ({
  order_id: String(fulfillment.order_id),
  shipment_status: fulfillment.shipment_status ?? null,
  updated_at: fulfillment.updated_at,
});
