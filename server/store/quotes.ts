// Quotes (quotes): priced offers. Only the SHA-256 of a quote's token is stored; the buyer's address sealed, with
// its lookup hash. Expiry is not a stored status: it follows from expires_at.
import type { Actor } from "../vocabulary/actors.ts";
import type { KeyKind } from "../vocabulary/ids.ts";
import { findOwnedRow, forUpdate, type Queryable } from "./database.ts";
import { MERCHANT_SHARE_OF_QUOTE } from "./programs.ts";
import type { FeeParts, Payer } from "../vocabulary/plans.ts";

export type StoredQuoteStatus = "open" | "confirmed" | "declined";

/** A quote as the confirm and decline paths need it (who pays which part of its fee: FeeParts). */
export interface QuoteRecord extends FeeParts {
  id: string;
  orderId: string;
  currency: string;
  orderAmountCents: number;
  feeCents: number;
  coveredAmountCents: number;
  customerEmailSealed: string | null;
  customerEmailHash: string | null;
  status: StoredQuoteStatus;
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  /** The kind of key that made the quote. */
  keyKind: KeyKind;
  /** The store's own order name as buyers know it ("#1001"), or null. */
  orderName: string | null;
}

export interface NewQuote extends Omit<QuoteRecord, "status"> {
  programId: string;
  productCategory: string | null;
  /** The wording shown, and the offer experiment and variant that priced the quote (null: none). */
  offerWording: string;
  experimentId: string | null;
  experimentVariant: string | null;
  /** The identity the variant followed; null outside an experiment. */
  cartIdentity: string | null;
}

interface QuoteRow {
  id: string;
  order_id: string;
  currency: string;
  order_amount_cents: number;
  fee_cents: number;
  covered_amount_cents: number;
  customer_email_sealed: string | null;
  customer_email_hash: string | null;
  status: StoredQuoteStatus;
  token_hash: string;
  created_at: number;
  expires_at: number;
  key_kind: KeyKind;
  order_name: string | null;
  payer: Payer;
  buyer_fee_cents: number;
  merchant_fee_cents: number;
}

const QUOTE_COLUMNS =
  "id, order_id, currency, order_amount_cents, fee_cents, covered_amount_cents, customer_email_sealed, customer_email_hash, status, token_hash, created_at, expires_at, key_kind, order_name, payer, buyer_fee_cents, merchant_fee_cents";

/** Stores an open quote. */
export async function insertQuote(tx: Queryable, owner: Actor, quote: NewQuote): Promise<void> {
  await tx.run(
    `INSERT INTO quotes (id, merchant_id, mode, program_id, order_id, currency, order_amount_cents, fee_cents,
       covered_amount_cents, customer_email_sealed, customer_email_hash, product_category, status, token_hash, created_at, expires_at, key_kind, order_name,
       payer, buyer_fee_cents, merchant_fee_cents, offer_wording, experiment_id, experiment_variant,
       cart_identity)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      quote.id,
      owner.merchantId,
      owner.mode,
      quote.programId,
      quote.orderId,
      quote.currency,
      quote.orderAmountCents,
      quote.feeCents,
      quote.coveredAmountCents,
      quote.customerEmailSealed,
      quote.customerEmailHash,
      quote.productCategory,
      quote.tokenHash,
      quote.createdAt,
      quote.expiresAt,
      quote.keyKind,
      quote.orderName,
      quote.payer,
      quote.buyerFeeCents,
      quote.merchantFeeCents,
      quote.offerWording,
      quote.experimentId,
      quote.experimentVariant,
      quote.cartIdentity,
    ],
  );
}

/**
 * The owner's quote, locked for the rest of the transaction, with the merchant's share of the fee under the program
 * that priced it (0 when the program is gone), read in the same statement: a confirm needs both. Undefined when the
 * owner has no such quote.
 */
export async function lockQuote(
  tx: Queryable,
  owner: Actor,
  quoteId: string,
): Promise<(QuoteRecord & { merchantShareBps: number }) | undefined> {
  const row = await findOwnedRow<QuoteRow & { merchant_share_bps: number }>(
    tx,
    owner,
    "quotes",
    `${QUOTE_COLUMNS}, ${MERCHANT_SHARE_OF_QUOTE} AS merchant_share_bps`,
    quoteId,
    forUpdate(tx),
  );
  if (row === undefined) return undefined;
  return {
    merchantShareBps: Number(row.merchant_share_bps),
    id: row.id,
    orderId: row.order_id,
    currency: row.currency,
    orderAmountCents: row.order_amount_cents,
    feeCents: row.fee_cents,
    coveredAmountCents: row.covered_amount_cents,
    customerEmailSealed: row.customer_email_sealed,
    customerEmailHash: row.customer_email_hash,
    status: row.status,
    tokenHash: row.token_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    keyKind: row.key_kind,
    orderName: row.order_name,
    payer: row.payer,
    buyerFeeCents: row.buyer_fee_cents,
    merchantFeeCents: row.merchant_fee_cents,
  };
}

export async function markQuoteDeclined(
  tx: Queryable,
  quoteId: string,
  reason: string | null,
  at: number,
): Promise<void> {
  await tx.run("UPDATE quotes SET status = 'declined', decline_reason = ?, decided_at = ? WHERE id = ?", [
    reason,
    at,
    quoteId,
  ]);
}

export async function markQuoteConfirmed(tx: Queryable, quoteId: string, at: number): Promise<void> {
  await tx.run("UPDATE quotes SET status = 'confirmed', decided_at = ? WHERE id = ?", [at, quoteId]);
}

/** Why a confirm of the quote was refused (a reason the merchant must fix) and when; the quote stays open. */
export async function recordConfirmRefusal(tx: Queryable, quoteId: string, code: string, at: number): Promise<void> {
  await tx.run("UPDATE quotes SET confirm_refused_code = ?, confirm_refused_at = ? WHERE id = ?", [code, at, quoteId]);
}

/**
 * How many of the owner's quotes had a confirm refused with `code` since `since` and never became a plan: buyers who
 * chose protection and got none.
 */
export async function countRefusedConfirms(tx: Queryable, owner: Actor, code: string, since: number): Promise<number> {
  const row = await tx.get<{ refused: number | string }>(
    `SELECT COUNT(*) AS refused FROM quotes
     WHERE merchant_id = ? AND mode = ? AND confirm_refused_at >= ? AND confirm_refused_code = ? AND status <> 'confirmed'`,
    [owner.merchantId, owner.mode, since, code],
  );
  return Number(row?.refused ?? 0);
}

/** The cart identity an offer experiment's variant followed on the owner's quote (null: none, or no such quote). */
export async function findQuoteCartIdentity(tx: Queryable, owner: Actor, quoteId: string): Promise<string | null> {
  const row = await findOwnedRow<{ cart_identity: string | null }>(tx, owner, "quotes", "cart_identity", quoteId);
  return row?.cart_identity ?? null;
}
