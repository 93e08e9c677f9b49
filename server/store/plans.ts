// Plans (plans) and the purchases they make with their orders: a purchase is a plan joined with the order it
// protects. The order context and the consent record are stored as JSON.
import type { Actor } from "../vocabulary/actors.ts";
import type { Mode } from "../vocabulary/ids.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import type { ConsentRecord, FeeParts, Payer, PlanSelector, PlanStatus, OrderContext } from "../vocabulary/plans.ts";
import { forUpdate, type Queryable } from "./database.ts";
import { listPage } from "./pagination.ts";
import type { FeeRefundRecord } from "./fee-refunds.ts";
import type { PlanPresentmentRecord } from "../vocabulary/plans.ts";

export interface NewPlan extends FeeParts {
  id: string;
  referenceNumber: string;
  quoteId: string;
  orderId: string;
  currency: string;
  feeCents: number;
  coveredAmountCents: number;
  customerEmailSealed: string | null;
  customerEmailHash: string | null;
  purchasedAt: number;
  freeLookEndsAt: number;
  orderContext: OrderContext;
  consent: ConsentRecord;
  createdAt: number;
  /** The store's own order name as buyers know it ("#1001"), from the quote; or null. */
  orderName: string | null;
  /** The keyed hash of the order's shipping address (server/domain/buyer-addresses.ts), when the confirm had one. */
  shippingAddressHash: string | null;
  /** The buyer's language and time zone for the plan's e-mails, when known (server/domain/plan-language.ts). */
  locale: string | null;
  timeZone: string | null;
}

/** A plan with the status of the order it protects; `consent` only where one plan is read. */
export interface PurchaseRecord extends FeeParts {
  id: string;
  referenceNumber: string;
  status: PlanStatus;
  orderId: string;
  orderStatus: "protected" | "merchant_refunded";
  quoteId: string;
  currency: string;
  feeCents: number;
  coveredAmountCents: number;
  purchasedAt: number;
  freeLookEndsAt: number;
  createdAt: number;
  voidedAt: number | null;
  voidReason: string | null;
  /** The buyer's free-look cancellation. */
  cancelledAt: number | null;
  /** The buyer's locale and time zone recorded at confirm (server/domain/plan-language.ts), or null. */
  locale: string | null;
  timeZone: string | null;
  /** The fee owed back after a free-look cancellation (fee_refunds), or null. */
  feeRefund: FeeRefundRecord | null;
  /** What the buyer paid in their own currency, when it is not the plan's (plan_presentments). */
  presentment?: PlanPresentmentRecord;
  mode: Mode;
  consent?: ConsentRecord;
}

interface PurchaseRow {
  id: string;
  reference_number: string;
  status: PlanStatus;
  order_id: string;
  order_status: PurchaseRecord["orderStatus"];
  quote_id: string;
  currency: string;
  fee_cents: number;
  payer: Payer;
  buyer_fee_cents: number;
  merchant_fee_cents: number;
  covered_amount_cents: number;
  purchased_at: number;
  free_look_ends_at: number;
  created_at: number;
  voided_at: number | null;
  void_reason: string | null;
  cancelled_at: number | null;
  locale: string | null;
  time_zone: string | null;
  fee_refund_id: string | null;
  fee_refund_amount_cents: number | null;
  fee_refund_currency: string | null;
  fee_refund_channel: FeeRefundRecord["channel"] | null;
  fee_refund_status: FeeRefundRecord["status"] | null;
  fee_refund_reference: string | null;
  fee_refund_refunded_at: number | null;
  presentment_currency: string | null;
  presentment_covered_amount_cents: number | null;
  presentment_buyer_paid_cents: number | null;
  presentment_exchange_rate: string | null;
  mode: Mode;
  consent?: string;
}

export interface PurchaseFilters {
  status?: PlanStatus;
  orderId?: string;
  referenceNumber?: string;
  createdGte?: number;
  createdLt?: number;
}

const PURCHASES =
  "plans p JOIN orders o ON o.plan_id = p.id LEFT JOIN fee_refunds fr ON fr.plan_id = p.id LEFT JOIN plan_presentments pp ON pp.plan_id = p.id";
