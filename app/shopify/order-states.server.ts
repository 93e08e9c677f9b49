// The protection's state written back onto the Shopify order, kept current as it moves (App Store rule 5.1.5: what the
// buyer agreed to in the online store goes back to the merchant's admin). The core knows nothing of Shopify: the app
// follows the outbox (server/webhooks/outbox-follower.ts, its own watermark) and, for each protection or claim event of
// a Shopify shop, queues in the watermark's transaction one write-back job (the event's id names it) and the Flow
// trigger the event starts (flow-triggers.ts; one per plan or claim and handle), and for a filed claim the read of
// its order's risk (order-risk.server.ts; one per claim). A new plan's write-back goes with its reference instead:
// orders/create queues that job under the id the confirmed event's would take (confirmedStateJobId), so the follower
// adds none. The write-back reads the plan as it stands when it runs, so jobs that run late or twice write the same
// thing, in one Admin call: app-owned order metafields (metafieldsSet replaces each whole) and the tags (tagsAdd and
// tagsRemove leave a tag already so alone); a plan that moved while its job wrote is written again.
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { createOutboxFollower, type ClaimStatus, type Queryable, type StoredEventType } from "../../server/index.ts";
import { findShopifyOrderState, listShopifyEvents, type ShopifyOrderState } from "./store/order-states.ts";
import { CHOICE_METAFIELD, formatDecimalAmount, SHOP_CONFIG_NAMESPACE } from "@purchase-protection/contract";
import type { AdminGraphql } from "./admin/graphql.ts";
import { orderProtectionState, type OrderStateVariables } from "./admin/order-protection-state.ts";
import { flowTrigger } from "./admin/flow-trigger.ts";
import { orderMetafieldDefinitions } from "./admin/order-metafield-definitions.ts";
import {
  createOrderMetafieldDefinition,
  type MetafieldDefinitionInput,
} from "./admin/create-order-metafield-definition.ts";
import type { MetafieldsSetInput } from "./admin/storefront-config.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import type { Installation } from "./installations.server.ts";
import type { PeriodicTask } from "./jobs.server.ts";
import { enqueueNamedJobOnce, type JobHandlers } from "./named-jobs.ts";
import { flowTriggerOf } from "./flow-triggers.ts";
import { orderRiskJobId } from "./order-risk.server.ts";

/** The order's tags while the plan covers it, and while one of its claims is open (filed, not yet paid or denied). */
export const PROTECTED_TAG = "protected";
export const OPEN_CLAIM_TAG = "protection-claim-open";
const OPEN_CLAIM_STATUSES: readonly ClaimStatus[] = ["submitted", "under_review", "needs_information", "approved"];

/** The events that change what the order shows. */
export const ORDER_EVENT_TYPES: readonly StoredEventType[] = [
  "protection.confirmed",
  "protection.voided",
  "protection.cancelled",
  "claim.created",
  "claim.updated",
];
/** How often the app looks for new events: a claim's state reaches the order within seconds. */
export const ORDER_EVENTS_SCAN_MS = 5_000;
/** The follower's watermark (webhook_fanout.name). */
export const ORDERS_WATERMARK = "shopify-orders";

export const orderStateJobId = (eventId: string) => `job_order_state_${eventId}`;
/** The write-back of a plan's protection.confirmed event: the reference's job (orders.server.ts) takes it first. */
export const confirmedStateJobId = (planId: string) => `job_order_state_confirmed_${planId}`;
export const flowTriggerJobId = (handle: string, subject: string) => `job_flow_${handle}_${subject}`;

/** What the order carries under `$app:protection` (reference_number is the reference write-back's: orders.server.ts). */
const FIELDS = {
  protection_status: { type: "single_line_text_field", name: "Protection status", filterable: true },
  claim_status: { type: "single_line_text_field", name: "Protection claim status", filterable: true },
  claims: { type: "json", name: "Protection claims", filterable: false },
  consent: { type: "json", name: "Protection consent", filterable: false },
  reference_number: { type: "single_line_text_field", name: "Protection reference", filterable: true },
} as const;
type FieldKey = keyof typeof FIELDS;

const DESCRIPTIONS: Record<FieldKey, string> = {
  protection_status: "active, cancelled (within the free look) or voided (the order was cancelled or refunded).",
  claim_status: "The latest claim's status (submitted … paid or denied); none while no claim was filed.",
  claims: "Every claim on the plan: number, id, reason, status and amount.",
  consent:
    "What the buyer agreed to: when, the disclosure's SHA-256, the surface, the fee, who paid it, on what evidence.",
  reference_number: "The plan's reference number: what the buyer quotes on the claims portal.",
};

