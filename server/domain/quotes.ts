import { timingSafeEqual } from "node:crypto";
import { newId, newQuoteToken, sha256Hex } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Currency } from "../vocabulary/money.ts";
import { applyBps, assertSupportedCurrency } from "./money.ts";
import { loadActiveProgram, type Program } from "./programs.ts";
import { offerFor } from "./experiments.ts";
import type { OfferWording } from "@purchase-protection/contract";
import { COVERED_REASONS, fullDisclosure, QUOTE_LIFETIME_MS } from "./disclosure.ts";
import { appendEvent } from "./events.ts";
import type { Principal } from "./merchants.ts";
import type { StoredEmail } from "./buyer-emails.ts";
import type { FeeParts } from "../vocabulary/plans.ts";
import { insertQuote, lockQuote, markQuoteDeclined, type QuoteRecord } from "../store/quotes.ts";
import { findMerchant, findMerchantLivePause } from "../store/merchants.ts";

export type { QuoteRecord };

export interface QuoteInput {
  orderAmountCents: number;
  orderId: string;
  programId: string;
  currency: string;
  /** The buyer's address as stored: sealed, with its lookup hash (storeBuyerEmail). */
  customerEmail?: StoredEmail;
  productCategory?: string;
  /** The store's own order name as buyers know it ("#1001"); the plan keeps it (the portal finds plans by it). */
  orderName?: string;
  /** The cart or checkout the offer is for: an offer experiment's variant follows it (else the order id). */
  cartId?: string;
}

export interface Quote extends FeeParts {
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
  /** The offer's label: a key of the contract's approved wordings (docs/api.md "Offer experiments"). */
  offerWording: OfferWording;
  expiresAt: string;
  livemode: boolean;
}

/** The merchant, mode and kind of the key a request came with. */
export type KeyedActor = Pick<Principal, "merchantId" | "mode" | "kind">;

/**
 * docs/api.md "Offers": the covered amount is the order amount up to the program's maximum in the order's currency; the
 * fee is the program's rate of the covered amount (rounded half up to the currency's minor unit), at least its minimum
 * fee in that currency.
 */
export function priceOffer(
  program: Pick<Program, "rateBps" | "currencyLimits">,
  currency: string,
  orderAmountCents: number,
): { coveredAmountCents: number; feeCents: number } {
  const limit = program.currencyLimits[currency as Currency];
  // A program's currencies and limits agree (server/domain/programs.ts checks it), and quotes check the currency first.
  if (!limit) throw new Error(`The program has no limits in ${currency}.`);
  const coveredAmountCents = Math.min(orderAmountCents, limit.maxCoveredCents);
  return { coveredAmountCents, feeCents: Math.max(limit.minFeeCents, applyBps(coveredAmountCents, program.rateBps)) };
}

/**
 * docs/api.md "Who pays": which part of a fee the buyer pays and which the merchant. The buyer pays all of it, none
 * (merchant) or, for split, the program's buyer share rounded as applyBps rounds; the merchant pays the rest, so the
 * parts always sum to the fee.
 */
export function splitFee(program: Pick<Program, "payer" | "buyerShareBps">, feeCents: number): FeeParts {
  const buyerFeeCents =
    program.payer === "buyer"
      ? feeCents
      : program.payer === "merchant"
        ? 0
        : applyBps(feeCents, program.buyerShareBps ?? 0);
  return { payer: program.payer, buyerFeeCents, merchantFeeCents: feeCents - buyerFeeCents };
}

/**
 * New live protection may be paused for the merchant by the platform that bills it (docs/api.md "Errors",
 * live_protection_paused: a Shopify shop whose app subscription is no longer active); test mode never is.
 */
async function assertLiveProtectionOn(tx: Tx, merchantId: string): Promise<void> {
  const reason = await findMerchantLivePause(tx, merchantId);
  if (reason !== null)
    throw new DomainError("forbidden", "live_protection_paused", `Live protection is paused: ${reason}`);
}

