// Delivery facts (docs/api.md "Delivery facts"): the shipments of a protected order and their carriers' scans, from
// the merchant's cart (the API) or from the Shopify app (the shop's fulfilments and fulfilment events). Each change
// is made under the order's row lock with its shipment.updated event, recomputes what the scans say
// (delivery-states.ts) and records the order's delivery (orders.delivered_at, which the claim rules read) from the
// first delivered scan. A report that adds nothing changes nothing and appends no event.
//
// A tracking aggregator's callbacks (a later adapter) enter here too: the adapter verifies the callback, finds the
// shipment, and hands each scan to recordScan, as the API and the Shopify app do.
import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type {
  OrderDeliveryState,
  ShipmentEventStatus,
  ShipmentSource,
  ShipmentState,
} from "../vocabulary/deliveries.ts";
import { appendEvent } from "./events.ts";
import { withdrawLostApprovals } from "./claim-decisions.ts";
import { LOST_PARCEL_STATES } from "./claim-rules.ts";
import {
  carrierFactsOf,
  DEFAULT_STALLED_AFTER_DAYS,
  deriveOrderDelivery,
  deriveShipmentState,
  orderDeliveredAt,
  type DerivedOrderDelivery,
  type DerivedShipmentState,
} from "./delivery-states.ts";
import {
  findOrderByExternalId,
  findPlanOrderDeliveredAt,
  lockOrderByExternalId,
  markOrderDelivered,
  type OrderRecord,
} from "../store/orders.ts";
import {
  findOrderShipment,
  findShipment,
  insertShipment,
  insertShipmentEvent,
  listOrderShipments,
  listPlanShipments,
  listShipmentEvents,
  lockShipmentOrder,
  updateShipmentCarrierFacts,
  updateShipmentDetails,
  type ShipmentEventRecord,
  type ShipmentKey,
  type ShipmentRecord,
} from "../store/shipments.ts";

/** A scan may be reported up to this far ahead of the service's clock (the carrier's clock drifts); further is refused. */
export const SCAN_CLOCK_SKEW_MS = 5 * 60_000;

export interface ShipmentEventView {
  id: string;
  status: ShipmentEventStatus;
  occurredAt: string;
  location: string | null;
  message: string | null;
  recordedAt: string;
}

export interface ShipmentView {
  id: string;
  object: "shipment";
  orderId: string;
  source: ShipmentSource;
  carrier: string | null;
  trackingNumber: string | null;
  promisedDeliveryDate: string | null;
  state: ShipmentState;
  deliveredAt: string | null;
  lastScanAt: string | null;
  stalledSince: string | null;
  deliveryDeadline: string | null;
  overdue: boolean;
  events: ShipmentEventView[];
  createdAt: string;
  updatedAt: string;
  livemode: boolean;
}

export interface OrderDelivery {
  object: "order_delivery";
  orderId: string;
  state: OrderDeliveryState;
  deliveredAt: string | null;
  overdue: boolean;
  shipments: ShipmentView[];
  livemode: boolean;
}

export interface ShipmentReport {
  carrier: string | null;
  trackingNumber: string | null;
  promisedDeliveryDate?: string | null;
}

export interface ScanReport {
  status: ShipmentEventStatus;
  occurredAt: number;
  location?: string | null;
  message?: string | null;
}

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/**
 * POST /orders/{orderId}/shipments: the merchant reports a shipment of a protected order. The same tracking number
 * again is the same shipment: its carrier and promised date are updated when they differ, else nothing changes.
 */
export async function reportShipment(
  tx: Tx,
  services: Services,
  actor: Actor,
  externalOrderId: string,
  report: { carrier: string; trackingNumber: string; promisedDeliveryDate?: string },
): Promise<ShipmentView> {
  const order = await lockOrderByExternalId(tx, actor, externalOrderId);
  if (!order) throw notFound("protected order", externalOrderId, "orderId");
  const shipment = await upsertShipment(
    tx,
    services,
    actor,
    order,
    "api",
    { trackingNumber: report.trackingNumber },
    report,
  );
  return shipmentView(tx, services, actor, shipment);
}

