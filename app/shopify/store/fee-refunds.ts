// The Shopify side of free-look fee refunds: the fee_refunds rows of Shopify shops (channel "shopify") that the app
// refunds on the original order through a job, found with the shop and order they belong to. The rows themselves are
// written and confirmed by the core (server/domain/fee-refunds.ts); this module only finds them, notes a failed
// attempt's error, and queues each refund's job at most once.
import type { Mode, Queryable, StuckFeeRefund } from "../../../server/index.ts";
import type { JobStatus, NewShopifyJob } from "./jobs.ts";

/** The kind of the app's fee refund job in shopify_jobs: one per plan, its subject the plan's id. */
export const FEE_REFUND_JOB = "refund_protection_fee";

/** A fee refund owed on a Shopify order, as the refund job needs it. */
export interface ShopifyFeeRefund {
  planId: string;
  merchantId: string;
  mode: Mode;
  referenceNumber: string;
  shop: string;
  /** The Shopify order's numeric id (as the orders/create job stored it). */
  orderId: string;
  amountCents: number;
  currency: string;
  status: "pending" | "refunded";
  reference: string | null;
  /** A Shopify Markets order's: the buyer's currency, the plan's rate to it and what the buyer paid for the protection. */
  buyerCurrency: { currency: string; exchangeRate: string; buyerPaidCents: number | null } | null;
}

/** A Shopify fee refund that has not gone through: its last error and how far its job got. */
export interface ShopifyFeeRefundAttention extends StuckFeeRefund {
  /** The refund job: pending = will be retried, dead = gave up. */
  jobStatus: JobStatus | null;
  attempts: number;
  updatedAt: number | null;
  createdAt: number;
}

// fee_refunds → its merchant (a Shopify shop's merchant has shop_domain), its plan, and the shop's order of the plan.
const OWED_ON_SHOPIFY = `fee_refunds f
  JOIN merchants m ON m.id = f.merchant_id
  JOIN plans p ON p.id = f.plan_id
  JOIN shopify_orders s ON s.shop = m.shop_domain AND s.order_id = p.order_id`;

/**
 * Pending Shopify fee refunds with no job of `kind` yet (oldest first): each needs one. A row whose plan has no
 * shopify_orders row is not listed (nothing on Shopify to refund).
 */
export async function listUnqueuedShopifyFeeRefunds(
  tx: Queryable,
  query: { kind: string; limit: number },
): Promise<{ planId: string; shop: string; orderId: string }[]> {
  const rows = await tx.all<{ plan_id: string; shop: string; order_id: string }>(
    `SELECT f.plan_id, s.shop, s.order_id FROM ${OWED_ON_SHOPIFY}
     WHERE f.channel = 'shopify' AND f.status = 'pending'
       AND NOT EXISTS (SELECT 1 FROM shopify_jobs j WHERE j.shop = s.shop AND j.kind = ? AND j.subject = f.plan_id)
     ORDER BY f.created_at, f.plan_id LIMIT ?`,
    [query.kind, query.limit],
  );
  return rows.map((row) => ({ planId: row.plan_id, shop: row.shop, orderId: row.order_id }));
}

/**
 * Adds the job unless a job with its id exists (whoever added it, whatever became of it): a job keyed by what it is
 * about (one refund per plan) is enqueued at most once, even by two app instances at the same moment. With
 * `rearmDone`, a done job under the id is queued again with the payload, from its first attempt (the caller knows it
 * finished without doing its work); a pending or dead one is left as it is. Returns whether it was added or re-armed.
 */
export async function insertShopifyJobOnce(
  tx: Queryable,
  job: NewShopifyJob,
  at: number,
  options: { rearmDone?: boolean } = {},
): Promise<boolean> {
  const added = await tx.run(
    `INSERT INTO shopify_jobs (id, shop, kind, subject, payload, status, attempts, run_at, locked_until, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)
     ON CONFLICT (id) ${
       options.rearmDone
         ? `DO UPDATE SET status = 'pending', payload = excluded.payload, attempts = 0, run_at = excluded.run_at,
              locked_until = excluded.locked_until, last_error = NULL, updated_at = excluded.updated_at
            WHERE shopify_jobs.status = 'done'`
         : "DO NOTHING"
     }`,
    [job.id, job.shop, job.kind, job.subject, JSON.stringify(job.payload), at, job.lockedUntil, at, at],
  );
  return added > 0;
}

