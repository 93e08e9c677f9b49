// Deliveries, from Shopify's fulfilment topics (fulfillments/create and fulfillments/update, app/shopify/webhooks/):
// when a fulfilment's shipment status is "delivered", the protected order's delivery is recorded in the core
// (orders.delivered_at), where the claim rules read it. Any other status changes nothing.
import { findShopifyOrderOwner, hasPendingShopifyJob, recordOrderDelivered } from "../../server/index.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import type { Job } from "./jobs.server.ts";
import type { JobHandlers } from "./named-jobs.ts";
import type { FulfillmentPayload } from "./webhooks/shopify-fulfillment.ts";

export function deliveryHandlers(deps: ShopifyDeps): Pick<JobHandlers, "fulfillments/create" | "fulfillments/update"> {
  return {
    "fulfillments/create": (job) => recordDelivery(deps, job),
    "fulfillments/update": (job) => recordDelivery(deps, job),
  };
}

async function recordDelivery(deps: ShopifyDeps, job: Job<FulfillmentPayload>): Promise<void> {
  const { order_id: orderId, shipment_status: shipmentStatus, updated_at: updatedAt } = job.payload;
  if (shipmentStatus !== "delivered") return;
  const owner = await findShopifyOrderOwner(deps.db, job.shop, orderId);
  if (!owner) {
    // Shopify does not order topics: a delivery may overtake the order's protection.
    if (await hasPendingShopifyJob(deps.db, { shop: job.shop, kind: "orders/create", subject: orderId }))
      throw new Error(`order ${orderId} is still being protected; retrying after its orders/create job`);
    return;
  }
  const now = deps.services.clock();
  const reportedAt = Date.parse(updatedAt);
  // When the fulfilment last changed is when it became delivered; never later than now.
  const deliveredAt = Number.isFinite(reportedAt) ? Math.min(reportedAt, now) : now;
  await deps.db.transaction((tx) => recordOrderDelivered(tx, owner, orderId, deliveredAt));
}
