import { camelCaseKeys } from "../casing.ts";
import { pathSegment, type Transport } from "../request.ts";
import type { OrderDelivery, Shipment, TrackingConnection } from "../responses.ts";
import type { AftershipConnectionParams, ShipmentEventParams, ShipmentParams } from "../types.ts";

/**
 * Delivery facts of protected orders (docs/api.md "Delivery facts"): report a shipment and its carriers' scans (secret
 * key), or connect AfterShip to report the scans (docs/api.md "Tracking callbacks"), read an order's shipments with
 * their derived states (secret or restricted key).
 */
export class Shipments {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** POST /orders/{orderId}/shipments: the same tracking number again is the same shipment. */
  create(orderId: string, payload: ShipmentParams, idempotencyKey?: string): Promise<Shipment> {
    const path = `/orders/${pathSegment("orderId", orderId)}/shipments`;
    return this.#transport.body({ method: "POST", path, body: JSON.stringify(camelCaseKeys(payload)), idempotencyKey });
  }

  /** POST /shipments/{shipmentId}/events: a carrier's scan; the same status at the same time again changes nothing. */
  createEvent(shipmentId: string, payload: ShipmentEventParams, idempotencyKey?: string): Promise<Shipment> {
    const path = `/shipments/${pathSegment("shipmentId", shipmentId)}/events`;
    return this.#transport.body({ method: "POST", path, body: JSON.stringify(camelCaseKeys(payload)), idempotencyKey });
  }

  /**
   * POST /tracking/aftership: connect your AfterShip account for the key's mode (secret key). The secret is kept
   * sealed and never shown again; give AfterShip the answer's `callbackPath` on the API's host as its webhook URL, and
   * its tracking updates of the shipments you reported become their scans.
   */
  connectAftership(payload: AftershipConnectionParams, idempotencyKey?: string): Promise<TrackingConnection> {
    return this.#transport.body({
      method: "POST",
      path: "/tracking/aftership",
      body: JSON.stringify(payload),
      idempotencyKey,
    });
  }

  /** GET /orders/{orderId}/delivery: the order's shipments with their scans and states, and the order's state. */
  orderDelivery(orderId: string): Promise<OrderDelivery> {
    return this.#transport.body({ method: "GET", path: `/orders/${pathSegment("orderId", orderId)}/delivery` });
  }
}
