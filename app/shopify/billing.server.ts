// What a Shopify merchant owes the service, charged through Shopify's Billing API (App Store requirement 1.2.1):
// a usage-based app subscription (one AppUsagePricing line: a capped amount per 30-day cycle, terms naming the fee
// share) created at install, approved by the merchant at Shopify's confirmation URL; then one usage record per closed
// live statement whose balance the merchant owes (docs/shopify.md "Billing"). A statement's charge row and its ledger
// entry commit together (server/domain/platform-charges.ts), once per statement; the charge job's usage record carries
// an idempotency key naming the statement, so a retried job charges once. A charge that would pass the cap waits
// until the merchant approves a raised cap; a subscription no longer active pauses new live protection.
import { formatDecimalAmount, parseDecimalAmount } from "@purchase-protection/contract";
import { loadActiveProgram } from "../../server/index.ts";
import {
  findShopifySubscription,
  findStatementCharge,
  listChargesWaitingSince,
  listStatementCharges,
  listUnchargedShopifyStatements,
  saveShopifySubscription,
  updateStatementCharge,
  type ShopifySubscriptionRecord,
  type StatementChargeStatus,
  type SubscriptionStatus,
} from "./store/billing.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import { AdminApiError, type AdminGraphql } from "./admin/graphql.ts";
import { activeSubscriptions, type ActiveSubscription, type UsageLineItem } from "./admin/active-subscriptions.ts";
import { appSubscriptionCreate } from "./admin/app-subscription-create.ts";
import { appUsageRecordCreate, type AppUsageRecordCreateResult } from "./admin/app-usage-record-create.ts";
import { appSubscriptionLineItemUpdate } from "./admin/app-subscription-line-item-update.ts";
import type { Job, JobCompletion, PeriodicTask } from "./jobs.server.ts";
import type { JobHandlers, JobPayloads } from "./named-jobs.ts";
import {
  requeueStatementCharge,
  saveActiveSubscription,
  saveChargeStatus,
  saveStatementCharged,
  saveSubscriptionStatus,
  settleStatementCharge,
} from "./store/units/billing.ts";

export const SUBSCRIPTION_NAME = "Purchase protection";
/** The usage line's capped amount per 30-day billing cycle at first, in the shop's currency: 1,000.00. */
export const INITIAL_CAPPED_AMOUNT_CENTS = 100_000;
/** How often the app looks for closed statements to charge (the settlements job closes them every 10 minutes). */
export const STATEMENT_CHARGE_SCAN_MS = 60_000;
const SCAN_LIMIT = 100;
/** How long a charge waits for a higher cap before it is tried again (a new billing cycle may have room). */
export const CAP_RECHECK_MS = 6 * 60 * 60 * 1000;
/** shopify.app.toml's `handle`: Shopify's admin opens the embedded app at /admin/apps/<handle>. */
const APP_HANDLE = "purchase-protection";
/** A subscription in these states charges nothing and pauses new live protection. */
export const ENDED_STATUSES: readonly SubscriptionStatus[] = ["CANCELLED", "FROZEN", "DECLINED", "EXPIRED"];
const LAST_ERROR_CHARS = 2_000;

/** Where Shopify sends the merchant after approving (the app in the admin, which shows the new state). */
export const billingReturnUrl = (shop: string) => `https://${shop}/admin/apps/${APP_HANDLE}`;

/** The charge job's id: one per statement, so the scan (or a second instance) queues it once. */
export const statementChargeJobId = (statementId: string) => `job_statement_charge_${statementId}`;

/** The terms shown on Shopify's approval page, naming the merchant's share of each fee. */
export function usageTerms(merchantShareBps: number): string {
  return (
    `Per settlement statement: the protection fees your buyers paid, less your ${merchantShareBps / 100} % share ` +
    "and the claims reimbursed to you. A balance owed to you is carried to the next statement."
  );
}

/** Why new live protection is paused while the subscription is in an ended state (the API's error message says it). */
export const pauseReason = (status: SubscriptionStatus) =>
  `the shop's Shopify app subscription is ${status.toLowerCase()}; approve the app's charges again in the app`;

const usagePricing = (item: UsageLineItem) =>
  item.plan.pricingDetails.__typename === "AppUsagePricing" ? item.plan.pricingDetails : undefined;