/** Prices an offer under the merchant's program and stores it with the hash of a fresh single-use token. */
export async function createQuote(
  tx: Tx,
  services: Services,
  actor: KeyedActor,
  input: QuoteInput,
): Promise<{ quote: Quote; token: string; storeName?: string }> {
  assertSupportedCurrency(input.currency);
  if (actor.mode === "live") await assertLiveProtectionOn(tx, actor.merchantId);
  // The program's terms, or those of the cart's variant when an offer experiment runs on it.
  const offer = await offerFor(tx, await loadActiveProgram(tx, actor, input.programId), input.cartId ?? input.orderId);
  const program = offer.program;
  if (!program.currencies.includes(input.currency)) {
    throw new DomainError(
      "invalid",
      "currency_unsupported",
      `Protection program '${program.id}' does not offer protection in ${input.currency}.`,
      "currency",
    );
  }
  if (
    input.productCategory !== undefined &&
    program.productCategories.length > 0 &&
    !program.productCategories.includes(input.productCategory)
  ) {
    throw new DomainError(
      "invalid",
      "product_category_unsupported",
      `Protection program '${program.id}' does not cover the category '${input.productCategory}'.`,
      "productCategory",
    );
  }
  const { coveredAmountCents, feeCents } = priceOffer(program, input.currency, input.orderAmountCents);
  const parts = splitFee(program, feeCents);
  const now = services.clock();
  const id = newId("qt", now, services.random);
  const token = newQuoteToken(services.random);
  const expiresAt = now + QUOTE_LIFETIME_MS;
  await insertQuote(tx, actor, {
    id,
    programId: program.id,
    orderId: input.orderId,
    currency: input.currency,
    orderAmountCents: input.orderAmountCents,
    feeCents,
    coveredAmountCents,
    customerEmailSealed: input.customerEmail?.sealed ?? null,
    customerEmailHash: input.customerEmail?.hash ?? null,
    productCategory: input.productCategory ?? null,
    tokenHash: sha256Hex(token),
    createdAt: now,
    expiresAt,
    keyKind: actor.kind,
    orderName: input.orderName ?? null,
    offerWording: offer.offerWording,
    experimentId: offer.experiment?.id ?? null,
    experimentVariant: offer.experiment?.variant ?? null,
    cartIdentity: offer.experiment?.cartIdentity ?? null,
    ...parts,
  });
  const quote: Quote = {
    quoteId: id,
    status: "open",
    orderId: input.orderId,
    currency: input.currency,
    orderAmountCents: input.orderAmountCents,
    feeCents,
    ...parts,
    coveredAmountCents,
    coveredReasons: COVERED_REASONS,
    disclosureText: fullDisclosure(services.settings.companyName),
    termsUrl: `${services.settings.portalUrl}/terms`,
    offerWording: offer.offerWording,
    expiresAt: iso(expiresAt),
    livemode: actor.mode === "live",
  };
  // A merchant-paid offer is shown as a notice naming the store: docs/api.md "Who pays".
  const storeName = program.payer === "merchant" ? (await findMerchant(tx, actor.merchantId))?.name : undefined;
  return { quote, token, storeName };
}

/**
 * The actor's quote, locked for the rest of the transaction. Another merchant's (or the other mode's) quote is
 * reported as missing: its existence is not ours to reveal. Its state is not checked here: the caller first proves
 * it may learn it (assertQuoteToken), then calls assertQuoteOpen.
 */
export async function lockOwnQuote(
  tx: Tx,
  actor: Actor,
  quoteId: string,
): Promise<QuoteRecord & { merchantShareBps: number }> {
  const quote = await lockQuote(tx, actor, quoteId);
  if (!quote) throw notFound("quote", quoteId, "quoteId");
  return quote;
}

/** Throws unless the quote can still be confirmed or declined. */
export function assertQuoteOpen(services: Services, quote: QuoteRecord): void {
  if (quote.status === "confirmed")
    throw new DomainError(
      "conflict",
      "quote_already_used",
      `Quote '${quote.id}' has already been confirmed.`,
      "quoteId",
    );
  if (quote.status === "declined")
    throw new DomainError("conflict", "quote_declined", `Quote '${quote.id}' was declined.`, "quoteId");
  if (services.clock() >= quote.expiresAt)
    throw new DomainError(
      "conflict",
      "quote_expired",
      `Quote '${quote.id}' expired at ${iso(quote.expiresAt)}; request a new quote.`,
      "quoteId",
    );
}

/** Constant-time check of a presented token against the stored hash. */
export function assertQuoteToken(quote: QuoteRecord, token: string): void {
  const presented = Buffer.from(sha256Hex(token), "hex");
  const stored = Buffer.from(quote.tokenHash, "hex");
  if (presented.length !== stored.length || !timingSafeEqual(presented, stored)) {
    throw new DomainError(
      "forbidden",
      "quote_token_invalid",
      "The quote token does not match this quote.",
      "quoteToken",
    );
  }
}

export interface Declined {
  quoteId: string;
  status: "declined";
  reason: string | null;
  declinedAt: string;
  livemode: boolean;
}

export async function declineQuote(
  tx: Tx,
  services: Services,
  actor: KeyedActor,
  quoteId: string,
  reason: string | undefined,
): Promise<Declined> {
  const quote = await lockOwnQuote(tx, actor, quoteId);
  // The page's public key may decline only what a publishable key was offered; a quote the merchant's server made
  // answers as if it did not exist.
  if (actor.kind === "publishable" && quote.keyKind !== "publishable") throw notFound("quote", quoteId, "quoteId");
  assertQuoteOpen(services, quote);
  const now = services.clock();
  await markQuoteDeclined(tx, quoteId, reason ?? null, now);
  const declined: Declined = {
    quoteId,
    status: "declined",
    reason: reason ?? null,
    declinedAt: iso(now),
    livemode: actor.mode === "live",
  };
  await appendEvent(tx, services, actor, "offer.declined", declined);
  return declined;
}
