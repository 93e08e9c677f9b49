import { newId, newReferenceNumber } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { COVERED_REASONS, FREE_LOOK_MS } from "./disclosure.ts";
import { rulebookText } from "./rulebook-text.ts";
import { assertQuoteOpen, assertQuoteToken, lockOwnQuote } from "./quotes.ts";
import { validateOrderContext } from "./order-context.ts";
import type { ConsentEvidence, ConsentRecord, FeeParts, OrderContext, PlanSelector } from "../vocabulary/plans.ts";
import { appendEvent } from "./events.ts";
import { queueEmail } from "./emails.ts";
import { getPurchase, toPurchase, type Purchase } from "./purchases.ts";
import type { StoredEmail } from "./buyer-emails.ts";
import { countRefusedConfirms, markQuoteConfirmed, recordConfirmRefusal, type QuoteRecord } from "../store/quotes.ts";
import { insertProtectedOrder } from "../store/orders.ts";
import { planLanguage, type PlanLanguageInput } from "./plan-language.ts";
import { DEFAULT_BUYER_LOCALE } from "@purchase-protection/contract";
import {
  insertPlan,
  lockPlan,
  lockPlanBuyer,
  markPlanVoided,
  setPlanCustomerEmail,
  type NewPlan,
} from "../store/plans.ts";
import { readdressWaitingEmail } from "../store/emails.ts";
import { appendLedgerEntries, feeEntriesOfSale, returnMerchantPaidFee } from "./ledger.ts";
import { findPlanClaimIn } from "../store/claims.ts";
import { DAY_MS } from "../vocabulary/time.ts";

/** A confirmed plan: `feeCents` is the whole price of the protection, the parts say who pays which (FeeParts). */
export interface Confirmation extends FeeParts {
  referenceNumber: string;
  planId: string;
  status: "confirmed";
  orderId: string;
  currency: string;
  feeCents: number;
  coveredAmountCents: number;
  freeLookEndsAt: string;
  coverageUrl: string;
  livemode: boolean;
}

export type ConfirmInput =
  /** Browser and API confirm: the quote token proves the buyer saw this quote; the order context binds the order. */
  (
    | { surface: "widget" | "api"; quoteId: string; quoteToken: string; orderContext: unknown }
    /**
     * Server confirm (headless): the secret key is the authority and the order is the quoted one; `evidence`, when the
     * server knows it, is what the buyer's choice rests on (kept in the consent record).
     */
    | { surface: "server"; quoteId: string; evidence?: readonly ConsentEvidence[] }
  ) & {
    /** The buyer's address given at confirm (sealed, with its hash): it wins over the quote's. */
    customerEmail?: StoredEmail;
    /** The keyed hash of where the order ships (buyer-addresses.ts), when the caller knows it: for the claim history. */
    shippingAddressHash?: string | null;
    /** The buyer's locale and time zone as the surface knows them: the buyer e-mails' language (plan-language.ts). */
    language?: PlanLanguageInput;
  };

/** The code of a confirm refused because neither it nor its quote gave the buyer's address. */
export const CUSTOMER_EMAIL_REQUIRED = "customer_email_required";

/**
 * docs/api.md "The buyer's address": a plan nobody can claim on is never made. Without an address the service cannot
 * write to the buyer and the buyer cannot sign in to the portal, so a confirm without one (its own or its quote's) is
 * refused: nothing is created and the quote stays open for a retry with the address. The refusal is kept on the quote
 * (after the rollback) for the merchant's dashboard, which says that buyers chose protection and got none.
 */
function customerEmailRequired(services: Services, quote: QuoteRecord): DomainError {
  const error = new DomainError(
    "unprocessable",
    CUSTOMER_EMAIL_REQUIRED,
    `Quote '${quote.id}' has no buyer e-mail address, so no plan was made (a buyer who cannot be written to cannot claim). Pass the buyer's address as customer_email on this confirm (or on the quote), then confirm again with a new idempotency key; the quote stays open until ${iso(quote.expiresAt)}.`,
    "customerEmail",
  );
  error.recordRefusal = (tx) => recordConfirmRefusal(tx, quote.id, CUSTOMER_EMAIL_REQUIRED, services.clock());
  return error;
}

const REFERENCE_NUMBER_ATTEMPTS = 5;

/** How far back the dashboard counts confirms refused for want of a buyer address. */
export const REFUSED_CONFIRMS_WINDOW_MS = 30 * DAY_MS;

/**
 * How many buyers chose protection in the last 30 days and got no plan because the merchant's page sent no address
 * (confirms refused with customer_email_required whose quote never became a plan): the dashboard's notice.
 */
export function countBuyersRefusedForNoAddress(tx: Tx, actor: Actor, now: number): Promise<number> {
  return countRefusedConfirms(tx, actor, CUSTOMER_EMAIL_REQUIRED, now - REFUSED_CONFIRMS_WINDOW_MS);
}

