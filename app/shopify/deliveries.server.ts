// Delivery facts from Shopify (docs/shopify.md "Delivery facts from Shopify"): a fulfilment of a protected order
// (fulfillments/create, /update) is its shipment, with the fulfilment's carrier and tracking number, delivered when its
// shipment status says so; a fulfilment event (fulfillment_events/create) is a carrier's scan of it. Both are recorded
// in the core, which derives the delivery states and records the order's delivery (orders.delivered_at, which the
// claim rules read). An order without protection changes nothing.
import type { ShipmentEventStatus } from "../../server/index.ts";
import { hasPendingShopifyJob } from "./store/jobs.ts";
import { findShopifyOrderOwner } from "./store/orders.ts";
import { saveOrderDelivered, saveShopifyFulfillment, saveShopifyFulfillmentEvent } from "./store/units/deliveries.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import type { Job } from "./jobs.server.ts";
import type { JobHandlers } from "./named-jobs.ts";
import type { FulfillmentPayload } from "./webhooks/shopify-fulfillment.ts";
import type { FulfillmentEventPayload, FulfillmentEventStatus } from "./webhooks/shopify-fulfillment-event.ts";

export function deliveryHandlers(
  deps: ShopifyDeps,
): Pick<JobHandlers, "fulfillments/create" | "fulfillments/update" | "fulfillment_events/create"> {
  return {
    "fulfillments/create": (job) => recordFulfillment(deps, job),
    "fulfillments/update": (job) => recordFulfillment(deps, job),
    "fulfillment_events/create": (job) => recordFulfillmentEvent(deps, job),
  };
}

/**
 * What a Shopify fulfilment event's status is as a scan; null for the ones no carrier scan stands behind (a label,
 * a confirmation) — they leave the shipment as it was. Picked up by the buyer is a delivery.
 */
const SCAN_STATUS: Record<FulfillmentEventStatus, ShipmentEventStatus | null> = {
  label_printed: null,
  label_purchased: null,
  confirmed: null,
  carrier_picked_up: "in_transit",
  in_transit: "in_transit",
  ready_for_pickup: "out_for_delivery",
  out_for_delivery: "out_for_delivery",
  attempted_delivery: "attempted_delivery",
  delayed: "delayed",
  delivered: "delivered",
  picked_up: "delivered",
  failure: "failure",
  returning_to_sender: "returned_to_sender",
};

/** The protected order's owner, or null for an order without protection; retried while its protection is pending. */
export async function protectedOrderOwner(deps: ShopifyDeps, shop: string, orderId: string) {
  const owner = await findShopifyOrderOwner(deps.db, shop, orderId);
  // Shopify does not order topics: a fulfilment may overtake the order's protection.
  if (!owner && (await hasPendingShopifyJob(deps.db, { shop, kind: "orders/create", subject: orderId })))
    throw new Error(`order ${orderId} is still being protected; retrying after its orders/create job`);
  return owner ?? null;
}

/** A time Shopify reported, never later than now (a carrier's clock may run ahead); now when unreadable. */
function reportedTime(deps: ShopifyDeps, at: string): number {
  const now = deps.services.clock();
  const reported = Date.parse(at);
  return Number.isFinite(reported) ? Math.min(reported, now) : now;
}

async function recordFulfillment(deps: ShopifyDeps, job: Job<FulfillmentPayload>): Promise<void> {
  const { order_id: orderId, id, shipment_status: shipmentStatus, updated_at: updatedAt } = job.payload;
  // A fulfilment of lines that ship nothing (the protection line, fulfilled by the app at once) is no parcel: as a
  // shipment it would never be scanned and would stall into a presumed loss.
  if (job.payload.ships === false) return;
  const owner = await protectedOrderOwner(deps, job.shop, orderId);
  if (!owner) return;
  // When the fulfilment last changed is when it became delivered.
  const deliveredAt = shipmentStatus === "delivered" ? reportedTime(deps, updatedAt) : null;
  if (id === undefined) {
    // A job queued before fulfilments were kept as shipments: only its delivery.
    if (deliveredAt !== null) await saveOrderDelivered(deps.db, owner, orderId, deliveredAt);
    return;
  }
  const fulfillment = {
    id,
    carrier: job.payload.tracking_company ?? null,
    trackingNumber: job.payload.tracking_number ?? null,
    deliveredAt,
  };
  await saveShopifyFulfillment(deps.db, deps.services, owner, orderId, fulfillment);
}

async function recordFulfillmentEvent(deps: ShopifyDeps, job: Job<FulfillmentEventPayload>): Promise<void> {
  const { order_id: orderId, fulfillment_id: fulfillmentId, status, happened_at: happenedAt } = job.payload;
  const scanStatus = SCAN_STATUS[status] ?? null;
  if (scanStatus === null) return;
  const owner = await protectedOrderOwner(deps, job.shop, orderId);
  if (!owner) return;
  const scan = {
    status: scanStatus,
    occurredAt: reportedTime(deps, happenedAt),
    location: job.payload.location,
    message: job.payload.message,
  };
  await saveShopifyFulfillmentEvent(deps.db, deps.services, owner, { orderId, fulfillmentId }, scan);
}
