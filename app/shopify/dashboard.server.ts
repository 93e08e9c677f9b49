// What the overview in the Shopify admin (app/routes/app._index.tsx) shows of the shop beside the dashboard's own
// overview, read in one go as plain JSON: the installation's state, the storefront setup, the latest protected orders
// (with the fee-mismatch flag and whether the reference reached the order), the shop's webhook endpoints that are
// failing or disabled, jobs that gave up, fee refunds and claim payouts that did not go through, customer data
// requests to answer, and the app's usage charges on Shopify (the subscription, charges waiting). The metrics, keys,
// program and endpoints have their own pages.
import {
  iso,
  listWebhookAttempts,
  listWebhookEndpoints,
  type Actor,
  type EndpointStatus,
  type Queryable,
  type WebhookAttempt,
} from "../../server/index.ts";
import {
  findShopifySubscription,
  findStatementCharge,
  listStatementCharges,
  type ShopifySubscriptionRecord,
  type StatementChargeStatus,
} from "./store/billing.ts";
import { listShopifyClaimPayoutsNeedingAttention } from "./store/claim-payouts.ts";
import { listShopifyDataRequests } from "./store/data-requests.ts";
import { listShopifyFeeRefundsNeedingAttention } from "./store/fee-refunds.ts";
import { findLatestShopifyJob, listDeadShopifyJobs, type JobStatus } from "./store/jobs.ts";
import { listLatestShopifyOrders, type ShopifyOrderSummary } from "./store/orders.ts";
import { findShopInstallation } from "./store/shops.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import { FEE_REFUND_JOB } from "./fee-refunds.server.ts";

const LATEST_ORDERS = 20;
/** Lists beyond these lengths are a sign of a wider problem; the dashboard shows the newest. */
const LIST_LIMIT = 50;
/** The app embed block's handle: extensions/theme-embed/blocks/protection.liquid. */
const THEME_EMBED_HANDLE = "protection";

/** An order as the dashboard shows it: whether the reference reached the order, and ISO times. */
export type DashboardOrder = Omit<ShopifyOrderSummary, "referenceWrittenAt" | "createdAt"> & {
  referenceWritten: boolean;
  createdAt: string;
};

export interface DashboardEndpoint {
  id: string;
  url: string;
  status: EndpointStatus;
  failingSince: string | null;
  lastAttempt: Pick<WebhookAttempt, "outcome" | "statusCode" | "error" | "attemptedAt"> | null;
}

export interface DashboardJob {
  id: string;
  kind: string;
  attempts: number;
  lastError: string | null;
  updatedAt: string;
}

/** Money owed back on a Shopify order that did not go through: retrying (its job will try again) or failed. */
export interface DashboardPayout {
  referenceNumber: string;
  orderId: string;
  amountCents: number;
  currency: string;
  status: "retrying" | "failed";
  attempts: number;
  lastError: string;
  /** When it became owed: the buyer cancelled, the claim was approved. */
  createdAt: string;
}

/** A free-look fee refund that did not go through. */
export type DashboardFeeRefund = DashboardPayout;

/** An approved claim that could not be paid on the order (yet): refunded or replaced. */
export interface DashboardClaimPayout extends DashboardPayout {
  claimId: string;
  remedy: "refund" | "replacement";
}

export interface ShopOverview {
  shop: string;
  status: "installed" | "uninstalled";
  storefront: {
    productCreated: boolean;
    tierCount: number;
    /** The storefront setup job while it has not succeeded (pending = retrying, dead = gave up). */
    setupJob: { status: "pending" | "dead"; attempts: number; lastError: string | null } | null;
    /** Opens the theme editor with the app embed switched on (the merchant saves). */
    themeEmbedUrl: string;
  };
  orders: DashboardOrder[];
  webhookEndpoints: DashboardEndpoint[];
  deadJobs: DashboardJob[];
  /** Protection fees of free-look cancellations that could not be refunded on the order (yet). */
  feeRefunds: DashboardFeeRefund[];
  /** Approved claims that could not be paid on the order (yet). */
  claimPayouts: DashboardClaimPayout[];
  dataRequests: { id: string; customerId: string; createdAt: string }[];
  billing: DashboardBilling;
}