const usageLine = (subscription: { lineItems: UsageLineItem[] }) =>
  subscription.lineItems.find((item) => usagePricing(item) !== undefined);

/**
 * The row for a subscription as Shopify reports it (status, cap and balance of its usage line), keeping what the
 * previous row of the same subscription asked: a raise awaiting approval.
 */
function subscriptionRecord(
  shop: string,
  subscription: ActiveSubscription,
  previous: ShopifySubscriptionRecord | undefined,
  now: number,
): ShopifySubscriptionRecord | undefined {
  const line = usageLine(subscription);
  const pricing = line && usagePricing(line);
  if (!line || !pricing) return undefined;
  const currency = pricing.cappedAmount.currencyCode;
  const cappedAmountCents = parseDecimalAmount(pricing.cappedAmount.amount, currency);
  const raiseApproved = previous?.requestedCapCents != null && cappedAmountCents >= previous.requestedCapCents;
  return {
    shop,
    subscriptionId: subscription.id,
    lineItemId: line.id,
    status: subscription.status as SubscriptionStatus,
    test: subscription.test,
    currency,
    cappedAmountCents,
    balanceUsedCents: parseDecimalAmount(pricing.balanceUsed.amount, currency),
    // A raise still awaiting approval keeps its URL; an approved one (or none) leaves nothing to approve.
    confirmationUrl: previous?.requestedCapCents != null && !raiseApproved ? previous.confirmationUrl : null,
    requestedCapCents: raiseApproved ? null : (previous?.requestedCapCents ?? null),
    createdAt: previous?.subscriptionId === subscription.id ? previous.createdAt : now,
    updatedAt: now,
  };
}

/**
 * The shop's subscription: the row's when it is active or awaits approval, else an active one Shopify already has
 * (adopted), else a new one (PENDING, with its confirmation URL). Undefined when the app is not installed.
 */
export async function ensureSubscription(
  deps: ShopifyDeps,
  shop: string,
): Promise<ShopifySubscriptionRecord | undefined> {
  const installation = await deps.installation(shop);
  if (!installation) return undefined;
  const current = await findShopifySubscription(deps.db, shop);
  if (current && !ENDED_STATUSES.includes(current.status)) return current;
  const graphql = await deps.adminApi(shop);
  const state = await activeSubscriptions(graphql);
  const now = deps.services.clock();
  const adopted = state.currentAppInstallation.activeSubscriptions
    .map((subscription) => subscriptionRecord(shop, subscription, current, now))
    .find((record) => record?.status === "ACTIVE");
  if (adopted) {
    await applyActive(deps, installation.merchantId, adopted);
    return adopted;
  }
  const program = await loadActiveProgram(
    deps.db,
    { merchantId: installation.merchantId, mode: installation.mode },
    installation.programId,
  );
  const currency = state.shop.currencyCode;
  const { appSubscriptionCreate: created } = await appSubscriptionCreate(graphql, {
    name: SUBSCRIPTION_NAME,
    lineItems: [
      {
        plan: {
          appUsagePricingDetails: {
            cappedAmount: {
              amount: formatDecimalAmount(INITIAL_CAPPED_AMOUNT_CENTS, currency),
              currencyCode: currency,
            },
            terms: usageTerms(program.merchantShareBps),
          },
        },
      },
    ],
    returnUrl: billingReturnUrl(shop),
    test: state.shop.plan.partnerDevelopment,
  });
  const made = created.appSubscription && subscriptionRecord(shop, created.appSubscription, undefined, now);
  if (!made || !created.confirmationUrl)
    throw new Error("appSubscriptionCreate answered without a subscription, its usage line or a confirmation URL");
  const record = { ...made, confirmationUrl: created.confirmationUrl };
  await saveShopifySubscription(deps.db, record);
  return record;
}

/** An active subscription: kept, live protection resumed, and the charges that waited for it queued again. */
async function applyActive(deps: ShopifyDeps, merchantId: string, record: ShopifySubscriptionRecord): Promise<void> {
  const queued = await saveActiveSubscription(deps.db, deps.services, merchantId, record);
  if (queued > 0) deps.wakeJobs();
}

/**
 * app_subscriptions/update: the subscription's new status. An update of another subscription than the shop's current
 * one (an older one, replaced) changes nothing. Active: its cap and balance are read from Shopify (a raised cap is
 * approved this way too) and the waiting charges go through; ended: new live protection is paused, with the reason.
 */
