// Shipments of protected orders and their carriers' scans (shipments, shipment_events; docs/api.md "Delivery facts").
// A shipment is found by its order and Shopify fulfilment (a unique key) or tracking number; an event by its
// shipment, status and time (a unique key), so a repeated report finds what the first one made. Changes to an order's
// shipments are made under the order's row lock (lockShipmentOrder, lockOrderByExternalId).
import type { Actor } from "../vocabulary/actors.ts";
import type { CarrierStatus, ShipmentEventStatus, ShipmentSource } from "../vocabulary/deliveries.ts";
import { forUpdate, placeholders, type Queryable, type SqlValue } from "./database.ts";

export interface ShipmentRecord {
  id: string;
  /** The protected order's row (orders.id) and the merchant's id of it. */
  orderRowId: string;
  externalOrderId: string;
  source: ShipmentSource;
  carrier: string | null;
  trackingNumber: string | null;
  shopifyFulfillmentId: string | null;
  promisedDeliveryDate: string | null;
  carrierStatus: CarrierStatus;
  deliveredAt: number | null;
  lastScanAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface ShipmentEventRecord {
  id: string;
  shipmentId: string;
  status: ShipmentEventStatus;
  occurredAt: number;
  location: string | null;
  message: string | null;
  createdAt: number;
}

interface ShipmentRow {
  id: string;
  order_id: string;
  external_id: string;
  source: ShipmentSource;
  carrier: string | null;
  tracking_number: string | null;
  shopify_fulfillment_id: string | null;
  promised_delivery_date: string | null;
  carrier_status: CarrierStatus;
  delivered_at: number | string | null;
  last_scan_at: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

const SHIPMENT_COLUMNS = `s.id, s.order_id, o.external_id, s.source, s.carrier, s.tracking_number, s.shopify_fulfillment_id,
  s.promised_delivery_date, s.carrier_status, s.delivered_at, s.last_scan_at, s.created_at, s.updated_at`;

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

function toShipment(row: ShipmentRow): ShipmentRecord {
  return {
    id: row.id,
    orderRowId: row.order_id,
    externalOrderId: row.external_id,
    source: row.source,
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
    shopifyFulfillmentId: row.shopify_fulfillment_id,
    promisedDeliveryDate: row.promised_delivery_date,
    carrierStatus: row.carrier_status,
    deliveredAt: nullableNumber(row.delivered_at),
    lastScanAt: nullableNumber(row.last_scan_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The shipments, with their order's id, matching `where` (and its ORDER BY, LIMIT). */
async function selectShipments(tx: Queryable, where: string, params: SqlValue[]): Promise<ShipmentRecord[]> {
  const rows = await tx.all<ShipmentRow>(
    `SELECT ${SHIPMENT_COLUMNS} FROM shipments s JOIN orders o ON o.id = s.order_id WHERE ${where}`,
    params,
  );
  return rows.map(toShipment);
}

/** How a shipment of an order is known: the Shopify fulfilment it comes from, or its tracking number. */
export type ShipmentKey = { trackingNumber: string } | { shopifyFulfillmentId: string };

/**
 * The order's shipment of that fulfilment, or of that tracking number (Shopify's fulfilments may share one: then
 * the one the API reported, else the first reported), or undefined.
 */
export async function findOrderShipment(
  tx: Queryable,
  orderRowId: string,
  key: ShipmentKey,
): Promise<ShipmentRecord | undefined> {
  const [column, value] =
    "trackingNumber" in key
      ? ["tracking_number", key.trackingNumber]
      : ["shopify_fulfillment_id", key.shopifyFulfillmentId];
  const [shipment] = await selectShipments(
    tx,
    `s.order_id = ? AND s.${column} = ? ORDER BY s.shopify_fulfillment_id IS NOT NULL, s.created_at, s.id LIMIT 1`,
    [orderRowId, value],
  );
  return shipment;
}

/** The owner's shipment by id, or undefined (another merchant's, or another mode's, is not found). */
export async function findShipment(tx: Queryable, owner: Actor, id: string): Promise<ShipmentRecord | undefined> {
  const [shipment] = await selectShipments(tx, "s.id = ? AND s.merchant_id = ? AND s.mode = ?", [
    id,
    owner.merchantId,
    owner.mode,
  ]);
  return shipment;
}

/** The owner's shipments of that tracking number (on any of its orders), first reported first. */
export const findShipmentsByTrackingNumber = (
  tx: Queryable,
  owner: Actor,
  trackingNumber: string,
): Promise<ShipmentRecord[]> =>
  selectShipments(tx, "s.merchant_id = ? AND s.mode = ? AND s.tracking_number = ? ORDER BY s.created_at, s.id", [
    owner.merchantId,
    owner.mode,
    trackingNumber,
  ]);

/** The order's shipments, first reported first. */
export const listOrderShipments = (tx: Queryable, orderRowId: string): Promise<ShipmentRecord[]> =>
  selectShipments(tx, "s.order_id = ? ORDER BY s.created_at, s.id", [orderRowId]);

/** The shipments of the plan's order, first reported first (none when the plan has no order row). */
export const listPlanShipments = (tx: Queryable, planId: string): Promise<ShipmentRecord[]> =>
  selectShipments(tx, "o.plan_id = ? ORDER BY s.created_at, s.id", [planId]);

/** Row-locks the order the shipments hang off: every change to an order's shipments takes it first. */
export async function lockShipmentOrder(tx: Queryable, orderRowId: string): Promise<void> {
  await tx.get(`SELECT id FROM orders WHERE id = ?${forUpdate(tx)}`, [orderRowId]);
}

export async function insertShipment(
  tx: Queryable,
  owner: Actor,
  shipment: Omit<ShipmentRecord, "externalOrderId" | "carrierStatus" | "deliveredAt" | "lastScanAt" | "updatedAt">,
): Promise<void> {
  await tx.run(
    `INSERT INTO shipments (id, merchant_id, mode, order_id, source, carrier, tracking_number, shopify_fulfillment_id,
       promised_delivery_date, carrier_status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
    [
      shipment.id,
      owner.merchantId,
      owner.mode,
      shipment.orderRowId,
      shipment.source,
      shipment.carrier,
      shipment.trackingNumber,
      shipment.shopifyFulfillmentId,
      shipment.promisedDeliveryDate,
      shipment.createdAt,
      shipment.createdAt,
    ],
  );
}

/** What a later report of the same shipment may change. */
export async function updateShipmentDetails(
  tx: Queryable,
  id: string,
  details: Pick<ShipmentRecord, "carrier" | "trackingNumber" | "shopifyFulfillmentId" | "promisedDeliveryDate">,
  at: number,
): Promise<void> {
  await tx.run(
    `UPDATE shipments SET carrier = ?, tracking_number = ?, shopify_fulfillment_id = ?, promised_delivery_date = ?,
       updated_at = ? WHERE id = ?`,
    [details.carrier, details.trackingNumber, details.shopifyFulfillmentId, details.promisedDeliveryDate, at, id],
  );
}

/** The carrier's word, recomputed from every scan of the shipment. */
export async function updateShipmentCarrierFacts(
  tx: Queryable,
  id: string,
  facts: Pick<ShipmentRecord, "carrierStatus" | "deliveredAt" | "lastScanAt">,
  at: number,
): Promise<void> {
  await tx.run(
    "UPDATE shipments SET carrier_status = ?, delivered_at = ?, last_scan_at = ?, updated_at = ? WHERE id = ?",
    [facts.carrierStatus, facts.deliveredAt, facts.lastScanAt, at, id],
  );
}

/** Records a scan; false when the shipment has that status at that time already (the report changes nothing). */
export async function insertShipmentEvent(tx: Queryable, owner: Actor, event: ShipmentEventRecord): Promise<boolean> {
  const inserted = await tx.all(
    `INSERT INTO shipment_events (id, merchant_id, mode, shipment_id, status, occurred_at, location, message, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (shipment_id, status, occurred_at) DO NOTHING RETURNING id`,
    [
      event.id,
      owner.merchantId,
      owner.mode,
      event.shipmentId,
      event.status,
      event.occurredAt,
      event.location,
      event.message,
      event.createdAt,
    ],
  );
  return inserted.length === 1;
}

/** The scans of the shipments, oldest first (by when they happened). */
export async function listShipmentEvents(
  tx: Queryable,
  shipmentIds: readonly string[],
): Promise<ShipmentEventRecord[]> {
  if (shipmentIds.length === 0) return [];
  const rows = await tx.all<{
    id: string;
    shipment_id: string;
    status: ShipmentEventStatus;
    occurred_at: number | string;
    location: string | null;
    message: string | null;
    created_at: number | string;
  }>(
    `SELECT id, shipment_id, status, occurred_at, location, message, created_at FROM shipment_events
     WHERE shipment_id IN (${placeholders(shipmentIds)}) ORDER BY occurred_at, created_at, id`,
    [...shipmentIds],
  );
  return rows.map((row) => ({
    id: row.id,
    shipmentId: row.shipment_id,
    status: row.status,
    occurredAt: Number(row.occurred_at),
    location: row.location,
    message: row.message,
    createdAt: Number(row.created_at),
  }));
}