/** POST /shipments/{shipmentId}/events: the merchant reports a carrier's scan of one of its shipments. */
export async function reportShipmentEvent(
  tx: Tx,
  services: Services,
  actor: Actor,
  shipmentId: string,
  scan: ScanReport,
): Promise<ShipmentView> {
  if (scan.occurredAt > services.clock() + SCAN_CLOCK_SKEW_MS)
    throw new DomainError(
      "invalid",
      "occurred_at_in_future",
      "A scan cannot have happened in the future.",
      "occurredAt",
    );
  const found = await findShipment(tx, actor, shipmentId);
  if (!found) throw notFound("shipment", shipmentId);
  await lockShipmentOrder(tx, found.orderRowId);
  const shipment = await recordScan(tx, services, actor, found, scan);
  return shipmentView(tx, services, actor, shipment);
}

/** GET /orders/{orderId}/delivery: the order's shipments with their scans and states, and the order's state. */
export async function getOrderDelivery(
  db: Tx,
  services: Services,
  actor: Actor,
  externalOrderId: string,
): Promise<OrderDelivery> {
  const order = await findOrderByExternalId(db, actor, externalOrderId);
  if (!order) throw notFound("protected order", externalOrderId, "orderId");
  const shipments = await listOrderShipments(db, order.id);
  const events = await listShipmentEvents(
    db,
    shipments.map((s) => s.id),
  );
  const states = shipments.map((s) => ({ shipment: s, derived: deriveState(services, s), deliveredAt: s.deliveredAt }));
  const delivery = deriveOrderDelivery(states);
  return {
    object: "order_delivery",
    orderId: externalOrderId,
    state: delivery.state,
    deliveredAt: isoOrNull(delivery.deliveredAt),
    overdue: delivery.overdue,
    shipments: states.map(({ shipment, derived }) =>
      viewOf(
        actor,
        shipment,
        derived,
        events.filter((e) => e.shipmentId === shipment.id),
      ),
    ),
    livemode: actor.mode === "live",
  };
}

/** What the shipments of the plan's order add up to now: the delivery facts the claim rules decide on. */
export async function deliveryOfPlan(db: Tx, services: Services, planId: string): Promise<DerivedOrderDelivery> {
  const shipments = await listPlanShipments(db, planId);
  return deriveOrderDelivery(
    shipments.map((shipment) => ({ derived: deriveState(services, shipment), deliveredAt: shipment.deliveredAt })),
  );
}

/** When the plan's order counts as delivered (orderDeliveredAt): where the claim window of a reason about it starts. */
export async function planDeliveredAt(db: Tx, services: Services, planId: string): Promise<number | null> {
  return orderDeliveredAt(await deliveryOfPlan(db, services, planId), await findPlanOrderDeliveredAt(db, planId));
}

/**
 * The Shopify app: a fulfilment of a protected order (fulfillments/create, /update) is its shipment, with the
 * fulfilment's tracking number and company; `deliveredAt` when the fulfilment says delivered. False when the
 * merchant has no such protected order.
 */
export async function recordShopifyFulfillment(
  tx: Tx,
  services: Services,
  actor: Actor,
  externalOrderId: string,
  fulfillment: { id: string; carrier: string | null; trackingNumber: string | null; deliveredAt: number | null },
): Promise<boolean> {
  const order = await lockOrderByExternalId(tx, actor, externalOrderId);
  if (!order) return false;
  const shipment = await upsertShipment(
    tx,
    services,
    actor,
    order,
    "shopify",
    { shopifyFulfillmentId: fulfillment.id },
    fulfillment,
  );
  if (fulfillment.deliveredAt !== null)
    await recordScan(tx, services, actor, shipment, { status: "delivered", occurredAt: fulfillment.deliveredAt });
  return true;
}

/**
 * The Shopify app: a fulfilment event (fulfillment_events/create) is a scan of the fulfilment's shipment (made
 * without a tracking number when the event overtakes the fulfilment's own topic). False when the merchant has no
 * such protected order.
 */
