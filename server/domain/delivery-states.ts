// Delivery states (docs/api.md "Delivery states"): what the carriers' events of a shipment add up to, and what an
// order's shipments add up to. Pure: the facts and the time come in, a state goes out; the store keeps the part that
// only changes when a fact arrives (carrierStatusOf) and every read adds the part that changes with time
// (shipmentStateAt: stalled, not delivered within 14 days of the promised date).
import type {
  CarrierStatus,
  OrderDeliveryState,
  ShipmentEventStatus,
  ShipmentState,
} from "../vocabulary/deliveries.ts";
import { SHIPMENT_EVENT_STATUSES } from "../vocabulary/deliveries.ts";
import { DAY_MS } from "../vocabulary/time.ts";

/** A parcel without a scan for this many days is presumed lost, unless DELIVERY_STALLED_AFTER_DAYS says otherwise. */
export const DEFAULT_STALLED_AFTER_DAYS = 10;
/** The covered reason "not delivered by the promised date + 14 days". */
export const OVERDUE_AFTER_PROMISED_DAYS = 14;

export interface Scan {
  status: ShipmentEventStatus;
  occurredAt: number;
}

const CARRIER_STATUS_OF: Record<ShipmentEventStatus, CarrierStatus> = {
  in_transit: "in_transit",
  out_for_delivery: "in_transit",
  attempted_delivery: "in_transit",
  delayed: "in_transit",
  delivered: "delivered",
  failure: "failed",
  returned_to_sender: "returned_to_sender",
};

/** Two scans at the same millisecond: the one later in SHIPMENT_EVENT_STATUSES (the more final) counts as the later. */
const TIE_RANK = Object.fromEntries(SHIPMENT_EVENT_STATUSES.map((status, rank) => [status, rank])) as Record<
  ShipmentEventStatus,
  number
>;

export interface CarrierFacts {
  status: CarrierStatus;
  /** When the parcel was delivered: the first delivered scan since the last scan that said otherwise. */
  deliveredAt: number | null;
  /** The latest scan's time; null before the first scan. */
  lastScanAt: number | null;
}

/**
 * The carrier's word on a shipment: the latest scan by when it happened (not by when it was reported: carriers'
 * reports overtake each other), so the order and repetition of the reports change nothing.
 */
export function carrierFactsOf(scans: readonly Scan[]): CarrierFacts {
  const inOrder = [...scans].sort((a, b) => a.occurredAt - b.occurredAt || TIE_RANK[a.status] - TIE_RANK[b.status]);
  let deliveredAt: number | null = null;
  for (const scan of inOrder) deliveredAt = scan.status === "delivered" ? (deliveredAt ?? scan.occurredAt) : null;
  const latest = inOrder.at(-1);
  return {
    status: latest ? CARRIER_STATUS_OF[latest.status] : "pending",
    deliveredAt,
    lastScanAt: latest?.occurredAt ?? null,
  };
}

export interface ShipmentFacts extends CarrierFacts {
  /** When the shipment was first reported: a shipment never scanned stalls from then. */
  reportedAt: number;
  /** The promised delivery date (YYYY-MM-DD, a UTC day), or null. */
  promisedDeliveryDate: string | null;
}

export interface DerivedShipmentState {
  state: ShipmentState;
  /** When the parcel became presumed lost (its last scan, or its report, plus the stall period); null unless stalled. */
  stalledSince: number | null;
  /** The end of the 14 days after the promised date (the end of that UTC day + 14 days); null without a promise. */
  deliveryDeadline: number | null;
  /** Not delivered within 14 days of the promised date: past the deadline and not delivered before it. */
  overdue: boolean;
}

/** The shipment's state at `now`: the carrier status, with the time-bound facts (stalled, overdue) added. */
export function deriveShipmentState(facts: ShipmentFacts, now: number, stalledAfterDays: number): DerivedShipmentState {
  const moving = facts.status === "pending" || facts.status === "in_transit";
  const stallsAt = (facts.lastScanAt ?? facts.reportedAt) + stalledAfterDays * DAY_MS;
  const stalled = moving && now >= stallsAt;
  const deliveryDeadline =
    facts.promisedDeliveryDate === null
      ? null
      : Date.parse(`${facts.promisedDeliveryDate}T00:00:00.000Z`) + (1 + OVERDUE_AFTER_PROMISED_DAYS) * DAY_MS;
  return {
    state: stalled ? "stalled" : facts.status,
    stalledSince: stalled ? stallsAt : null,
    deliveryDeadline,
    overdue:
      deliveryDeadline !== null &&
      now >= deliveryDeadline &&
      (facts.deliveredAt === null || facts.deliveredAt >= deliveryDeadline),
  };
}

/** Which shipment speaks for the order: the first state of this list that any of its shipments is in. */
const ORDER_PRECEDENCE: readonly ShipmentState[] = [
  "returned_to_sender",
  "failed",
  "stalled",
  "pending",
  "in_transit",
  "delivered",
];

export interface DerivedOrderDelivery {
  state: OrderDeliveryState;
  /** When the last of its shipments was delivered, once all are; else null. */
  deliveredAt: number | null;
  /** Any of its shipments is overdue. */
  overdue: boolean;
}

/**
 * An order's delivery state: its shipments' state that matters most to a claim (a parcel returned, failed or presumed
 * lost speaks for the order even when another one arrived); `delivered` only when every shipment is.
 */
export function deriveOrderDelivery(
  shipments: readonly { derived: DerivedShipmentState; deliveredAt: number | null }[],
): DerivedOrderDelivery {
  if (shipments.length === 0) return { state: "not_shipped", deliveredAt: null, overdue: false };
  const state = ORDER_PRECEDENCE.find((candidate) => shipments.some((s) => s.derived.state === candidate))!;
  return {
    state,
    deliveredAt: state === "delivered" ? Math.max(...shipments.map((s) => s.deliveredAt!)) : null,
    overdue: shipments.some((s) => s.derived.overdue),
  };
}

/**
 * When the order counts as delivered: once every shipment is, the last one's delivery; an order with no shipment kept,
 * the delivery recorded on the order alone (`recordedOnOrder`, orders.delivered_at); else null (a parcel still out).
 */
export function orderDeliveredAt(delivery: DerivedOrderDelivery, recordedOnOrder: number | null): number | null {
  if (delivery.state === "delivered") return delivery.deliveredAt;
  return delivery.state === "not_shipped" ? recordedOnOrder : null;
}