/** The order's metafields for the plan as it stands (every key but reference_number). */
export function orderMetafields(state: ShopifyOrderState): Omit<MetafieldsSetInput, "ownerId">[] {
  const latest = state.claims.at(-1);
  const consent = state.consent;
  const values: Record<Exclude<FieldKey, "reference_number">, string> = {
    protection_status: state.status,
    claim_status: latest?.status ?? "none",
    claims: JSON.stringify(
      state.claims.map((claim) => ({
        number: claim.number,
        id: claim.claimId,
        reason: claim.reason,
        status: claim.status,
        amount: formatDecimalAmount(claim.amountCents, consent.currency),
      })),
    ),
    consent: JSON.stringify({
      accepted_at: consent.acceptedAt,
      disclosure_sha256: createHash("sha256").update(consent.disclosureText).digest("hex"),
      surface: consent.surface,
      terms_url: consent.termsUrl,
      fee: formatDecimalAmount(consent.feeCents, consent.currency),
      currency: consent.currency,
      // The protection line is what the buyer pays; without one on the order the merchant bears the fee. A split
      // program's buyer pays a part of it (docs/api.md "Who pays"), which is named.
      fee_paid_by: state.linePriceCents === null ? "merchant" : consent.payer === "split" ? "split" : "buyer",
      ...(state.linePriceCents !== null && consent.payer === "split" && consent.buyerFeeCents !== undefined
        ? { buyer_fee: formatDecimalAmount(consent.buyerFeeCents, consent.currency) }
        : {}),
      // What on the order the server's confirm rested on (absent on plans made before it was kept).
      ...(consent.evidence ? { evidence: consent.evidence } : {}),
    }),
  };
  return Object.entries(values).map(([key, value]) => ({
    namespace: SHOP_CONFIG_NAMESPACE,
    key,
    type: FIELDS[key as FieldKey].type,
    value,
  }));
}

/** The tags the order has (add) and has not (remove) for the plan as it stands. */
export function orderTags(state: ShopifyOrderState): { add: string[]; remove: string[] } {
  const wanted = new Map([
    [PROTECTED_TAG, state.status === "active"],
    [OPEN_CLAIM_TAG, state.claims.some((claim) => OPEN_CLAIM_STATUSES.includes(claim.status))],
  ]);
  const tags = [...wanted.keys()];
  return { add: tags.filter((tag) => wanted.get(tag)), remove: tags.filter((tag) => !wanted.get(tag)) };
}

/** What the order is sent for the plan as it stands: its metafields and tags (orderProtectionState's fields). */
export function orderStateVariables(state: ShopifyOrderState): OrderStateVariables {
  const id = `gid://shopify/Order/${state.orderId}`;
  const { add, remove } = orderTags(state);
  return {
    id,
    metafields: orderMetafields(state).map((metafield) => ({ ...metafield, ownerId: id })),
    addTags: add,
    adding: add.length > 0,
    removeTags: remove,
    removing: remove.length > 0,
  };
}

/**
 * Writes the plan's state onto its order with `write` (one Admin call of the shop's that carries it), when the plan is a
 * Shopify shop's and the shop has the app (its installation is handed to `write`). Returns whether it wrote.
 */
export async function writePlanState(
  deps: ShopifyDeps,
  planId: string,
  write: (graphql: AdminGraphql, state: ShopifyOrderState, installation: Installation) => Promise<unknown>,
): Promise<boolean> {
  const state = await findShopifyOrderState(deps.db, planId);
  const installation = state && (await deps.installation(state.shop));
  if (!state || !installation) return false;
  await write(await deps.adminApi(state.shop), state, installation);
  // Two jobs of one plan may run at once (two events close together): one that read the plan before the other's
  // event could write last. The plan read again after writing settles it: if it moved, the job runs again.
  const now = await findShopifyOrderState(deps.db, planId);
  if (now && !isDeepStrictEqual(now, state))
    throw new Error(`plan ${state.planId} moved while its state was written to the order; writing it again`);
  return true;
}

/**
 * The checkout block's choice (CHOICE_METAFIELD), written on the cart: the definition lets Shopify copy it onto the
 * order, where orders/create reads it when the cart's attributes were dropped (app/shopify/order-consent.ts).
 */
const CHOICE_DEFINITION = {
  name: "Protection choice at checkout",
  description: "accepted or declined, as the buyer last chose in the checkout block; copied from the cart.",
};

