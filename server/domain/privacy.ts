// What a merchant's platform may ask of us about personal data: export what we hold about one customer or redact it
// (Shopify's customers/data_request and customers/redact; shop/redact erases the merchant: server/store/erasure.ts). Personal data
// lives in quotes.customer_email_*, plans.customer_email_*, plans.order_context (participants), what links or weighs
// the buyer's claims (plans.shipping_address_hash, plans.order_risk, claim_risk_assessments), claims.description,
// the buyer's claim messages and evidence (claim_timeline, claim_evidence), email_messages.recipient_*, the event payloads that copied a purchase and a Shopify order's destination (shopify_orders.ship_to). Addresses are stored sealed: rows are
// found by the address's keyed hash (buyer-emails.ts).
import { iso, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Sealer } from "../secrets/sealer.ts";
import {
  clearEmailRecipients,
  clearQuoteEmails,
  clearShipmentScanPlaces,
  findCustomerPlanIds,
  findPlanOrderContext,
  listClaimsOfPlans,
  listEventsMentioning,
  listShipmentUpdatesOfPlan,
  listShopifyOrderFactsOfPlans,
  redactClaimActivity,
  redactPlanRow,
  replaceClaimDescriptions,
  replaceEventData,
} from "../store/erasure.ts";
import { getPurchase, type Purchase } from "./purchases.ts";
import { buyerEmailHash, normaliseEmail } from "./buyer-emails.ts";
import { describeRiskSignal, type RiskSignal } from "./claim-risk.ts";
import { findRiskAssessments } from "../store/claim-risk.ts";
import { listPlanShipments, listShipmentEvents } from "../store/shipments.ts";

/** One customer, as the platform names them: an e-mail address and/or the orders that were theirs. */
export interface CustomerSelector {
  email?: string | null;
  orderIds: string[];
}

export interface CustomerRecords {
  purchases: Purchase[];
  claims: { id: string; planId: string; reason: string; description: string; status: string; createdAt: string }[];
  /** A Shopify order's lines and town-level destination, as kept for the claims console. */
  shopifyOrders: { planId: string; orderId: string; lines: unknown; shipTo: unknown }[];
  /** The parcels of the customer's orders and their carriers' scans (delivery facts). */
  shipments: {
    planId: string;
    orderId: string;
    carrier: string | null;
    trackingNumber: string | null;
    promisedDeliveryDate: string | null;
    scans: { status: string; occurredAt: string; location: string | null; message: string | null }[];
  }[];
  /** What the service weighed about each of the customer's claims (claim-risk.ts), each signal in words. */
  claimRisk: { claimId: string; level: string; score: number; assessedAt: string; signals: string[] }[];
}

const REDACTED = "[redacted]";

/** The plans (with consent records) and claims that belong to the customer, for an access request. */
export async function customerRecords(
  tx: Tx,
  sealer: Sealer,
  actor: Actor,
  customer: CustomerSelector,
): Promise<CustomerRecords> {
  const planIds = await customerPlanIds(tx, sealer, actor, customer);
  const purchases: Purchase[] = [];
  for (const id of planIds) purchases.push(await getPurchase(tx, actor, id));
  const claims = await listClaimsOfPlans(tx, actor, planIds);
  const assessments = await findRiskAssessments(
    tx,
    claims.map((claim) => claim.id),
  );
  return {
    purchases,
    claims: claims.map((claim) => ({ ...claim, createdAt: iso(claim.createdAt) })),
    shopifyOrders: await listShopifyOrderFactsOfPlans(tx, planIds),
    shipments: await shipmentsOfPlans(tx, planIds),
    claimRisk: [...assessments.values()].map((assessment) => ({
      claimId: assessment.claimId,
      level: assessment.level,
      score: assessment.score,
      assessedAt: iso(assessment.assessedAt),
      signals: (assessment.signals as RiskSignal[]).map(describeRiskSignal),
    })),
  };
}

/** The plans' shipments with their scans, oldest first. */
async function shipmentsOfPlans(tx: Tx, planIds: readonly string[]): Promise<CustomerRecords["shipments"]> {
  const shipments: CustomerRecords["shipments"] = [];
  for (const planId of planIds) {
    const parcels = await listPlanShipments(tx, planId);
    const scans = await listShipmentEvents(
      tx,
      parcels.map((parcel) => parcel.id),
    );
    for (const parcel of parcels)
      shipments.push({
        planId,
        orderId: parcel.externalOrderId,
        carrier: parcel.carrier,
        trackingNumber: parcel.trackingNumber,
        promisedDeliveryDate: parcel.promisedDeliveryDate,
        scans: scans
          .filter((scan) => scan.shipmentId === parcel.id)
          .map((scan) => ({
            status: scan.status,
            occurredAt: iso(scan.occurredAt),
            location: scan.location,
            message: scan.message,
          })),
      });
  }
  return shipments;
}

/**
 * Removes the customer's personal data and keeps what the contract needs (amounts, dates, reference numbers,
 * states): e-mail addresses are cleared, order-context participants become unnamed, claim descriptions and any copy
 * of the address inside event payloads are replaced. Returns how many plans were touched.
 */
export async function redactCustomer(
  tx: Tx,
  sealer: Sealer,
  actor: Actor,
  customer: CustomerSelector,
): Promise<number> {
  const planIds = await customerPlanIds(tx, sealer, actor, customer);
  const email = (customer.email && normaliseEmail(customer.email)) || null;
  await clearQuoteEmails(tx, actor, { emailHash: email && buyerEmailHash(sealer, email), orderIds: customer.orderIds });
  for (const planId of planIds) {
    const context = await findPlanOrderContext(tx, planId);
    await redactPlanRow(tx, planId, { ...context, participants: { mode: "unnamed" } });
    await replaceClaimDescriptions(tx, planId, REDACTED);
    await redactClaimActivity(tx, planId, REDACTED);
    // An e-mail not sent yet is not sent to a redacted address.
    await clearEmailRecipients(tx, planId);
    await redactScanPlaces(tx, planId);
  }
  if (email) await redactEventPayloads(tx, actor, email);
  return planIds.length;
}

function customerPlanIds(tx: Tx, sealer: Sealer, actor: Actor, customer: CustomerSelector): Promise<string[]> {
  const email = customer.email?.trim() || null;
  return findCustomerPlanIds(tx, actor, {
    emailHash: email && buyerEmailHash(sealer, email),
    orderIds: customer.orderIds,
  });
}

/**
 * Where the carriers scanned the order's parcels and what they wrote go, in the scans and in the shipment.updated
 * events that copy them (docs/api.md "Delivery facts"); the statuses and times stay.
 */
async function redactScanPlaces(tx: Tx, planId: string): Promise<void> {
  await clearShipmentScanPlaces(tx, planId);
  for (const event of await listShipmentUpdatesOfPlan(tx, planId)) {
    const shipment = event.data as { events: { location: string | null; message: string | null }[] };
    const events = shipment.events.map((scan) => ({ ...scan, location: null, message: null }));
    await replaceEventData(tx, event.seq, { ...shipment, events });
  }
}

/** Event payloads are JSON copies of purchases: replace every string equal to the address (any case). */
async function redactEventPayloads(tx: Tx, actor: Actor, email: string): Promise<void> {
  const scrub = (value: unknown): unknown => {
    if (typeof value === "string") return value.toLowerCase() === email ? REDACTED : value;
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrub(inner)]));
    return value;
  };
  for (const event of await listEventsMentioning(tx, actor, email))
    await replaceEventData(tx, event.seq, scrub(event.data));
}