export async function recordShopifyFulfillmentEvent(
  tx: Tx,
  services: Services,
  actor: Actor,
  externalOrderId: string,
  fulfillmentId: string,
  scan: ScanReport,
): Promise<boolean> {
  const order = await lockOrderByExternalId(tx, actor, externalOrderId);
  if (!order) return false;
  const key = { shopifyFulfillmentId: fulfillmentId };
  const shipment =
    (await findOrderShipment(tx, order.id, key)) ??
    (await upsertShipment(tx, services, actor, order, "shopify", key, { carrier: null, trackingNumber: null }));
  await recordScan(tx, services, actor, shipment, scan);
  return true;
}

/**
 * The order's shipment of that key, made or updated from the report (the order's row lock held). A Shopify
 * fulfilment takes the API's shipment of its tracking number as its own, rather than making a twin.
 */
async function upsertShipment(
  tx: Tx,
  services: Services,
  actor: Actor,
  order: OrderRecord,
  source: ShipmentSource,
  key: ShipmentKey,
  report: ShipmentReport,
): Promise<ShipmentRecord> {
  const existing =
    (await findOrderShipment(tx, order.id, key)) ??
    (report.trackingNumber === null || "trackingNumber" in key
      ? undefined
      : await apiShipmentOf(tx, order.id, report.trackingNumber));
  const now = services.clock();
  if (!existing) {
    const id = newId("shp", now, services.random);
    await insertShipment(tx, actor, {
      id,
      orderRowId: order.id,
      source,
      carrier: report.carrier,
      trackingNumber: report.trackingNumber,
      shopifyFulfillmentId: "shopifyFulfillmentId" in key ? key.shopifyFulfillmentId : null,
      promisedDeliveryDate: report.promisedDeliveryDate ?? null,
      createdAt: now,
    });
    return announce(tx, services, actor, (await findShipment(tx, actor, id))!);
  }
  // What the report does not say stays as it was.
  const details = {
    carrier: report.carrier ?? existing.carrier,
    trackingNumber: report.trackingNumber ?? existing.trackingNumber,
    shopifyFulfillmentId: "shopifyFulfillmentId" in key ? key.shopifyFulfillmentId : existing.shopifyFulfillmentId,
    promisedDeliveryDate: report.promisedDeliveryDate ?? existing.promisedDeliveryDate,
  };
  const unchanged = (Object.keys(details) as (keyof typeof details)[]).every((k) => details[k] === existing[k]);
  if (unchanged) return existing;
  await updateShipmentDetails(tx, existing.id, details, now);
  return announce(tx, services, actor, { ...existing, ...details, updatedAt: now });
}

/** The order's shipment of that tracking number the API reported and no Shopify fulfilment has taken yet. */
async function apiShipmentOf(tx: Tx, orderRowId: string, trackingNumber: string) {
  const found = await findOrderShipment(tx, orderRowId, { trackingNumber });
  return found?.shopifyFulfillmentId === null ? found : undefined;
}

/**
 * Records a carrier's scan of the shipment (the order's row lock held) and recomputes what its scans say; the first
 * delivered scan of any of the order's shipments is the order's delivery. The same status at the same time again
 * changes nothing.
 */
export async function recordScan(
  tx: Tx,
  services: Services,
  actor: Actor,
  shipment: ShipmentRecord,
  scan: ScanReport,
): Promise<ShipmentRecord> {
  const now = services.clock();
  const recorded = await insertShipmentEvent(tx, actor, {
    id: newId("sev", now, services.random),
    shipmentId: shipment.id,
    status: scan.status,
    occurredAt: scan.occurredAt,
    location: scan.location ?? null,
    message: scan.message ?? null,
    createdAt: now,
  });
  if (!recorded) return shipment;
  const facts = carrierFactsOf(await listShipmentEvents(tx, [shipment.id]));
  await updateShipmentCarrierFacts(
    tx,
    shipment.id,
    { carrierStatus: facts.status, deliveredAt: facts.deliveredAt, lastScanAt: facts.lastScanAt },
    now,
  );
  if (facts.deliveredAt !== null) await markOrderDelivered(tx, actor, shipment.externalOrderId, facts.deliveredAt);
  await reopenLostClaimsIfMoving(tx, services, actor, shipment.externalOrderId, scan);
  return announce(tx, services, actor, {
    ...shipment,
    carrierStatus: facts.status,
    deliveredAt: facts.deliveredAt,
    lastScanAt: facts.lastScanAt,
    updatedAt: now,
  });
}