/** Turns an open quote into an active plan on a protected order (one transaction, one event). */
export async function confirmQuote(
  tx: Tx,
  services: Services,
  actor: Actor,
  input: ConfirmInput,
): Promise<Confirmation> {
  const quote = await lockOwnQuote(tx, actor, input.quoteId);
  // The token before the state: without it, whether a quote was used, declined or has expired is not the caller's to learn.
  if (input.surface !== "server") assertQuoteToken(quote, input.quoteToken);
  // A merchant-paid quote is for the page's notice only: a buyer's key must not make the merchant pay for a plan, so
  // the merchant's server confirms each such order (docs/api.md "Who pays").
  if (input.surface === "widget" && quote.payer === "merchant")
    throw new DomainError(
      "conflict",
      "payer_requires_server_confirm",
      "This program is paid by the merchant: confirm each order from your server (headless confirm).",
      "quoteId",
    );
  assertQuoteOpen(services, quote);
  const now = services.clock();
  let context: OrderContext;
  if (input.surface === "server") {
    context = {
      schema_version: "2026-01-01",
      order: {
        id: quote.orderId,
        purchased_at: iso(now),
        currency: quote.currency,
        covered_amount_cents: quote.coveredAmountCents,
      },
      participants: { mode: "unnamed" },
    };
  } else {
    context = validateOrderContext(input.orderContext, quote, now);
  }
  // The confirm's address if given, else the quote's. order_context.participants stays "unnamed": the order context
  // is the binding record of the order kept for disputes, while the address is personal data, sealed, hashed and
  // redactable apart from it (docs/api.md "The buyer's address").
  const buyerEmail: StoredEmail | undefined =
    input.customerEmail ??
    (quote.customerEmailSealed && quote.customerEmailHash
      ? { sealed: quote.customerEmailSealed, hash: quote.customerEmailHash }
      : undefined);
  if (!buyerEmail) throw customerEmailRequired(services, quote);
  const planId = newId("plan", now, services.random);
  const purchasedAt = Date.parse(context.order.purchased_at);
  const freeLookEndsAt = purchasedAt + FREE_LOOK_MS;
  const parts: FeeParts = {
    payer: quote.payer,
    buyerFeeCents: quote.buyerFeeCents,
    merchantFeeCents: quote.merchantFeeCents,
  };
  const language = planLanguage(input.language ?? {});
  const consent: ConsentRecord = {
    quoteId: quote.id,
    surface: input.surface,
    // In the language the surface showed it in (the one it confirms with), for a dispute to quote what the buyer read.
    disclosureText: rulebookText(language.locale ?? DEFAULT_BUYER_LOCALE).disclosure(services.settings.companyName),
    feeCents: quote.feeCents,
    coveredAmountCents: quote.coveredAmountCents,
    currency: quote.currency,
    coveredReasons: COVERED_REASONS,
    termsUrl: `${services.settings.portalUrl}/terms`,
    acceptedAt: iso(now),
    ...parts,
    // The merchant protected the order itself: the buyer was told (a notice), not asked.
    buyerShown: parts.payer === "merchant" ? "notice" : "choice",
    ...(input.surface === "server" && input.evidence ? { evidence: [...input.evidence] } : {}),
  };
  // Writes that need no answer from the ones before them go out together (on PostgreSQL, one round trip per group);
  // each group still runs in the order written, and a failure fails the transaction.
  // The order first: it is the check that the order has no plan yet (see insertProtectedOrder); if it has one, the
  // plan written beside it is rolled back with the rest.
  const [protectedNow, referenceNumber] = await Promise.all([
    insertProtectedOrder(tx, actor, {
      id: newId("ord", now, services.random),
      externalId: quote.orderId,
      planId,
      createdAt: now,
    }),
    insertPlanWithReference(tx, services, actor, {
      id: planId,
      quoteId: quote.id,
      orderId: quote.orderId,
      currency: quote.currency,
      feeCents: quote.feeCents,
      ...parts,
      coveredAmountCents: quote.coveredAmountCents,
      customerEmailSealed: buyerEmail.sealed,
      customerEmailHash: buyerEmail.hash,
      orderName: quote.orderName,
      purchasedAt,
      freeLookEndsAt,
      orderContext: context,
      consent,
      createdAt: now,
      shippingAddressHash: input.shippingAddressHash ?? null,
      ...language,
    }),
  ]);
  if (!protectedNow)
    throw new DomainError(
      "conflict",
      "order_already_protected",
      `Order '${quote.orderId}' already has a protection plan.`,
      "quoteId",
    );

  const confirmation: Confirmation = {
    referenceNumber,
    planId,
    status: "confirmed",
    orderId: quote.orderId,
    currency: quote.currency,
    feeCents: quote.feeCents,
    ...parts,
    coveredAmountCents: quote.coveredAmountCents,
    freeLookEndsAt: iso(freeLookEndsAt),
    coverageUrl: `${services.settings.portalUrl}/coverage/${referenceNumber}`,
    livemode: actor.mode === "live",
  };
  // The event carries the purchase as GET /purchases/{id} shows it; everything in it was just written here.
  const purchase = toPurchase({
    id: planId,
    referenceNumber,
    status: "active",
    orderId: quote.orderId,
    orderStatus: "protected",
    quoteId: quote.id,
    currency: quote.currency,
    feeCents: quote.feeCents,
    ...parts,
    coveredAmountCents: quote.coveredAmountCents,
    purchasedAt,
    freeLookEndsAt,
    createdAt: now,
    voidedAt: null,
    voidReason: null,
    cancelledAt: null,
    feeRefund: null,
    ...language,
    mode: actor.mode,
  });
  await Promise.all([
    markQuoteConfirmed(tx, quote.id, now),
    // The money of the sale (docs/api.md "Settlement"), by who paid: the buyer's fee the merchant collected for us
    // with the merchant's share of it, and the fee the merchant pays itself.
    appendLedgerEntries(
      tx,
      services,
      actor,
      feeEntriesOfSale({ planId, currency: quote.currency, merchantShareBps: quote.merchantShareBps, ...parts }),
    ),
    appendEvent(tx, services, actor, "protection.confirmed", purchase),
    // docs/api.md "E-mail to buyers": the service e-mails the buyer after opt-in (welcome_protected). The welcome caps are
    // for confirms anyone holding the page's publishable key makes, naming any address; a secret key's confirm (the
    // merchant's server, a Shopify order) is the merchant's own, and a busy store's buyers all get their welcome.
    queueEmail(tx, services, actor, {
      template: "welcome_protected",
      planId,
      recipient: buyerEmail,
      capBudget: input.surface === "widget" ? "confirm" : null,
    }),
  ]);
  return confirmation;
}

