// Shopify's Billing API, the app's side of it: a shop's usage subscription (shopify_subscriptions: the last one the
// app created, as Shopify last reported it) and what became of each closed live statement of a Shopify shop's
// merchant (shopify_statement_charges: one row per statement, its amount and carried credit written once, its usage
// record and status as the charge job goes). The charge's ledger entry is the core's (server/domain/
// platform-charges.ts); this module only keeps the rows.
import type { Queryable } from "../../../server/index.ts";

/** Shopify's AppSubscriptionStatus. */
export type SubscriptionStatus = "PENDING" | "ACCEPTED" | "ACTIVE" | "CANCELLED" | "DECLINED" | "EXPIRED" | "FROZEN";

export interface ShopifySubscriptionRecord {
  shop: string;
  subscriptionId: string;
  lineItemId: string;
  status: SubscriptionStatus;
  test: boolean;
  currency: string;
  cappedAmountCents: number;
  balanceUsedCents: number;
  /** Where the merchant approves: the subscription while pending, a raised cap once asked for; else null. */
  confirmationUrl: string | null;
  /** The cap the pending raise asks for, or null. */
  requestedCapCents: number | null;
  createdAt: number;
  updatedAt: number;
}

interface SubscriptionRow {
  shop: string;
  subscription_id: string;
  line_item_id: string;
  status: SubscriptionStatus;
  test: boolean | number;
  currency: string;
  capped_amount_cents: number | string;
  balance_used_cents: number | string;
  confirmation_url: string | null;
  requested_cap_cents: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

const SUBSCRIPTION_COLUMNS =
  "shop, subscription_id, line_item_id, status, test, currency, capped_amount_cents, balance_used_cents, confirmation_url, requested_cap_cents, created_at, updated_at";

export async function findShopifySubscription(
  tx: Queryable,
  shop: string,
): Promise<ShopifySubscriptionRecord | undefined> {
  const row = await tx.get<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM shopify_subscriptions WHERE shop = ?`,
    [shop],
  );
  return (
    row && {
      shop: row.shop,
      subscriptionId: row.subscription_id,
      lineItemId: row.line_item_id,
      status: row.status,
      test: Boolean(row.test),
      currency: row.currency,
      cappedAmountCents: Number(row.capped_amount_cents),
      balanceUsedCents: Number(row.balance_used_cents),
      confirmationUrl: row.confirmation_url,
      requestedCapCents: row.requested_cap_cents === null ? null : Number(row.requested_cap_cents),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    }
  );
}

/** The shop's subscription is now this one (a new subscription replaces the row of an earlier one). */
export async function saveShopifySubscription(tx: Queryable, subscription: ShopifySubscriptionRecord): Promise<void> {
  await tx.run(
    `INSERT INTO shopify_subscriptions (${SUBSCRIPTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (shop) DO UPDATE SET subscription_id = excluded.subscription_id, line_item_id = excluded.line_item_id,
       status = excluded.status, test = excluded.test, currency = excluded.currency,
       capped_amount_cents = excluded.capped_amount_cents, balance_used_cents = excluded.balance_used_cents,
       confirmation_url = excluded.confirmation_url, requested_cap_cents = excluded.requested_cap_cents,
       created_at = excluded.created_at, updated_at = excluded.updated_at`,
    [
      subscription.shop,
      subscription.subscriptionId,
      subscription.lineItemId,
      subscription.status,
      // Booleans go in as 0/1 (SQLite has none; PostgreSQL casts).
      subscription.test ? 1 : 0,
      subscription.currency,
      subscription.cappedAmountCents,
      subscription.balanceUsedCents,
      subscription.confirmationUrl,
      subscription.requestedCapCents,
      subscription.createdAt,
      subscription.updatedAt,
    ],
  );
}

/** Where a statement's Shopify charge stands. */
export type StatementChargeStatus =
  | "none" // nothing owed by the merchant (a credit, or settled)
  | "pending" // to be charged (the job runs)
  | "waiting_cap" // the charge would pass the subscription's capped amount: the merchant raises it
  | "waiting_subscription" // no active subscription: charged once the merchant approves one
  | "charged"
  | "failed" // no retry can charge it through Shopify (another currency): settled outside Shopify
  | "before_billing"; // closed before the app billed through Shopify

export interface StatementChargeRecord {
  statementId: string;
  shop: string;
  merchantId: string;
  currency: string;
  balanceCents: number;
  amountCents: number;
  carriedForwardCents: number;
  status: StatementChargeStatus;
  usageRecordId: string | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}

interface ChargeRow {
  statement_id: string;
  shop: string;
  merchant_id: string;
  currency: string;
  balance_cents: number | string;
  amount_cents: number | string;
  carried_forward_cents: number | string;
  status: StatementChargeStatus;
  usage_record_id: string | null;
  last_error: string | null;
  created_at: number | string;
  updated_at: number | string;
}

const CHARGE_COLUMNS =
  "statement_id, shop, merchant_id, currency, balance_cents, amount_cents, carried_forward_cents, status, usage_record_id, last_error, created_at, updated_at";

const toCharge = (row: ChargeRow): StatementChargeRecord => ({
  statementId: row.statement_id,
  shop: row.shop,
  merchantId: row.merchant_id,
  currency: row.currency,
  balanceCents: Number(row.balance_cents),
  amountCents: Number(row.amount_cents),
  carriedForwardCents: Number(row.carried_forward_cents),
  status: row.status,
  usageRecordId: row.usage_record_id,
  lastError: row.last_error,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** Writes the statement's charge row unless it has one; resolves to whether this call wrote it. */
export async function insertStatementCharge(tx: Queryable, charge: StatementChargeRecord): Promise<boolean> {
  const added = await tx.run(
    `INSERT INTO shopify_statement_charges (${CHARGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (statement_id) DO NOTHING`,
    [
      charge.statementId,
      charge.shop,
      charge.merchantId,
      charge.currency,
      charge.balanceCents,
      charge.amountCents,
      charge.carriedForwardCents,
      charge.status,
      charge.usageRecordId,
      charge.lastError,
      charge.createdAt,
      charge.updatedAt,
    ],
  );
  return added > 0;
}

export async function findStatementCharge(
  tx: Queryable,
  statementId: string,
): Promise<StatementChargeRecord | undefined> {
  const row = await tx.get<ChargeRow>(
    `SELECT ${CHARGE_COLUMNS} FROM shopify_statement_charges WHERE statement_id = ?`,
    [statementId],
  );
  return row && toCharge(row);
}

/** A charge's progress: its status, and the usage record or the error that goes with it. */
export async function updateStatementCharge(
  tx: Queryable,
  statementId: string,
  update: { status: StatementChargeStatus; usageRecordId?: string | null; lastError?: string | null },
  at: number,
): Promise<void> {
  await tx.run(
    `UPDATE shopify_statement_charges SET status = ?, usage_record_id = COALESCE(?, usage_record_id), last_error = ?,
       updated_at = ? WHERE statement_id = ? AND status <> 'charged'`,
    [update.status, update.usageRecordId ?? null, update.lastError ?? null, at, statementId],
  );
}

/** The shop's charges in these states, oldest statement first. */
export async function listStatementCharges(
  tx: Queryable,
  shop: string,
  statuses: readonly StatementChargeStatus[],
): Promise<StatementChargeRecord[]> {
  const rows = await tx.all<ChargeRow>(
    `SELECT ${CHARGE_COLUMNS} FROM shopify_statement_charges
     WHERE shop = ? AND status IN (${statuses.map(() => "?").join(", ")}) ORDER BY statement_id`,
    [shop, ...statuses],
  );
  return rows.map(toCharge);
}

/**
 * Closed live statements of Shopify shops' merchants that have no charge row yet, oldest first: each needs one. Their
 * shop and merchant come along.
 */
export async function listUnchargedShopifyStatements(
  tx: Queryable,
  limit: number,
): Promise<{ statementId: string; shop: string; merchantId: string; currency: string }[]> {
  const rows = await tx.all<{ id: string; shop: string; merchant_id: string; currency: string }>(
    `SELECT s.id, i.shop, s.merchant_id, s.currency FROM settlement_statements s
     JOIN shop_installations i ON i.merchant_id = s.merchant_id
     WHERE s.mode = 'live' AND NOT EXISTS (SELECT 1 FROM shopify_statement_charges c WHERE c.statement_id = s.id)
     ORDER BY s.period_start, s.id LIMIT ?`,
    [limit],
  );
  return rows.map((row) => ({
    statementId: row.id,
    shop: row.shop,
    merchantId: row.merchant_id,
    currency: row.currency,
  }));
}

/**
 * The closing balance of the merchant's last live statement in the currency closed before the app billed through
 * Shopify (status before_billing), or 0: settled outside Shopify, it is not charged again.
 */
export async function findBalanceBeforeBilling(
  tx: Queryable,
  account: { merchantId: string; currency: string },
): Promise<number> {
  const row = await tx.get<{ balance_cents: number | string }>(
    `SELECT c.balance_cents FROM shopify_statement_charges c
     JOIN settlement_statements s ON s.id = c.statement_id
     WHERE c.merchant_id = ? AND c.currency = ? AND c.status = 'before_billing' AND s.mode = 'live'
     ORDER BY s.period_start DESC LIMIT 1`,
    [account.merchantId, account.currency],
  );
  return Number(row?.balance_cents ?? 0);
}

/** Charges in this state not touched since `before`, oldest first, with their shop. */
export async function listChargesWaitingSince(
  tx: Queryable,
  query: { status: StatementChargeStatus; before: number; limit: number },
): Promise<{ statementId: string; shop: string }[]> {
  const rows = await tx.all<{ statement_id: string; shop: string }>(
    `SELECT statement_id, shop FROM shopify_statement_charges WHERE status = ? AND updated_at < ?
     ORDER BY updated_at, statement_id LIMIT ?`,
    [query.status, query.before, query.limit],
  );
  return rows.map((row) => ({ statementId: row.statement_id, shop: row.shop }));
}