const PURCHASE_COLUMNS = `p.id, p.reference_number, p.status, p.order_id, o.status AS order_status, p.quote_id, p.currency, p.fee_cents,
  p.payer, p.buyer_fee_cents, p.merchant_fee_cents, p.covered_amount_cents, p.purchased_at, p.free_look_ends_at, p.created_at, p.voided_at, p.void_reason, p.cancelled_at, p.mode,
  p.locale, p.time_zone,
  fr.id AS fee_refund_id, fr.amount_cents AS fee_refund_amount_cents, fr.currency AS fee_refund_currency,
  fr.channel AS fee_refund_channel, fr.status AS fee_refund_status, fr.reference AS fee_refund_reference,
  fr.refunded_at AS fee_refund_refunded_at, pp.currency AS presentment_currency,
  pp.covered_amount_cents AS presentment_covered_amount_cents, pp.buyer_paid_cents AS presentment_buyer_paid_cents,
  pp.exchange_rate AS presentment_exchange_rate`;

function toPurchaseRecord(row: PurchaseRow): PurchaseRecord {
  return {
    id: row.id,
    referenceNumber: row.reference_number,
    status: row.status,
    orderId: row.order_id,
    orderStatus: row.order_status,
    quoteId: row.quote_id,
    currency: row.currency,
    feeCents: row.fee_cents,
    payer: row.payer,
    buyerFeeCents: row.buyer_fee_cents,
    merchantFeeCents: row.merchant_fee_cents,
    coveredAmountCents: row.covered_amount_cents,
    purchasedAt: row.purchased_at,
    freeLookEndsAt: row.free_look_ends_at,
    createdAt: row.created_at,
    voidedAt: row.voided_at,
    voidReason: row.void_reason,
    cancelledAt: row.cancelled_at,
    locale: row.locale,
    timeZone: row.time_zone,
    feeRefund:
      row.fee_refund_id === null
        ? null
        : {
            id: row.fee_refund_id,
            amountCents: row.fee_refund_amount_cents!,
            currency: row.fee_refund_currency!,
            channel: row.fee_refund_channel!,
            status: row.fee_refund_status!,
            reference: row.fee_refund_reference,
            refundedAt: row.fee_refund_refunded_at,
          },
    ...(row.presentment_currency === null
      ? {}
      : {
          presentment: {
            currency: row.presentment_currency,
            coveredAmountCents: row.presentment_covered_amount_cents!,
            buyerPaidCents: row.presentment_buyer_paid_cents,
            exchangeRate: row.presentment_exchange_rate!,
          },
        }),
    mode: row.mode,
    ...(row.consent === undefined ? {} : { consent: JSON.parse(row.consent) as ConsentRecord }),
  };
}

/** Stores an active plan; false when its reference number is already taken (nothing is written then). */
export async function insertPlan(tx: Queryable, owner: Actor, plan: NewPlan): Promise<boolean> {
  const inserted = await tx.all(
    `INSERT INTO plans (id, merchant_id, mode, quote_id, order_id, currency, fee_cents, covered_amount_cents, customer_email_sealed, customer_email_hash,
       purchased_at, free_look_ends_at, order_context, consent, created_at, reference_number, order_name,
       payer, buyer_fee_cents, merchant_fee_cents, shipping_address_hash, locale, time_zone, status, experiment_id,
       experiment_variant)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active',
       (SELECT experiment_id FROM quotes WHERE id = ?), (SELECT experiment_variant FROM quotes WHERE id = ?))
     ON CONFLICT (reference_number) DO NOTHING RETURNING id`,
    [
      plan.id,
      owner.merchantId,
      owner.mode,
      plan.quoteId,
      plan.orderId,
      plan.currency,
      plan.feeCents,
      plan.coveredAmountCents,
      plan.customerEmailSealed,
      plan.customerEmailHash,
      plan.purchasedAt,
      plan.freeLookEndsAt,
      JSON.stringify(plan.orderContext),
      JSON.stringify(plan.consent),
      plan.createdAt,
      plan.referenceNumber,
      plan.orderName,
      plan.payer,
      plan.buyerFeeCents,
      plan.merchantFeeCents,
      plan.shippingAddressHash,
      plan.locale,
      plan.timeZone,
      // The offer experiment and variant that priced the quote go with it onto the plan.
      plan.quoteId,
      plan.quoteId,
    ],
  );
  return inserted.length === 1;
}

const SELECTOR_COLUMN = { planId: "id", referenceNumber: "reference_number", orderId: "order_id" } as const;