/** Inserts the plan under a fresh reference number, drawing again on the (rare) collision. */
async function insertPlanWithReference(
  tx: Tx,
  services: Services,
  actor: Actor,
  plan: Omit<NewPlan, "referenceNumber">,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const referenceNumber = newReferenceNumber(services.clock(), services.random);
    if (await insertPlan(tx, actor, { ...plan, referenceNumber })) return referenceNumber;
    if (attempt === REFERENCE_NUMBER_ATTEMPTS) throw new Error("could not draw a unique reference number");
  }
}

/**
 * Voids an active plan (the merchant cancelled the order, or reported a refund). The merchant's own part of the fee
 * comes back (docs/api.md "Who pays") unless a claim on the plan was approved or paid: then its cover was used.
 */
export async function voidPlan(
  tx: Tx,
  services: Services,
  actor: Actor,
  selector: PlanSelector,
  reason: string | null,
): Promise<Purchase> {
  const plan = await lockPlan(tx, actor, selector);
  if (!plan) throw notFound("plan", Object.values(selector)[0]);
  if (plan.status !== "active")
    throw new DomainError("conflict", "plan_not_active", `Plan '${plan.id}' is ${plan.status}, not active.`);
  await markPlanVoided(tx, plan.id, reason, services.clock());
  if (!(await findPlanClaimIn(tx, plan.id, ["approved", "paid"])))
    await returnMerchantPaidFee(tx, services, actor, plan.id);
  const purchase = await getPurchase(tx, actor, plan.id, false);
  await appendEvent(tx, services, actor, "protection.voided", purchase);
  return purchase;
}

/**
 * The merchant's server sets or corrects the buyer's address of a plan (docs/api.md "The buyer's address"): the plan's
 * sealed address and its hash are replaced and `protection.updated` is appended. The welcome e-mail goes to the new
 * address: the waiting one is sent there instead, or, once one went (or is going) out, a new one is queued to it.
 * Idempotent: the address the plan already holds changes nothing.
 */
export async function setBuyerEmail(
  tx: Tx,
  services: Services,
  actor: Actor,
  planId: string,
  email: StoredEmail,
): Promise<Purchase> {
  const plan = await lockPlanBuyer(tx, actor, planId);
  if (!plan) throw notFound("purchase", planId, "purchaseId");
  const changed = plan.customerEmailHash !== email.hash;
  if (changed) {
    await setPlanCustomerEmail(tx, plan.id, email);
    const now = services.clock();
    if (!(await readdressWaitingEmail(tx, plan.id, "welcome_protected", email, now)))
      await queueEmail(tx, services, actor, {
        template: "welcome_protected",
        planId: plan.id,
        // One welcome per address: a second change to the same address does not send it again.
        occasion: `to:${email.hash.slice(0, 16)}`,
        recipient: email,
        // The secret key's own correction: no cap (as a server's confirm).
        capBudget: null,
      });
  }
  const purchase = await getPurchase(tx, actor, plan.id, false);
  if (changed) await appendEvent(tx, services, actor, "protection.updated", purchase);
  return purchase;
}