/** Carriers' words for a scan, as the buyer reads them in a claim's timeline. */
const SCAN_WORDS: Record<ShipmentEventStatus, string> = {
  in_transit: "in transit",
  out_for_delivery: "out for delivery",
  attempted_delivery: "a delivery attempted",
  delayed: "delayed",
  delivered: "delivered",
  failure: "a delivery failure",
  returned_to_sender: "returned to the sender",
};

/**
 * A scan after which the order's parcels no longer look lost (none presumed lost, failed or returned) takes back the
 * rules' unpaid "lost in transit" approvals on its plan (withdrawLostApprovals).
 */
async function reopenLostClaimsIfMoving(
  tx: Tx,
  services: Services,
  actor: Actor,
  externalOrderId: string,
  scan: ScanReport,
): Promise<void> {
  const order = await findOrderByExternalId(tx, actor, externalOrderId);
  if (!order) return;
  await withdrawLostApprovals(
    tx,
    services,
    actor,
    order.planId,
    { description: SCAN_WORDS[scan.status], occurredAt: scan.occurredAt },
    async () => LOST_PARCEL_STATES.includes((await deliveryOfPlan(tx, services, order.planId)).state),
  );
}

/** shipment.updated, with the shipment as it now stands, in the transaction of the change. */
async function announce(tx: Tx, services: Services, actor: Actor, shipment: ShipmentRecord): Promise<ShipmentRecord> {
  await appendEvent(tx, services, actor, "shipment.updated", await shipmentView(tx, services, actor, shipment));
  return shipment;
}

/** The shipment's state now: what its scans say, with the stall and the deadline the clock adds. */
const deriveState = (services: Services, shipment: ShipmentRecord) =>
  deriveShipmentState(
    {
      status: shipment.carrierStatus,
      deliveredAt: shipment.deliveredAt,
      lastScanAt: shipment.lastScanAt,
      reportedAt: shipment.createdAt,
      promisedDeliveryDate: shipment.promisedDeliveryDate,
    },
    services.clock(),
    services.settings.deliveryStalledAfterDays ?? DEFAULT_STALLED_AFTER_DAYS,
  );

/** The shipment as the API shows it and shipment.updated carries it. */
async function shipmentView(tx: Tx, services: Services, actor: Actor, shipment: ShipmentRecord) {
  return viewOf(actor, shipment, deriveState(services, shipment), await listShipmentEvents(tx, [shipment.id]));
}

function viewOf(
  actor: Actor,
  shipment: ShipmentRecord,
  derived: DerivedShipmentState,
  events: readonly ShipmentEventRecord[],
): ShipmentView {
  return {
    id: shipment.id,
    object: "shipment",
    orderId: shipment.externalOrderId,
    source: shipment.source,
    carrier: shipment.carrier,
    trackingNumber: shipment.trackingNumber,
    promisedDeliveryDate: shipment.promisedDeliveryDate,
    state: derived.state,
    deliveredAt: isoOrNull(shipment.deliveredAt),
    lastScanAt: isoOrNull(shipment.lastScanAt),
    stalledSince: isoOrNull(derived.stalledSince),
    deliveryDeadline: isoOrNull(derived.deliveryDeadline),
    overdue: derived.overdue,
    events: events.map((e) => ({
      id: e.id,
      status: e.status,
      occurredAt: iso(e.occurredAt),
      location: e.location,
      message: e.message,
      recordedAt: iso(e.createdAt),
    })),
    createdAt: iso(shipment.createdAt),
    updatedAt: iso(shipment.updatedAt),
    livemode: actor.mode === "live",
  };
}