export async function applySubscriptionUpdate(
  deps: ShopifyDeps,
  shop: string,
  update: JobPayloads["app_subscriptions/update"],
): Promise<void> {
  const [current, installation] = await Promise.all([findShopifySubscription(deps.db, shop), deps.installation(shop)]);
  if (!current || current.subscriptionId !== update.subscriptionId || !installation) return;
  const now = deps.services.clock();
  const status = update.status;
  if (status === "ACTIVE") {
    const graphql = await deps.adminApi(shop);
    const active = (await activeSubscriptions(graphql)).currentAppInstallation.activeSubscriptions.find(
      (subscription) => subscription.id === current.subscriptionId,
    );
    const record = active && subscriptionRecord(shop, active, current, now);
    // Not active on Shopify (yet): the next update says what it became.
    if (record) await applyActive(deps, installation.merchantId, record);
    return;
  }
  const ended = ENDED_STATUSES.includes(status);
  await saveSubscriptionStatus(
    deps.db,
    installation.merchantId,
    {
      ...current,
      status,
      confirmationUrl: ended ? null : current.confirmationUrl,
      requestedCapCents: ended ? null : current.requestedCapCents,
      updatedAt: now,
    },
    ended ? pauseReason(status) : null,
  );
}

/**
 * Asks Shopify to raise the cap to what the waiting charges need (at least double the current one) and returns the
 * URL where the merchant approves it. Undefined when nothing waits on the cap.
 */
export async function requestCapRaise(deps: ShopifyDeps, shop: string): Promise<string | undefined> {
  const subscription = await findShopifySubscription(deps.db, shop);
  const waiting = await listStatementCharges(deps.db, shop, ["waiting_cap"]);
  if (subscription?.status !== "ACTIVE" || waiting.length === 0) return undefined;
  const needed = subscription.balanceUsedCents + waiting.reduce((sum, charge) => sum + charge.amountCents, 0);
  // Whole hundreds of the currency's major unit, so the merchant approves a round figure.
  const step = parseDecimalAmount("100", subscription.currency);
  const cap = Math.ceil(Math.max(needed, subscription.cappedAmountCents * 2) / step) * step;
  const graphql = await deps.adminApi(shop);
  const { appSubscriptionLineItemUpdate: updated } = await appSubscriptionLineItemUpdate(graphql, {
    id: subscription.lineItemId,
    cappedAmount: { amount: formatDecimalAmount(cap, subscription.currency), currencyCode: subscription.currency },
  });
  if (!updated.confirmationUrl) throw new Error("appSubscriptionLineItemUpdate answered without a confirmation URL");
  await saveShopifySubscription(deps.db, {
    ...subscription,
    confirmationUrl: updated.confirmationUrl,
    requestedCapCents: cap,
    updatedAt: deps.services.clock(),
  });
  return updated.confirmationUrl;
}

/**
 * Gives every closed live statement of an installed shop's merchant its charge row (with the charge's ledger entry)
 * and, when the merchant owes something, its charge job. Returns how many statements it settled.
 */
export async function chargeClosedStatements(deps: ShopifyDeps): Promise<number> {
  const statements = await listUnchargedShopifyStatements(deps.db, SCAN_LIMIT);
  let queued = 0;
  for (const statement of statements) {
    const added = await settleStatementCharge(
      deps.db,
      deps.services,
      statement,
      statementChargeJobId(statement.statementId),
    );
    if (added) queued++;
  }
  if (queued > 0) deps.wakeJobs();
  return queued;
}

/**
 * Charges that waited for a higher cap, tried again once they have waited CAP_RECHECK_MS: a new 30-day billing cycle
 * empties the balance used, and Shopify sends no webhook for that. Returns how many it queued.
 */
async function recheckCappedCharges(deps: ShopifyDeps): Promise<number> {
  const now = deps.services.clock();
  const stale = await listChargesWaitingSince(deps.db, {
    status: "waiting_cap",
    before: now - CAP_RECHECK_MS,
    limit: SCAN_LIMIT,
  });
  for (const charge of stale) await requeueStatementCharge(deps.db, deps.services, charge);
  if (stale.length > 0) deps.wakeJobs();
  return stale.length;
}

export function statementChargeTask(deps: ShopifyDeps): PeriodicTask {
  return {
    name: "shopify-statement-charges",
    everyMs: STATEMENT_CHARGE_SCAN_MS,
    task: async () => (await chargeClosedStatements(deps)) + (await recheckCappedCharges(deps)),
  };
}

