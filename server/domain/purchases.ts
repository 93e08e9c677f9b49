import { iso, type Actor, type Tx } from "./context.ts";
import { notFound } from "./errors.ts";
import { listPage, type Page, type PageQuery } from "./pagination.ts";
import type { ConsentRecord } from "./plans.ts";

/** A protected purchase: the plan and the order it protects, as merchants see them. */
export interface Purchase {
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
  livemode: boolean;
  consent?: ConsentRecord;
}

export interface PurchaseRow {
  id: string;
  reference_number: string;
  status: Purchase["status"];
  order_id: string;
  order_status: Purchase["orderStatus"];
  quote_id: string;
  currency: string;
  fee_cents: number;
  covered_amount_cents: number;
  purchased_at: number;
  free_look_ends_at: number;
  created_at: number;
  voided_at: number | null;
  void_reason: string | null;
  mode: string;
  consent: string;
}

const PURCHASE_COLUMNS = `p.id, p.reference_number, p.status, p.order_id, o.status AS order_status, p.quote_id, p.currency, p.fee_cents,
  p.covered_amount_cents, p.purchased_at, p.free_look_ends_at, p.created_at, p.voided_at, p.void_reason, p.mode, p.consent`;

export function purchaseFromRow(row: PurchaseRow, withConsent = false): Purchase {
  return {
    id: row.id,
    object: "purchase",
    referenceNumber: row.reference_number,
    status: row.status,
    orderId: row.order_id,
    orderStatus: row.order_status,
    quoteId: row.quote_id,
    currency: row.currency,
    feeCents: row.fee_cents,
    coveredAmountCents: row.covered_amount_cents,
    purchasedAt: iso(row.purchased_at),
    freeLookEndsAt: iso(row.free_look_ends_at),
    createdAt: iso(row.created_at),
    voidedAt: row.voided_at === null ? null : iso(row.voided_at),
    voidReason: row.void_reason,
    livemode: row.mode === "live",
    ...(withConsent ? { consent: JSON.parse(row.consent) as ConsentRecord } : {}),
  };
}

/** One purchase, by default with its consent record (what the buyer saw and agreed to), for disputes. */
export async function getPurchase(db: Tx, actor: Actor, id: string, withConsent = true): Promise<Purchase> {
  const row = await db.get<PurchaseRow>(`SELECT ${PURCHASE_COLUMNS} FROM plans p JOIN orders o ON o.plan_id = p.id WHERE p.id = ? AND p.merchant_id = ? AND p.mode = ?`, [
    id, actor.merchantId, actor.mode,
  ]);
  if (!row) throw notFound("purchase", id);
  return purchaseFromRow(row, withConsent);
}

export interface PurchaseFilters {
  status?: Purchase["status"];
  orderId?: string;
  createdGte?: number;
  createdLt?: number;
}

export async function listPurchases(db: Tx, actor: Actor, query: PageQuery & PurchaseFilters): Promise<Page<Purchase>> {
  const filters: [string, string | number | undefined][] = [
    ["p.status = ?", query.status],
    ["p.order_id = ?", query.orderId],
    ["p.created_at >= ?", query.createdGte],
    ["p.created_at < ?", query.createdLt],
  ];
  return listPage(db, actor, "plans p JOIN orders o ON o.plan_id = p.id", PURCHASE_COLUMNS, filters, query, (row: PurchaseRow) => purchaseFromRow(row), "p");
}
