// The billing jobs' units of work (app/shopify/billing.server.ts): the subscription's row with the merchant's live
// protection paused or resumed, a statement's charge row with its ledger entry and its job, and a charge job's outcome
// with its completion; each one transaction.
import {
  DomainError,
  setLiveProtectionPause,
  settleStatementThroughPlatform,
  type Database,
  type Queryable,
  type Services,
} from "../../../../server/index.ts";
import type { JobCompletion } from "../../jobs.server.ts";
import { enqueueNamedJob, enqueueNamedJobOnce } from "../../named-jobs.ts";
import {
  findBalanceBeforeBilling,
  findShopifySubscription,
  insertStatementCharge,
  listStatementCharges,
  saveShopifySubscription,
  updateStatementCharge,
  type ShopifySubscriptionRecord,
  type StatementChargeStatus,
} from "../billing.ts";

const WAITING: readonly StatementChargeStatus[] = ["waiting_cap", "waiting_subscription"];

/** Go live needs the merchant's approval of the app's charges: checked in go live's unit of work. */
export async function assertBillingActive(tx: Queryable, shop: string): Promise<void> {
  const subscription = await findShopifySubscription(tx, shop);
  if (subscription?.status !== "ACTIVE")
    throw new DomainError(
      "conflict",
      "billing_not_active",
      "Approve the app's usage charges in Shopify first (Billing, on the overview): live protection is charged through Shopify.",
    );
}

/**
 * An active subscription: kept, the merchant's live protection resumed, and the charges that waited for it queued
 * again. Returns how many it queued.
 */
export function saveActiveSubscription(
  db: Database,
  services: Services,
  merchantId: string,
  record: ShopifySubscriptionRecord,
): Promise<number> {
  return db.transaction(async (tx) => {
    await saveShopifySubscription(tx, record);
    await setLiveProtectionPause(tx, merchantId, null);
    const waiting = await listStatementCharges(tx, record.shop, WAITING);
    for (const charge of waiting) await chargeAgain(tx, services, record.shop, charge.statementId);
    return waiting.length;
  });
}

/** A subscription in another status: kept, and with a `pauseReason` (it ended) new live protection paused. */
export function saveSubscriptionStatus(
  db: Database,
  merchantId: string,
  record: ShopifySubscriptionRecord,
  pauseReason: string | null,
): Promise<void> {
  return db.transaction(async (tx) => {
    await saveShopifySubscription(tx, record);
    if (pauseReason !== null) await setLiveProtectionPause(tx, merchantId, pauseReason);
  });
}

/**
 * A closed live statement's charge row (with the charge's ledger entry) and, when the merchant owes something, its
 * charge job under `chargeJobId`. Returns false when the statement had its row already.
 */
export function settleStatementCharge(
  db: Database,
  services: Services,
  statement: { statementId: string; shop: string; merchantId: string; currency: string },
  chargeJobId: string,
): Promise<boolean> {
  const { statementId, shop, merchantId, currency } = statement;
  return db.transaction(async (tx) => {
    const settlement = await settleStatementThroughPlatform(
      tx,
      services,
      { merchantId, mode: "live" },
      statementId,
      await findBalanceBeforeBilling(tx, { merchantId, currency }),
    );
    const now = services.clock();
    const owed = settlement.amountCents > 0;
    const fresh = await insertStatementCharge(tx, {
      ...settlement,
      shop,
      merchantId,
      status: owed ? "pending" : "none",
      usageRecordId: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    });
    if (fresh && owed)
      await enqueueNamedJobOnce(tx, services, {
        id: chargeJobId,
        shop,
        kind: "charge_statement",
        payload: { statementId },
        subject: statementId,
      });
    return fresh;
  });
}

/** A charge that waited, pending again with a job to make it (its usage record's key keeps it to one record). */
export function requeueStatementCharge(
  db: Database,
  services: Services,
  charge: { shop: string; statementId: string },
): Promise<void> {
  return db.transaction((tx) => chargeAgain(tx, services, charge.shop, charge.statementId));
}

async function chargeAgain(tx: Queryable, services: Services, shop: string, statementId: string): Promise<void> {
  await updateStatementCharge(tx, statementId, { status: "pending" }, services.clock());
  await enqueueNamedJob(tx, services, {
    shop,
    kind: "charge_statement",
    payload: { statementId },
    subject: statementId,
  });
}

/** The charge job made no record: the charge waits, or failed for good, with the job's completion. */
export function saveChargeStatus(
  db: Database,
  statementId: string,
  outcome: { status: StatementChargeStatus; lastError: string | null },
  at: number,
  completion: JobCompletion,
): Promise<void> {
  return db.transaction(async (tx) => {
    await updateStatementCharge(tx, statementId, outcome, at);
    await completion.markDone(tx);
  });
}

/**
 * The charge's usage record is made: the charge is charged, and the subscription keeps its cap and balance as they
 * are now, with the job's completion.
 */
export function saveStatementCharged(
  db: Database,
  charge: { statementId: string; usageRecordId: string },
  subscription: ShopifySubscriptionRecord,
  at: number,
  completion: JobCompletion,
): Promise<void> {
  return db.transaction(async (tx) => {
    await updateStatementCharge(tx, charge.statementId, { status: "charged", usageRecordId: charge.usageRecordId }, at);
    await saveShopifySubscription(tx, subscription);
    await completion.markDone(tx);
  });
}