export function billingHandlers(
  deps: ShopifyDeps,
): Pick<JobHandlers, "billing_setup" | "charge_statement" | "app_subscriptions/update"> {
  return {
    billing_setup: async (job) => void (await ensureSubscription(deps, job.shop)),
    charge_statement: (job, completion) => chargeStatement(deps, job, completion),
    "app_subscriptions/update": (job) => applySubscriptionUpdate(deps, job.shop, job.payload),
  };
}

/**
 * One usage record for the statement's charge, keyed by the statement: Shopify answers a repeated key with the record
 * it made, so a retry after a lost answer or a crash charges nothing twice. Without an active subscription the charge
 * waits for one; past the cap it waits for the merchant to raise it (both go again on app_subscriptions/update).
 */
async function chargeStatement(
  deps: ShopifyDeps,
  job: Job<JobPayloads["charge_statement"]>,
  completion: JobCompletion,
): Promise<void> {
  const { statementId } = job.payload;
  const charge = await findStatementCharge(deps.db, statementId);
  if (charge?.status !== "pending") return;
  const now = deps.services.clock();
  const wait = (status: StatementChargeStatus, lastError: string | null = null) =>
    saveChargeStatus(deps.db, statementId, { status, lastError }, now, completion);
  const subscription = await findShopifySubscription(deps.db, job.shop);
  if (!(await deps.installation(job.shop)) || subscription?.status !== "ACTIVE") return wait("waiting_subscription");
  if (subscription.currency !== charge.currency)
    return wait(
      "failed",
      `the statement is in ${charge.currency} but the shop is billed in ${subscription.currency}: settled outside Shopify`,
    );
  try {
    const graphql = await deps.adminApi(job.shop);
    const line = await currentUsageLine(graphql, subscription);
    if (!line) return await wait("waiting_subscription");
    const pastCap = line.balanceUsedCents + charge.amountCents > line.cappedAmountCents;
    let created: AppUsageRecordCreateResult["appUsageRecordCreate"];
    try {
      ({ appUsageRecordCreate: created } = await appUsageRecordCreate(graphql, {
        subscriptionLineItemId: subscription.lineItemId,
        price: { amount: formatDecimalAmount(charge.amountCents, charge.currency), currencyCode: charge.currency },
        description: `Settlement statement ${statementId}`,
        idempotencyKey: `statement:${statementId}`,
      }));
    } catch (error) {
      // Past the cap Shopify refuses a new record (a userError) but still answers the one its key made before (this
      // job's own, whose answer was lost), so the call is made either way; refused, the charge waits for a raise.
      if (pastCap && error instanceof AdminApiError) return await wait("waiting_cap");
      throw error;
    }
    if (!created.appUsageRecord) throw new Error("appUsageRecordCreate answered without a usage record");
    const usageRecordId = created.appUsageRecord.id;
    await saveStatementCharged(
      deps.db,
      { statementId, usageRecordId },
      {
        ...subscription,
        cappedAmountCents: line.cappedAmountCents,
        // Past the cap, the record was an earlier one: the balance holds it already.
        balanceUsedCents: line.balanceUsedCents + (pastCap ? 0 : charge.amountCents),
        updatedAt: now,
      },
      now,
      completion,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await updateStatementCharge(
      deps.db,
      statementId,
      { status: "pending", lastError: message.slice(0, LAST_ERROR_CHARS) },
      now,
    );
    throw error;
  }
}

/** The subscription's usage line as Shopify has it now (cap and balance used this cycle), if it is still active. */
async function currentUsageLine(graphql: AdminGraphql, subscription: ShopifySubscriptionRecord) {
  const active = (await activeSubscriptions(graphql)).currentAppInstallation.activeSubscriptions.find(
    (candidate) => candidate.id === subscription.subscriptionId && candidate.status === "ACTIVE",
  );
  const line = active?.lineItems.find((item) => item.id === subscription.lineItemId);
  const pricing = line && usagePricing(line);
  if (!pricing) return undefined;
  return {
    cappedAmountCents: parseDecimalAmount(pricing.cappedAmount.amount, subscription.currency),
    balanceUsedCents: parseDecimalAmount(pricing.balanceUsed.amount, subscription.currency),
  };
}