/** The app's usage charges on Shopify (app/shopify/billing.server.ts): the subscription and the charges not through. */
export interface DashboardBilling {
  /** Null until the install's billing setup has created the subscription. */
  subscription: ShopifySubscriptionRecord | null;
  /** Owed statements whose charge waits: for a higher cap, or for an active subscription. */
  waiting: { statementId: string; amountCents: number; currency: string; status: StatementChargeStatus }[];
}

/** The shop's overview, or undefined when the shop never installed (or its data was erased by shop/redact). */
export async function loadShopOverview(
  deps: ShopifyDeps,
  shop: string,
  app: { apiKey: string },
): Promise<ShopOverview | undefined> {
  const installation = await findShopInstallation(deps.db, shop);
  if (!installation) return undefined;
  const db = deps.db;
  const actor: Actor = { merchantId: installation.merchantId, mode: installation.mode };
  return {
    shop,
    status: installation.status,
    storefront: {
      productCreated: installation.productId !== null,
      tierCount: installation.tiers.length,
      setupJob: await unfinishedSetupJob(db, shop),
      themeEmbedUrl: themeEmbedUrl(shop, app.apiKey),
    },
    orders: await latestOrders(db, shop),
    webhookEndpoints: await webhookEndpoints(db, actor),
    deadJobs: await deadJobs(db, shop),
    feeRefunds: await feeRefundsNeedingAttention(db, shop),
    claimPayouts: await claimPayoutsNeedingAttention(db, shop),
    dataRequests: await dataRequests(db, shop),
    billing: await billingState(db, shop),
  };
}

/** A statement's charge through Shopify, as its page and its CSV show it. */
export interface DashboardStatementCharge {
  status: StatementChargeStatus;
  /** Charged (or to be charged) for it; 0 when the merchant owed nothing. */
  amountCents: number;
  /** A balance owed to the merchant, carried to the next statement and netted against its charge. */
  carriedForwardCents: number;
  currency: string;
  /** Shopify's usage record (gid://shopify/AppUsageRecord/…), once charged. */
  usageRecordId: string | null;
  lastError: string | null;
}

/** The statement's charge through Shopify, or null: not a Shopify shop's, or not one of its live statements. */
export async function loadStatementCharge(
  db: Queryable,
  shop: string,
  statementId: string,
): Promise<DashboardStatementCharge | null> {
  const charge = await findStatementCharge(db, statementId);
  if (!charge || charge.shop !== shop) return null;
  return {
    status: charge.status,
    amountCents: charge.amountCents,
    carriedForwardCents: charge.carriedForwardCents,
    currency: charge.currency,
    usageRecordId: charge.usageRecordId,
    lastError: charge.lastError,
  };
}

/**
 * The statement CSV's last row for its Shopify charge: kind `shopify_charge`, no amount (the rows' amounts still sum
 * to the statement's net; the charge's own ledger entry is on the next statement), what was charged in the note
 * (no comma, quote or line break in any field: none needs quoting).
 */
export function statementChargeCsvRow(statementId: string, charge: DashboardStatementCharge): string {
  const note =
    `Shopify charge ${charge.status}; ${charge.amountCents} ${charge.currency} charged; ` +
    `${charge.carriedForwardCents} ${charge.currency} carried forward`;
  return (
    [charge.usageRecordId ?? "", "", "shopify_charge", "", charge.currency, statementId, "", note].join(",") + "\r\n"
  );
}

async function billingState(db: Queryable, shop: string): Promise<DashboardBilling> {
  const subscription = await findShopifySubscription(db, shop);
  const waiting = await listStatementCharges(db, shop, ["waiting_cap", "waiting_subscription"]);
  return {
    subscription: subscription ?? null,
    waiting: waiting.map((charge) => ({
      statementId: charge.statementId,
      amountCents: charge.amountCents,
      currency: charge.currency,
      status: charge.status,
    })),
  };
}