/** The owner's plan named by the selector (the newest, for an order id), row-locked, or undefined. */
export async function lockPlan(
  tx: Queryable,
  owner: Actor,
  selector: PlanSelector,
): Promise<{ id: string; status: PlanStatus } | undefined> {
  const [[name, value]] = Object.entries(selector) as [keyof typeof SELECTOR_COLUMN, string][];
  return tx.get<{ id: string; status: PlanStatus }>(
    `SELECT id, status FROM plans WHERE ${SELECTOR_COLUMN[name]} = ? AND merchant_id = ? AND mode = ? ORDER BY id DESC LIMIT 1${forUpdate(tx)}`,
    [value, owner.merchantId, owner.mode],
  );
}

/** The buyer's free-look cancellation of an active plan. */
export async function markPlanCancelled(tx: Queryable, planId: string, at: number): Promise<void> {
  await tx.run("UPDATE plans SET status = 'cancelled', cancelled_at = ? WHERE id = ? AND status = 'active'", [
    at,
    planId,
  ]);
}

export async function markPlanVoided(tx: Queryable, planId: string, reason: string | null, at: number): Promise<void> {
  await tx.run("UPDATE plans SET status = 'voided', void_reason = ?, voided_at = ? WHERE id = ?", [reason, at, planId]);
}

/** The owner's plan by its reference number, as a claim needs it. */
export async function findPlanByReference(
  tx: Queryable,
  owner: Actor,
  referenceNumber: string,
): Promise<{ id: string; status: PlanStatus; coveredAmountCents: number; currency: string } | undefined> {
  const row = await tx.get<{ id: string; status: PlanStatus; covered_amount_cents: number; currency: string }>(
    "SELECT id, status, covered_amount_cents, currency FROM plans WHERE reference_number = ? AND merchant_id = ? AND mode = ?",
    [referenceNumber, owner.merchantId, owner.mode],
  );
  return (
    row && { id: row.id, status: row.status, coveredAmountCents: row.covered_amount_cents, currency: row.currency }
  );
}

/** The owner's purchase with its consent record, or undefined. */
export async function findPurchase(tx: Queryable, owner: Actor, planId: string): Promise<PurchaseRecord | undefined> {
  const row = await tx.get<PurchaseRow>(
    `SELECT ${PURCHASE_COLUMNS}, p.consent FROM ${PURCHASES} WHERE p.id = ? AND p.merchant_id = ? AND p.mode = ?`,
    [planId, owner.merchantId, owner.mode],
  );
  return row && toPurchaseRecord(row);
}

export function listPurchasesPage(
  tx: Queryable,
  owner: Actor,
  query: PageQuery & PurchaseFilters,
): Promise<Page<PurchaseRecord>> {
  const filters: [string, string | number | undefined][] = [
    ["p.status = ?", query.status],
    ["p.order_id = ?", query.orderId],
    ["p.reference_number = ?", query.referenceNumber],
    ["p.created_at >= ?", query.createdGte],
    ["p.created_at < ?", query.createdLt],
  ];
  return listPage(tx, owner, PURCHASES, PURCHASE_COLUMNS, filters, query, toPurchaseRecord, "p");
}

/** The owner's plan with the hash of its buyer's address, row-locked, or undefined. */
export async function lockPlanBuyer(
  tx: Queryable,
  owner: Actor,
  planId: string,
): Promise<{ id: string; status: PlanStatus; customerEmailHash: string | null } | undefined> {
  const row = await tx.get<{ id: string; status: PlanStatus; customer_email_hash: string | null }>(
    `SELECT id, status, customer_email_hash FROM plans WHERE id = ? AND merchant_id = ? AND mode = ?${forUpdate(tx)}`,
    [planId, owner.merchantId, owner.mode],
  );
  return row && { id: row.id, status: row.status, customerEmailHash: row.customer_email_hash };
}

/** Replaces the plan's buyer address (sealed, with its lookup hash). */
export async function setPlanCustomerEmail(
  tx: Queryable,
  planId: string,
  email: { sealed: string; hash: string },
): Promise<void> {
  await tx.run("UPDATE plans SET customer_email_sealed = ?, customer_email_hash = ? WHERE id = ?", [
    email.sealed,
    email.hash,
    planId,
  ]);
}
