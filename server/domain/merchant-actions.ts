// What needs the merchant (docs/dashboard.md "Needs your action"): the overview's list in both dashboard shells and the team's
// e-mail digest read it from here. Each item says what to do and where (a dashboard page), with a key that stays the
// same while the item stands (what a digest remembers as told):
// - approved claims the store pays itself (merchants without a Shopify shop), due MERCHANT_PAYOUT_DAYS after the
//   approval (payoutTerms), the earliest due first, overdue ones marked;
// - free-look fees the store refunds through its own cart and confirms (the purchase page, POST /purchases/{id}/fee-refund);
// - webhook endpoints that are failing (delivery stopped);
// - a Shopify shop's claim payouts and fee refunds whose job gave up (pay it in the Shopify admin), which the app
//   lists from its own tables through services.channelActions (none where the app does not run);
// - the go-live steps left, while the merchant is not live (the overview only: they are not news for an e-mail).
import type { ChannelActions, Services, Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { claimTitle } from "./claim-name.ts";
import { payoutTerms } from "./payout-terms.ts";
import { utcDay } from "./utc-dates.ts";
import { goLiveState, type ChecklistItemId } from "./go-live.ts";
import { listWebhookEndpoints } from "./webhook-endpoints.ts";
import { findMerchant } from "../store/merchants.ts";
import { listClaimsAwaitingMerchant, listFeeRefundsOwed, type FeeRefundOwed } from "../store/merchant-actions.ts";
import { formatMoneyEnUs } from "@purchase-protection/contract";

export const ACTION_KINDS = ["claim_payout", "fee_refund", "webhook_endpoint", "shopify_payout", "go_live"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** The dashboard pages an item links to (app/dashboard/access.ts names them). */
export type ActionPage = "claims" | "purchases" | "refunds" | "webhooks" | "goLive";

export interface ActionLink {
  page: ActionPage;
  /** Appended to the page's path: "/<id>", a query. */
  sub: string;
}

export interface ActionItem {
  /**
   * Stable while the item stands: "claim_payout:<claim>" (":overdue" added once it is), "webhook_endpoint:<endpoint>:
   * <failing since>", … A digest tells each key once.
   */
  key: string;
  /** What it is: "Claim 2 on CLM-2026-7K3M9Q2X: refund $50.00". */
  title: string;
  /** What to do about it, in a sentence. */
  todo: string;
  /** The item in one line of our own words (no endpoint URL, order id or error text): what the digest e-mail says. */
  brief: string;
  /** The promise's day (YYYY-MM-DD, UTC) where there is one. */
  dueBy: string | null;
  overdue: boolean;
  link: ActionLink;
}

export interface ActionGroup {
  kind: ActionKind;
  /** How many there are (the items are the first `limit`). */
  count: number;
  items: ActionItem[];
  /** The page that lists them all. */
  seeAll: ActionLink;
}

export interface MerchantActions {
  total: number;
  /** Only the kinds with something in them, in ACTION_KINDS order. */
  groups: ActionGroup[];
}

/** How many of each kind the overview lists before "see all". */
export const OVERVIEW_ACTION_LIMIT = 5;
/** How many of each kind a digest looks at (one beyond waits for the next digest). */
export const DIGEST_ACTION_LIMIT = 50;

/** The go-live checklist's items as steps to take. */
const GO_LIVE_STEPS: Record<ChecklistItemId, string> = {
  live_secret_key: "Mint a live secret key",
  live_publishable_key: "Mint a live publishable key",
  allowed_origins: "Add the origins your live widget runs on",
  live_webhook_endpoint: "Add a live webhook endpoint (recommended)",
  confirmation_email: "Confirm the buyer e-mail obligations and go live",
};

/** What needs the actor's merchant in the actor's mode: up to `limit` items of each kind, and their counts. */
export async function merchantActions(
  db: Tx,
  services: Services,
  actor: Actor,
  options: { limit: number; goLive: boolean },
): Promise<MerchantActions> {
  const now = services.clock();
  const merchant = await findMerchant(db, actor.merchantId);
  const shop = merchant?.shopDomain ?? null;
  const groups = await Promise.all([
    claimPayouts(db, actor, options.limit, now),
    feeRefunds(db, actor, options.limit),
    failingEndpoints(db, actor, options.limit),
    shop === null || !services.channelActions
      ? undefined
      : shopifyPayouts(db, services.channelActions, shop, options.limit),
    options.goLive && merchant?.liveAt === null ? goLiveSteps(db, services, actor) : undefined,
  ]);
  const present = groups.filter((group): group is ActionGroup => group !== undefined && group.count > 0);
  return { total: present.reduce((sum, group) => sum + group.count, 0), groups: present };
}

/** The free-look fees the merchant still has to refund through its own cart and confirm, oldest first. */
export async function listFeeRefundsToConfirm(
  db: Tx,
  actor: Actor,
  limit: number,
): Promise<{ count: number; items: (Omit<FeeRefundOwed, "createdAt"> & { cancelledAt: string })[] }> {
  const { count, items } = await listFeeRefundsOwed(db, actor, limit);
  return {
    count,
    items: items.map(({ createdAt, ...refund }) => ({ ...refund, cancelledAt: new Date(createdAt).toISOString() })),
  };
}

async function claimPayouts(db: Tx, actor: Actor, limit: number, now: number): Promise<ActionGroup> {
  const { count, items } = await listClaimsAwaitingMerchant(db, actor, limit);
  return {
    kind: "claim_payout",
    count,
    seeAll: { page: "claims", sub: "?status=approved" },
    items: items.map((claim) => {
      const terms = payoutTerms("merchant", claim.decidedAt, claim.remedy);
      const overdue = now >= terms.dueByMs;
      const amount = formatMoneyEnUs(claim.amountCents, claim.currency);
      return {
        // Overdue is news again: the digest reminds the team once the promise has passed.
        key: `claim_payout:${claim.claimId}${overdue ? ":overdue" : ""}`,
        title: `${claimTitle(claim.referenceNumber, claim.number)}: ${claim.remedy === "replacement" ? `replacement worth ${amount}` : `refund ${amount}`}`,
        todo: `${claim.remedy === "replacement" ? "Send the replacement" : "Refund the buyer"} by ${utcDay(terms.dueByMs)}${overdue ? " (overdue)" : ""}, then confirm it on the claim.`,
        brief: `${claimTitle(claim.referenceNumber, claim.number)}: ${claim.remedy === "replacement" ? "send a replacement worth" : "refund"} ${amount} by ${utcDay(terms.dueByMs)}${overdue ? " (overdue)" : ""}`,
        dueBy: new Date(terms.dueByMs).toISOString().slice(0, 10),
        overdue,
        link: { page: "claims", sub: `/${claim.claimId}` },
      };
    }),
  };
}

async function feeRefunds(db: Tx, actor: Actor, limit: number): Promise<ActionGroup> {
  const { count, items } = await listFeeRefundsOwed(db, actor, limit);
  return {
    kind: "fee_refund",
    count,
    seeAll: { page: "refunds", sub: "#fee-refunds" },
    items: items.map((refund) => ({
      key: `fee_refund:${refund.planId}`,
      title: `${refund.referenceNumber} (order ${refund.orderId}): fee ${formatMoneyEnUs(refund.amountCents, refund.currency)}`,
      todo: `The buyer cancelled in the free look on ${utcDay(refund.createdAt)}: refund the fee through your cart, then confirm it.`,
      brief: `${refund.referenceNumber}: refund the ${formatMoneyEnUs(refund.amountCents, refund.currency)} protection fee (cancelled in the free look)`,
      dueBy: null,
      overdue: false,
      link: { page: "purchases", sub: `/${refund.planId}` },
    })),
  };
}

async function failingEndpoints(db: Tx, actor: Actor, limit: number): Promise<ActionGroup> {
  // A merchant has a handful of endpoints: one page of them holds every failing one.
  const { data } = await listWebhookEndpoints(db, actor, { limit: 100 });
  const failing = data.filter((endpoint) => endpoint.status === "failing");
  return {
    kind: "webhook_endpoint",
    count: failing.length,
    seeAll: { page: "webhooks", sub: "" },
    items: failing.slice(0, limit).map((endpoint) => ({
      key: `webhook_endpoint:${endpoint.id}:${endpoint.failingSince ?? ""}`,
      title: endpoint.url,
      todo: `Failing${endpoint.failingSince ? ` since ${utcDay(Date.parse(endpoint.failingSince))}` : ""}: delivery stopped. Fix the receiver, then enable the endpoint again.`,
      brief: `A webhook endpoint is failing${endpoint.failingSince ? ` since ${utcDay(Date.parse(endpoint.failingSince))}` : ""}: delivery stopped`,
      dueBy: null,
      overdue: false,
      link: { page: "webhooks", sub: `/${endpoint.id}` },
    })),
  };
}

/** A Shopify shop's payouts whose job gave up (one still retrying is the app's to finish), as the app lists them. */
async function shopifyPayouts(db: Tx, channel: ChannelActions, shop: string, limit: number): Promise<ActionGroup> {
  const { claims, fees } = await channel.stuckPayouts(db, shop, DIGEST_ACTION_LIMIT);
  const items: ActionItem[] = [
    ...claims.map((payout) => ({
      key: `shopify_payout:claim:${payout.claimId}`,
      title: `Claim on ${payout.referenceNumber} (order ${payout.orderId}): ${payout.remedy} ${formatMoneyEnUs(payout.amountCents, payout.currency)}`,
      todo: `The app could not pay it on the order (${payout.lastError}). Pay it in the Shopify admin and tell the claims team.`,
      brief: `Claim on ${payout.referenceNumber}: the Shopify ${payout.remedy} gave up, pay it in the Shopify admin`,
      dueBy: null,
      overdue: false,
      link: { page: "claims" as const, sub: `/${payout.claimId}` },
    })),
    ...fees.map((refund) => ({
      key: `shopify_payout:fee:${refund.planId}`,
      title: `Fee refund on ${refund.referenceNumber} (order ${refund.orderId}): ${formatMoneyEnUs(refund.amountCents, refund.currency)}`,
      todo: `The app could not refund the protection fee on the order (${refund.lastError}). Refund it in the Shopify admin.`,
      brief: `${refund.referenceNumber}: the Shopify fee refund gave up, refund it in the Shopify admin`,
      dueBy: null,
      overdue: false,
      link: { page: "purchases" as const, sub: `/${refund.planId}` },
    })),
  ];
  return {
    kind: "shopify_payout",
    count: items.length,
    items: items.slice(0, limit),
    seeAll: { page: "claims", sub: "" },
  };
}

async function goLiveSteps(db: Tx, services: Services, actor: Actor): Promise<ActionGroup> {
  const state = await goLiveState(db, services, actor.merchantId);
  const left = state.items.filter((item) => !item.done);
  return {
    kind: "go_live",
    count: left.length,
    seeAll: { page: "goLive", sub: "" },
    items: left.map((item) => ({
      key: `go_live:${item.id}`,
      title: GO_LIVE_STEPS[item.id],
      todo: item.required ? "Needed before you go live." : "Recommended: your server hears of claims and payouts.",
      brief: GO_LIVE_STEPS[item.id],
      dueBy: null,
      overdue: false,
      link: { page: "goLive", sub: "" },
    })),
  };
}