/** Shopify's deep link for app embed blocks: `…/editor?context=apps&activateAppId={api_key}/{handle}`. */
export function themeEmbedUrl(shop: string, apiKey: string): string {
  return `https://${shop}/admin/themes/current/editor?context=apps&activateAppId=${apiKey}/${THEME_EMBED_HANDLE}`;
}

async function unfinishedSetupJob(db: Queryable, shop: string): Promise<ShopOverview["storefront"]["setupJob"]> {
  const job = await findLatestShopifyJob(db, shop, "storefront_setup");
  if (!job || job.status === "done") return null;
  return { status: job.status, attempts: job.attempts, lastError: job.lastError };
}

async function latestOrders(db: Queryable, shop: string): Promise<DashboardOrder[]> {
  const orders = await listLatestShopifyOrders(db, shop, LATEST_ORDERS);
  return orders.map(({ referenceWrittenAt, createdAt, ...order }) => ({
    ...order,
    referenceWritten: referenceWrittenAt !== null,
    createdAt: iso(createdAt),
  }));
}

/** The merchant's endpoints with their latest attempt (its error says why an endpoint is failing or disabled). */
async function webhookEndpoints(db: Queryable, actor: Actor): Promise<DashboardEndpoint[]> {
  const { data: endpoints } = await listWebhookEndpoints(db, actor, { limit: LIST_LIMIT });
  return Promise.all(
    endpoints.map(async (endpoint) => {
      const [attempt] = (await listWebhookAttempts(db, actor, endpoint.id, { limit: 1 })).data;
      return {
        id: endpoint.id,
        url: endpoint.url,
        status: endpoint.status,
        failingSince: endpoint.failingSince,
        lastAttempt: attempt
          ? {
              outcome: attempt.outcome,
              statusCode: attempt.statusCode,
              error: attempt.error,
              attemptedAt: attempt.attemptedAt,
            }
          : null,
      };
    }),
  );
}

async function deadJobs(db: Queryable, shop: string): Promise<DashboardJob[]> {
  const jobs = await listDeadShopifyJobs(db, shop, LIST_LIMIT);
  return jobs.map(({ updatedAt, ...job }) => ({ ...job, updatedAt: iso(updatedAt) }));
}

/** A payout as its job left it: failed once the job gave up, else retrying. */
function dashboardPayout(payout: {
  referenceNumber: string;
  orderId: string;
  amountCents: number;
  currency: string;
  jobStatus: JobStatus | null;
  attempts: number;
  lastError: string;
  owedAt: number;
}): DashboardPayout {
  return {
    referenceNumber: payout.referenceNumber,
    orderId: payout.orderId,
    amountCents: payout.amountCents,
    currency: payout.currency,
    status: payout.jobStatus === "dead" ? "failed" : "retrying",
    attempts: payout.attempts,
    lastError: payout.lastError,
    createdAt: iso(payout.owedAt),
  };
}

async function feeRefundsNeedingAttention(db: Queryable, shop: string): Promise<DashboardFeeRefund[]> {
  const refunds = await listShopifyFeeRefundsNeedingAttention(db, { shop, kind: FEE_REFUND_JOB, limit: LIST_LIMIT });
  return refunds.map((refund) => dashboardPayout({ ...refund, owedAt: refund.createdAt }));
}

async function claimPayoutsNeedingAttention(db: Queryable, shop: string): Promise<DashboardClaimPayout[]> {
  const payouts = await listShopifyClaimPayoutsNeedingAttention(db, { shop, limit: LIST_LIMIT });
  return payouts.map((payout) => ({
    claimId: payout.claimId,
    remedy: payout.remedy,
    ...dashboardPayout({ ...payout, owedAt: payout.decidedAt }),
  }));
}

async function dataRequests(db: Queryable, shop: string): Promise<ShopOverview["dataRequests"]> {
  const requests = await listShopifyDataRequests(db, shop, LIST_LIMIT);
  return requests.map((request) => ({
    id: request.id,
    customerId: request.customerId,
    createdAt: iso(request.createdAt),
  }));
}
