import { iso, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { notFound } from "./errors.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import type { ConsentRecord, FeeParts } from "../vocabulary/plans.ts";
import { findPurchase, listPurchasesPage, type PurchaseFilters, type PurchaseRecord } from "../store/plans.ts";
import type { FeeRefundRecord } from "../store/fee-refunds.ts";
import type { PlanPresentmentRecord } from "../vocabulary/plans.ts";

export type { PurchaseFilters };

/**
 * A protected purchase: the plan and the order it protects, as merchants see them. `feeCents` is the whole price of
 * the protection; `payer`, `buyerFeeCents` and `merchantFeeCents` say who paid which part (docs/api.md "Who pays").
 */
export interface Purchase extends FeeParts {
  id: string;
  object: "purchase";
  referenceNumber: string;
  status: "active" | "voided" | "cancelled";
  orderId: string;
  orderStatus: "protected" | "merchant_refunded";
  quoteId: string;
  currency: string;
  feeCents: number;
  coveredAmountCents: number;
  purchasedAt: string;
  freeLookEndsAt: string;
  createdAt: string;
  voidedAt: string | null;
  voidReason: string | null;
  /** When the buyer cancelled within the 48-hour free look (status cancelled). */
  cancelledAt: string | null;
  /**
   * The buyer's locale (BCP 47) and IANA time zone recorded at confirm: the buyer e-mails' language and the zone of their
   * dates (docs/api.md "E-mail to buyers"); null when not known (English, UTC).
   */
  customerLocale: string | null;
  customerTimeZone: string | null;
  /** The fee owed back after a free-look cancellation: refunded by the Shopify app, or confirmed by the merchant. */
  feeRefund: FeeRefund | null;
  livemode: boolean;
  /**
   * What the buyer saw and paid in their own currency, when it is not the plan's (a Shopify Markets order: docs/shopify.md
   * "Shopify Markets: the buyer's currency"); the plan's amounts, ledger and statements stay in `currency`.
   */
  presentment?: PlanPresentmentRecord;
  consent?: ConsentRecord;
}

export interface FeeRefund {
  amountCents: number;
  currency: string;
  channel: "shopify" | "merchant";
  status: "pending" | "refunded";
  reference: string | null;
  refundedAt: string | null;
}

export const toFeeRefund = (record: FeeRefundRecord): FeeRefund => ({
  amountCents: record.amountCents,
  currency: record.currency,
  channel: record.channel,
  status: record.status,
  reference: record.reference,
  refundedAt: record.refundedAt === null ? null : iso(record.refundedAt),
});

/** The purchase as merchants see it; with its consent record when the record carries one and `withConsent`. */
export function toPurchase(record: PurchaseRecord, withConsent = false): Purchase {
  return {
    id: record.id,
    object: "purchase",
    referenceNumber: record.referenceNumber,
    status: record.status,
    orderId: record.orderId,
    orderStatus: record.orderStatus,
    quoteId: record.quoteId,
    currency: record.currency,
    feeCents: record.feeCents,
    payer: record.payer,
    buyerFeeCents: record.buyerFeeCents,
    merchantFeeCents: record.merchantFeeCents,
    coveredAmountCents: record.coveredAmountCents,
    purchasedAt: iso(record.purchasedAt),
    freeLookEndsAt: iso(record.freeLookEndsAt),
    createdAt: iso(record.createdAt),
    voidedAt: record.voidedAt === null ? null : iso(record.voidedAt),
    voidReason: record.voidReason,
    cancelledAt: record.cancelledAt === null ? null : iso(record.cancelledAt),
    customerLocale: record.locale,
    customerTimeZone: record.timeZone,
    feeRefund: record.feeRefund === null ? null : toFeeRefund(record.feeRefund),
    livemode: record.mode === "live",
    ...(record.presentment ? { presentment: record.presentment } : {}),
    ...(withConsent && record.consent ? { consent: record.consent } : {}),
  };
}

/** One purchase, by default with its consent record (what the buyer saw and agreed to), for disputes. */
export async function getPurchase(db: Tx, actor: Actor, id: string, withConsent = true): Promise<Purchase> {
  const record = await findPurchase(db, actor, id);
  if (!record) throw notFound("purchase", id);
  return toPurchase(record, withConsent);
}

export async function listPurchases(db: Tx, actor: Actor, query: PageQuery & PurchaseFilters): Promise<Page<Purchase>> {
  const page = await listPurchasesPage(db, actor, query);
  return { ...page, data: page.data.map((record) => toPurchase(record)) };
}
