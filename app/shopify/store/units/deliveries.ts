// The delivery jobs' units of work (app/shopify/deliveries.server.ts): a fulfilment or a carrier's scan of a protected
// order recorded in the core, each in its own transaction. Each returns false for an order the core does not know.
import {
  recordOrderDelivered,
  recordShopifyFulfillment,
  recordShopifyFulfillmentEvent,
  type Actor,
  type Database,
  type Services,
} from "../../../../server/index.ts";

type Fulfillment = Parameters<typeof recordShopifyFulfillment>[4];
type Scan = Parameters<typeof recordShopifyFulfillmentEvent>[5];

/** Only the order's delivery (a job queued before fulfilments were kept as shipments). */
export function saveOrderDelivered(db: Database, owner: Actor, orderId: string, deliveredAt: number): Promise<boolean> {
  return db.transaction((tx) => recordOrderDelivered(tx, owner, orderId, deliveredAt));
}

/** The fulfilment as the order's shipment. */
export function saveShopifyFulfillment(
  db: Database,
  services: Services,
  owner: Actor,
  orderId: string,
  fulfillment: Fulfillment,
): Promise<boolean> {
  return db.transaction((tx) => recordShopifyFulfillment(tx, services, owner, orderId, fulfillment));
}

/** A carrier's scan of the fulfilment's shipment. */
export function saveShopifyFulfillmentEvent(
  db: Database,
  services: Services,
  owner: Actor,
  shipment: { orderId: string; fulfillmentId: string },
  scan: Scan,
): Promise<boolean> {
  return db.transaction((tx) =>
    recordShopifyFulfillmentEvent(tx, services, owner, shipment.orderId, shipment.fulfillmentId, scan),
  );
}