/**
 * Defines the app's order metafields on the shop where they are missing (install: storefront_setup): read-only to the
 * merchant, and the short text ones filterable in the order list (admin filtering takes text, not JSON).
 */
export async function ensureOrderMetafieldDefinitions(graphql: AdminGraphql): Promise<void> {
  const { metafieldDefinitions } = await orderMetafieldDefinitions(graphql, { namespace: SHOP_CONFIG_NAMESPACE });
  const existing = new Set(metafieldDefinitions.nodes.map((node) => node.key));
  for (const [key, field] of Object.entries(FIELDS)) {
    if (existing.has(key)) continue;
    const definition: MetafieldDefinitionInput = {
      namespace: SHOP_CONFIG_NAMESPACE,
      key,
      name: field.name,
      description: DESCRIPTIONS[key as FieldKey],
      type: field.type,
      ownerType: "ORDER",
      access: { admin: "MERCHANT_READ" },
      ...(field.filterable ? { capabilities: { adminFilterable: { enabled: true } } } : {}),
    };
    await createOrderMetafieldDefinition(graphql, { definition });
  }
  if (!existing.has(CHOICE_METAFIELD.key))
    await createOrderMetafieldDefinition(graphql, {
      definition: {
        namespace: SHOP_CONFIG_NAMESPACE,
        key: CHOICE_METAFIELD.key,
        ...CHOICE_DEFINITION,
        type: CHOICE_METAFIELD.type,
        ownerType: "ORDER",
        access: { admin: "MERCHANT_READ" },
        capabilities: { adminFilterable: { enabled: true }, cartToOrderCopyable: { enabled: true } },
      },
    });
}

/** Queues the write-back and the Flow trigger of each Shopify protection or claim event among `eventIds`. */
async function queueOrderFollowUps(tx: Queryable, deps: ShopifyDeps, eventIds: string[]): Promise<void> {
  for (const event of await listShopifyEvents(tx, eventIds, ORDER_EVENT_TYPES)) {
    const subject = event.type.startsWith("claim.")
      ? (event.data as { planId: string }).planId
      : (event.data as { id: string }).id;
    await enqueueNamedJobOnce(tx, deps.services, {
      id: event.type === "protection.confirmed" ? confirmedStateJobId(subject) : orderStateJobId(event.id),
      shop: event.shop,
      kind: "write_order_state",
      payload: { planId: subject },
      subject,
    });
    // A claim filed: its order's risk as Shopify assessed it is read (order-risk.server.ts).
    if (event.type === "claim.created") {
      const claim = event.data as { id: string; orderId: string };
      await enqueueNamedJobOnce(tx, deps.services, {
        id: orderRiskJobId(claim.id),
        shop: event.shop,
        kind: "read_order_risk",
        payload: { orderId: claim.orderId },
        subject: claim.orderId,
      });
    }
    const trigger = flowTriggerOf(event.type, event.data);
    if (trigger)
      await enqueueNamedJobOnce(tx, deps.services, {
        id: flowTriggerJobId(trigger.handle, trigger.subject),
        shop: event.shop,
        kind: "flow_trigger",
        payload: { handle: trigger.handle, payload: trigger.payload },
        subject: trigger.subject,
      });
  }
}

/**
 * Follows the outbox under its own watermark, which migration 20261130020000_shopify_order_events started at the last
 * event then written (a shop's history starts no workflows). Events of merchants outside Shopify are passed over.
 */
export function createOrderEventsFollower(deps: ShopifyDeps) {
  return createOutboxFollower(deps.db, { name: ORDERS_WATERMARK, batchSize: 500, gapGraceMs: 10_000 }, (tx, events) =>
    queueOrderFollowUps(
      tx,
      deps,
      events.map((event) => event.id),
    ),
  );
}

export function orderEventsTask(deps: ShopifyDeps): PeriodicTask {
  const follower = createOrderEventsFollower(deps);
  return {
    name: "shopify-order-events",
    everyMs: ORDER_EVENTS_SCAN_MS,
    task: async () => {
      const taken = await follower.follow();
      if (taken > 0) deps.wakeJobs();
      return taken;
    },
  };
}

export function orderStateHandlers(deps: ShopifyDeps): Pick<JobHandlers, "write_order_state" | "flow_trigger"> {
  return {
    write_order_state: async (job) => {
      await writePlanState(deps, job.payload.planId, (graphql, state) =>
        orderProtectionState(graphql, orderStateVariables(state)),
      );
    },
    flow_trigger: async (job) => {
      if (!(await deps.installation(job.shop))) return;
      await flowTrigger(await deps.adminApi(job.shop), job.payload);
    },
  };
}