/** The plan's fee refund if it is a Shopify one, with its shop and order. */
export async function findShopifyFeeRefund(tx: Queryable, planId: string): Promise<ShopifyFeeRefund | undefined> {
  const row = await tx.get<{
    plan_id: string;
    merchant_id: string;
    mode: Mode;
    reference_number: string;
    shop: string;
    order_id: string;
    amount_cents: number;
    currency: string;
    status: "pending" | "refunded";
    reference: string | null;
    buyer_currency: string | null;
    exchange_rate: string | null;
    buyer_paid_cents: number | null;
  }>(
    `SELECT f.plan_id, f.merchant_id, f.mode, p.reference_number, s.shop, s.order_id, f.amount_cents, f.currency,
       f.status, f.reference, pp.currency AS buyer_currency, pp.exchange_rate, pp.buyer_paid_cents
     FROM ${OWED_ON_SHOPIFY} LEFT JOIN plan_presentments pp ON pp.plan_id = p.id
     WHERE f.plan_id = ? AND f.channel = 'shopify'`,
    [planId],
  );
  return (
    row && {
      planId: row.plan_id,
      merchantId: row.merchant_id,
      mode: row.mode,
      referenceNumber: row.reference_number,
      shop: row.shop,
      orderId: row.order_id,
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      status: row.status,
      reference: row.reference,
      buyerCurrency:
        row.buyer_currency === null
          ? null
          : {
              currency: row.buyer_currency,
              exchangeRate: row.exchange_rate!,
              buyerPaidCents: row.buyer_paid_cents === null ? null : Number(row.buyer_paid_cents),
            },
    }
  );
}

/** Notes why the last attempt at a pending refund failed (the dashboard shows it). */
export async function recordShopifyFeeRefundError(tx: Queryable, planId: string, lastError: string): Promise<void> {
  await tx.run("UPDATE fee_refunds SET last_error = ? WHERE plan_id = ? AND status = 'pending'", [lastError, planId]);
}

/** The shop's pending fee refunds whose last attempt failed, newest first, with their job (of `kind`). */
export async function listShopifyFeeRefundsNeedingAttention(
  tx: Queryable,
  query: { shop: string; kind: string; limit: number },
): Promise<ShopifyFeeRefundAttention[]> {
  const rows = await tx.all<{
    plan_id: string;
    reference_number: string;
    order_id: string;
    amount_cents: number;
    currency: string;
    last_error: string;
    job_status: JobStatus | null;
    attempts: number | null;
    updated_at: number | null;
    created_at: number;
  }>(
    `SELECT f.plan_id, p.reference_number, s.order_id, f.amount_cents, f.currency, f.last_error,
       j.status AS job_status, j.attempts, j.updated_at, f.created_at
     FROM ${OWED_ON_SHOPIFY}
     LEFT JOIN shopify_jobs j ON j.shop = s.shop AND j.kind = ? AND j.subject = f.plan_id
     WHERE m.shop_domain = ? AND f.channel = 'shopify' AND f.status = 'pending' AND f.last_error IS NOT NULL
     ORDER BY f.created_at DESC, f.plan_id DESC LIMIT ?`,
    [query.kind, query.shop, query.limit],
  );
  return rows.map((row) => ({
    planId: row.plan_id,
    referenceNumber: row.reference_number,
    orderId: row.order_id,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    lastError: row.last_error,
    jobStatus: row.job_status,
    attempts: Number(row.attempts ?? 0),
    updatedAt: row.updated_at === null ? null : Number(row.updated_at),
    createdAt: Number(row.created_at),
  }));
}
