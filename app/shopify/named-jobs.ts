// The Shopify side's jobs by name, each with the payload it carries: the webhooks' jobs (named after their topics,
// app/shopify/webhooks/) and the follow-ups. Enqueueing and handling are typed by name here; the queue itself
// (jobs.server.ts) stores payloads as JSON and hands each handler what was enqueued under its name.
import type { Queryable, Services } from "../../server/index.ts";
import { enqueueJob, enqueueJobOnce, type Job, type JobHandler } from "./jobs.server.ts";
import type { RefundTransaction } from "./webhooks/shopify-refund.ts";
import type { CustomersDataRequest, CustomersRedact } from "./webhooks/privacy-payloads.ts";
import type { FulfillmentPayload } from "./webhooks/shopify-fulfillment.ts";
import type { FulfillmentEventPayload } from "./webhooks/shopify-fulfillment-event.ts";
import type { ShipTo } from "../../server/index.ts";
import type { SubscriptionStatus } from "./store/billing.ts";
import type { FlowPayload, FlowTriggerHandle } from "./flow-triggers.ts";

/** The orders/create fields the protection job keeps (the rest of Shopify's order is not needed). */
export interface OrderPayload {
  /** Kept as a string: it is the protection API's order id. */
  id: string;
  admin_graphql_api_id: string;
  currency: string;
  subtotal_price: string;
  /**
   * A Shopify Markets order (the buyer paid in another currency than the shop's): that currency and the subtotal in
   * it. Absent on other orders, and on jobs queued before it was kept.
   */
  presentment?: { currency: string; subtotal_price: string };
  email?: string | null;
  /** The order's name ("#1001"); absent on jobs queued before it was kept. */
  name?: string | null;
  note_attributes: { name: string; value: string }[];
  /** Where the order came from ("web", "shopify_draft_order", "pos", …); absent on jobs queued before it was kept. */
  source_name?: string | null;
  /** The buyer's checkout language (Shopify's customer_locale, e.g. "de"); absent when Shopify sent none. */
  customer_locale?: string;
  /**
   * title: the product's and variant's name, for the claims console; id: the line's gid, for a refund of protection
   * units. Both absent on jobs queued before they were kept. variant_id: the line's variant (a protection line's fee
   * tier); presentment_price: the unit price in the buyer's currency, on a Markets order. Absent when Shopify sent
   * none, and on jobs queued before they were kept.
   */
  line_items: {
    product_id: number | string | null;
    price: string;
    quantity: number;
    title?: string;
    id?: string;
    variant_id?: string;
    presentment_price?: string;
  }[];
  /**
   * Where the order was shipped, to the town only (no name, street or phone): the claims console shows it beside a
   * claim. Null: nothing to ship; absent on jobs queued before it was kept.
   */
  ship_to?: ShipTo | null;
  /**
   * The keyed hash of the shipping address (webhooks/orders-create.ts): the plan keeps it for the buyer's claim
   * history. Absent without a shipping address, and on jobs queued before it was kept.
   */
  shipping_address_hash?: string;
}

type Nothing = Record<string, never>;

export interface JobPayloads {
  "orders/create": OrderPayload;
  "orders/cancelled": { id: string };
  /** The lines (gids) the edit added units to, and how many. */
  "orders/edited": { editId: string; orderId: string; additions: { lineId: string; delta: number }[] };
  /** note: absent on jobs queued before it was kept. */
  "refunds/create": { id: string; order_id: string; note?: string | null; transactions: RefundTransaction[] };
  "fulfillments/create": FulfillmentPayload;
  "fulfillments/update": FulfillmentPayload;
  "fulfillment_events/create": FulfillmentEventPayload;
  "app/uninstalled": Nothing;
  "app/scopes_update": { current: string[] };
  "customers/data_request": CustomersDataRequest;
  "customers/redact": CustomersRedact;
  "shop/redact": Nothing;
  /** After orders/create: the reference number goes back onto the order, with the plan's state (one job per plan). */
  write_reference: {
    /** Absent on a job queued before the state went with the reference: the order's row names the plan. */
    planId?: string;
    orderId: string;
    orderGid: string;
    attributes: { name: string; value: string }[];
    referenceNumber: string;
    /** The plan kept a protection line: the write-back fulfils it (absent on a job queued before it did). */
    fulfilProtectionLine?: boolean;
  };
  /** Queued by orders/create before the reference write-back fulfilled the protection line: that line is fulfilled. */
  fulfill_protection_line: { orderGid: string };
  /** After install: the protection product and the storefront config. */
  storefront_setup: Nothing;
  /** A free-look cancellation: the protection line is refunded on the order (one job per plan, ever). */
  refund_protection_fee: { planId: string };
  /**
   * An approved claim: refunded or replaced on the order (one job per claim; run again only for an approval it found
   * withdrawn and did not pay).
   */
  pay_claim: { claimId: string };
  /** After install: the usage subscription the merchant approves (app/shopify/billing.server.ts). */
  billing_setup: Nothing;
  /** A closed statement the merchant owes: one usage record on the subscription (one job per statement). */
  charge_statement: { statementId: string };
  "app_subscriptions/update": { subscriptionId: string; status: SubscriptionStatus };
  /** Shopify's risk of the order changed: the job reads it (app/shopify/order-risk.server.ts). */
  "orders/risk_assessment_changed": { orderId: string };
  /** A claim was filed on the order: its risk as Shopify assessed it is read (one job per claim, ever). */
  read_order_risk: { orderId: string };
  /** A protection or claim event: the plan's state written onto its order (one job per event). */
  write_order_state: { planId: string };
  /** A protection or claim event's Shopify Flow trigger (one job per trigger and plan or claim, ever). */
  flow_trigger: { handle: FlowTriggerHandle; payload: FlowPayload };
  /**
   * Protection units no plan stands behind, refunded on the order (one job per order, ever): of each protection line
   * (`id`, its gid), whatever the order holds beyond `keep` units.
   */
  refund_protection_lines: {
    orderGid: string;
    currency: string;
    lines: { id: string; keep: number }[];
  };
}

export type JobKind = keyof JobPayloads;

export type JobHandlers = { [Kind in JobKind]: JobHandler<JobPayloads[Kind]> };

export function enqueueNamedJob<Kind extends JobKind>(
  tx: Queryable,
  services: Services,
  input: { shop: string; kind: Kind; payload: JobPayloads[Kind]; subject?: string; claimed?: boolean },
): Promise<Job> {
  return enqueueJob(tx, services, input);
}

/** A job added under an id of the caller's (see enqueueJobOnce). */
export interface NamedJobOnce<Kind extends JobKind> {
  id: string;
  shop: string;
  kind: Kind;
  payload: JobPayloads[Kind];
  subject?: string;
  rearmDone?: boolean;
}

/**
 * Adds the job under `id` unless one exists under it, or with `rearmDone` re-arms a done one (see enqueueJobOnce).
 * Returns whether it was added or re-armed.
 */
export function enqueueNamedJobOnce<Kind extends JobKind>(
  tx: Queryable,
  services: Services,
  input: NamedJobOnce<Kind>,
): Promise<boolean> {
  return enqueueJobOnce(tx, services, input);
}

/** The queue's handler table: one handler for every named job, each taking the payload enqueued under its name. */
export function queueHandlers(handlers: JobHandlers): Record<string, JobHandler> {
  return handlers as Record<string, JobHandler>;
}
