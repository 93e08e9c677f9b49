import { timingSafeEqual } from "node:crypto";
import { newId, newQuoteToken, sha256Hex, type KeyKind } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Actor, type Services, type Tx } from "./context.ts";
import { applyBps, assertSupportedCurrency } from "./money.ts";
import { loadActiveProgram } from "./programs.ts";
import { COVERED_REASONS, fullDisclosure, QUOTE_LIFETIME_MS } from "./disclosure.ts";
import { appendEvent } from "./events.ts";
import type { Principal } from "./merchants.ts";
import { forUpdate } from "../store/database.ts";
import type { StoredEmail } from "./buyer-emails.ts";

export interface QuoteInput {
  orderAmountCents: number;
  orderId: string;
  programId: string;
  currency: string;
  /** The buyer's address as stored: sealed, with its lookup hash (storeBuyerEmail). */
  customerEmail?: StoredEmail;
  productCategory?: string;
}

export interface Quote {
  quoteId: string;
  status: "open" | "confirmed" | "declined" | "expired";
  orderId: string;
  currency: string;
  orderAmountCents: number;
  feeCents: number;
  coveredAmountCents: number;
  coveredReasons: readonly string[];
  disclosureText: string;
  termsUrl: string;
  expiresAt: string;
  livemode: boolean;
}

/** A quote row as the confirm and decline paths need it. */
export interface QuoteRecord {
  id: string;
  order_id: string;
  currency: string;
  order_amount_cents: number;
  fee_cents: number;
  covered_amount_cents: number;
  customer_email_sealed: string | null;
  customer_email_hash: string | null;
  status: "open" | "confirmed" | "declined";
  token_hash: string;
  created_at: number;
  expires_at: number;
  /** The kind of key that made the quote. */
  key_kind: KeyKind;
}

/** The merchant, mode and kind of the key a request came with. */
export type KeyedActor = Pick<Principal, "merchantId" | "mode" | "kind">;

const QUOTE_COLUMNS = "id, order_id, currency, order_amount_cents, fee_cents, covered_amount_cents, customer_email_sealed, customer_email_hash, status, token_hash, created_at, expires_at, key_kind";

/** Prices an offer under the merchant's program and stores it with the hash of a fresh single-use token. */
export async function createQuote(tx: Tx, services: Services, actor: KeyedActor, input: QuoteInput): Promise<{ quote: Quote; token: string }> {
  assertSupportedCurrency(input.currency);
  const program = await loadActiveProgram(tx, actor, input.programId);
  if (!program.currencies.includes(input.currency)) {
    throw new DomainError("invalid", "currency_unsupported", `Protection program '${program.id}' does not offer protection in ${input.currency}.`, "currency");
  }
  if (input.productCategory !== undefined && program.productCategories.length > 0 && !program.productCategories.includes(input.productCategory)) {
    throw new DomainError("invalid", "product_category_unsupported", `Protection program '${program.id}' does not cover the category '${input.productCategory}'.`, "product_category");
  }
  const coveredAmountCents = Math.min(input.orderAmountCents, program.maxCoveredCents);
  const feeCents = Math.max(program.minFeeCents, applyBps(coveredAmountCents, program.rateBps));
  const now = services.clock();
  const id = newId("qt", now, services.random);
  const token = newQuoteToken(services.random);
  const expiresAt = now + QUOTE_LIFETIME_MS;
  await tx.run(
    `INSERT INTO quotes (id, merchant_id, mode, program_id, order_id, currency, order_amount_cents, fee_cents,
       covered_amount_cents, customer_email_sealed, customer_email_hash, product_category, status, token_hash, created_at, expires_at, key_kind)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?)`,
    [id, actor.merchantId, actor.mode, program.id, input.orderId, input.currency, input.orderAmountCents, feeCents,
      coveredAmountCents, input.customerEmail?.sealed ?? null, input.customerEmail?.hash ?? null, input.productCategory ?? null, sha256Hex(token), now, expiresAt, actor.kind],
  );
  const quote: Quote = {
    quoteId: id,
    status: "open",
    orderId: input.orderId,
    currency: input.currency,
    orderAmountCents: input.orderAmountCents,
    feeCents,
    coveredAmountCents,
    coveredReasons: COVERED_REASONS,
    disclosureText: fullDisclosure(services.settings.companyName),
    termsUrl: `${services.settings.portalUrl}/terms`,
    expiresAt: iso(expiresAt),
    livemode: actor.mode === "live",
  };
  return { quote, token };
}

/**
 * The actor's quote, locked for the rest of the transaction. Another merchant's (or the other mode's) quote is
 * reported as missing: its existence is not ours to reveal. Its state is not checked here: the caller first proves
 * it may learn it (assertQuoteToken), then calls assertQuoteOpen.
 */
export async function lockQuote(tx: Tx, actor: Actor, quoteId: string, param: string): Promise<QuoteRecord> {
  const quote = await tx.get<QuoteRecord>(
    `SELECT ${QUOTE_COLUMNS} FROM quotes WHERE id = ? AND merchant_id = ? AND mode = ?${forUpdate(tx)}`,
    [quoteId, actor.merchantId, actor.mode],
  );
  if (!quote) throw notFound("quote", quoteId, param);
  return quote;
}

/** Throws unless the quote can still be confirmed or declined. */
export function assertQuoteOpen(services: Services, quote: QuoteRecord, param: string): void {
  if (quote.status === "confirmed") throw new DomainError("conflict", "quote_already_used", `Quote '${quote.id}' has already been confirmed.`, param);
  if (quote.status === "declined") throw new DomainError("conflict", "quote_declined", `Quote '${quote.id}' was declined.`, param);
  if (services.clock() >= quote.expires_at) throw new DomainError("conflict", "quote_expired", `Quote '${quote.id}' expired at ${iso(quote.expires_at)}; request a new quote.`, param);
}

/** Constant-time check of a presented token against the stored hash. */
export function assertQuoteToken(quote: QuoteRecord, token: string): void {
  const presented = Buffer.from(sha256Hex(token), "hex");
  const stored = Buffer.from(quote.token_hash, "hex");
  if (presented.length !== stored.length || !timingSafeEqual(presented, stored)) {
    throw new DomainError("forbidden", "quote_token_invalid", "The quote token does not match this quote.", "quoteToken");
  }
}

export interface Declined {
  quoteId: string;
  status: "declined";
  reason: string | null;
  declinedAt: string;
  livemode: boolean;
}

export async function declineQuote(tx: Tx, services: Services, actor: KeyedActor, quoteId: string, reason: string | undefined, param: string): Promise<Declined> {
  const quote = await lockQuote(tx, actor, quoteId, param);
  // The page's public key may decline only what a publishable key was offered; a quote the merchant's server made
  // answers as if it did not exist.
  if (actor.kind === "publishable" && quote.key_kind !== "publishable") throw notFound("quote", quoteId, param);
  assertQuoteOpen(services, quote, param);
  const now = services.clock();
  await tx.run("UPDATE quotes SET status = 'declined', decline_reason = ?, decided_at = ? WHERE id = ?", [reason ?? null, now, quoteId]);
  const declined: Declined = { quoteId, status: "declined", reason: reason ?? null, declinedAt: iso(now), livemode: actor.mode === "live" };
  await appendEvent(tx, services, actor, "offer.declined", declined);
  return declined;
}
