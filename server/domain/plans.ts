import { newId, newReferenceNumber } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Actor, type Services, type Surface, type Tx } from "./context.ts";
import { fullDisclosure, COVERED_REASONS, FREE_LOOK_MS } from "./disclosure.ts";
import { assertQuoteOpen, assertQuoteToken, lockQuote } from "./quotes.ts";
import { validateOrderContext, type OrderContext } from "./order-context.ts";
import { appendEvent } from "./events.ts";
import { queueEmail } from "./emails.ts";
import { getPurchase, purchaseFromRow, type Purchase } from "./purchases.ts";
import { forUpdate } from "../store/database.ts";

export interface Confirmation {
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

/** What the buyer saw and agreed to, kept with the plan for disputes. */
export interface ConsentRecord {
  quoteId: string;
  surface: Surface;
  disclosureText: string;
  feeCents: number;
  coveredAmountCents: number;
  currency: string;
  coveredReasons: readonly string[];
  termsUrl: string;
  acceptedAt: string;
}

export type ConfirmInput =
  /** Browser and API confirm: the quote token proves the buyer saw this quote; the order context binds the order. */
  | { surface: "widget" | "api"; quoteId: string; quoteToken: string; orderContext: unknown }
  /** Server confirm (headless): the secret key is the authority and the order is the quoted one. */
  | { surface: "server"; quoteId: string };

const REFERENCE_NUMBER_ATTEMPTS = 5;

/** Turns an open quote into an active plan on a protected order (one transaction, one event). */
export async function confirmQuote(tx: Tx, services: Services, actor: Actor, input: ConfirmInput): Promise<Confirmation> {
  const param = input.surface === "server" ? "quote_id" : "quoteId";
  const quote = await lockQuote(tx, actor, input.quoteId, param);
  // The token before the state: without it, whether a quote was used, declined or has expired is not the caller's to learn.
  if (input.surface !== "server") assertQuoteToken(quote, input.quoteToken);
  assertQuoteOpen(services, quote, param);
  const now = services.clock();
  let context: OrderContext;
  if (input.surface === "server") {
    context = {
      schema_version: "2026-01-01",
      order: { id: quote.order_id, purchased_at: iso(now), currency: quote.currency, covered_amount_cents: quote.covered_amount_cents },
      participants: { mode: "unnamed" },
    };
  } else {
    context = validateOrderContext(input.orderContext, quote, now);
  }
  const planId = newId("plan", now, services.random);
  // The order row first: its unique (merchant, mode, order) key is the check, in the same statement (a concurrent
  // confirm of another quote for the order waits on it, then finds it taken).
  const ordered = await tx.all(
    `INSERT INTO orders (id, merchant_id, mode, external_id, plan_id, status, created_at) VALUES (?, ?, ?, ?, ?, 'protected', ?)
     ON CONFLICT (merchant_id, mode, external_id) DO NOTHING RETURNING id`,
    [newId("ord", now, services.random), actor.merchantId, actor.mode, quote.order_id, planId, now],
  );
  if (ordered.length === 0) throw new DomainError("conflict", "order_already_protected", `Order '${quote.order_id}' already has a protection plan.`, param);

  const purchasedAt = Date.parse(context.order.purchased_at);
  const coveredAmountCents = quote.covered_amount_cents;
  const consent: ConsentRecord = {
    quoteId: quote.id,
    surface: input.surface,
    disclosureText: fullDisclosure(services.settings.companyName),
    feeCents: quote.fee_cents,
    coveredAmountCents,
    currency: quote.currency,
    coveredReasons: COVERED_REASONS,
    termsUrl: `${services.settings.portalUrl}/terms`,
    acceptedAt: iso(now),
  };
  const referenceNumber = await insertPlan(tx, services, [
    planId, actor.merchantId, actor.mode, quote.id, quote.order_id, quote.currency, quote.fee_cents, coveredAmountCents,
    quote.customer_email_sealed, quote.customer_email_hash, purchasedAt, purchasedAt + FREE_LOOK_MS, JSON.stringify(context), JSON.stringify(consent), now,
  ]);
  await tx.run("UPDATE quotes SET status = 'confirmed', decided_at = ? WHERE id = ?", [now, quote.id]);
  const confirmation: Confirmation = {
    referenceNumber,
    planId,
    status: "confirmed",
    orderId: quote.order_id,
    currency: quote.currency,
    feeCents: quote.fee_cents,
    coveredAmountCents,
    freeLookEndsAt: iso(purchasedAt + FREE_LOOK_MS),
    coverageUrl: `${services.settings.portalUrl}/coverage/${referenceNumber}`,
    livemode: actor.mode === "live",
  };
  // The event carries the purchase as GET /purchases/{id} shows it; everything in it was just written here.
  const purchase = purchaseFromRow({
    id: planId, reference_number: referenceNumber, status: "active", order_id: quote.order_id, order_status: "protected", quote_id: quote.id,
    currency: quote.currency, fee_cents: quote.fee_cents, covered_amount_cents: coveredAmountCents, purchased_at: purchasedAt,
    free_look_ends_at: purchasedAt + FREE_LOOK_MS, created_at: now, voided_at: null, void_reason: null, mode: actor.mode, consent: "",
  });
  await appendEvent(tx, services, actor, "protection.confirmed", purchase);
  // README "E-mail to buyers": the service e-mails the buyer after opt-in (welcome_protected), when it knows where to.
  if (quote.customer_email_sealed && quote.customer_email_hash) {
    await queueEmail(tx, services, actor, { template: "welcome_protected", planId, recipient: { sealed: quote.customer_email_sealed, hash: quote.customer_email_hash } });
  }
  return confirmation;
}

/** Inserts the plan under a fresh reference number, drawing again on the (rare) collision. */
async function insertPlan(tx: Tx, services: Services, values: (string | number | null)[]): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const referenceNumber = newReferenceNumber(services.clock(), services.random);
    const inserted = await tx.all(
      `INSERT INTO plans (id, merchant_id, mode, quote_id, order_id, currency, fee_cents, covered_amount_cents, customer_email_sealed, customer_email_hash,
         purchased_at, free_look_ends_at, order_context, consent, created_at, reference_number, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active')
       ON CONFLICT (reference_number) DO NOTHING RETURNING id`,
      [...values, referenceNumber],
    );
    if (inserted.length === 1) return referenceNumber;
    if (attempt === REFERENCE_NUMBER_ATTEMPTS) throw new Error("could not draw a unique reference number");
  }
}

export type PlanSelector = { planId: string } | { referenceNumber: string } | { orderId: string };

/** Voids an active plan (the merchant cancelled the order, or reported a refund). */
export async function voidPlan(tx: Tx, services: Services, actor: Actor, selector: PlanSelector, reason: string | null): Promise<Purchase> {
  const plan = await lockPlan(tx, actor, selector);
  if (plan.status !== "active") throw new DomainError("conflict", "plan_not_active", `Plan '${plan.id}' is ${plan.status}, not active.`);
  await tx.run("UPDATE plans SET status = 'voided', void_reason = ?, voided_at = ? WHERE id = ?", [reason, services.clock(), plan.id]);
  const purchase = await getPurchase(tx, actor, plan.id, false);
  await appendEvent(tx, services, actor, "protection.voided", purchase);
  return purchase;
}

async function lockPlan(tx: Tx, actor: Actor, selector: PlanSelector): Promise<{ id: string; status: string }> {
  const [column, value] =
    "planId" in selector ? ["id", selector.planId] : "referenceNumber" in selector ? ["reference_number", selector.referenceNumber] : ["order_id", selector.orderId];
  const plan = await tx.get<{ id: string; status: string }>(
    `SELECT id, status FROM plans WHERE ${column} = ? AND merchant_id = ? AND mode = ? ORDER BY id DESC LIMIT 1${forUpdate(tx)}`,
    [value, actor.merchantId, actor.mode],
  );
  if (!plan) throw notFound("plan", value);
  return plan;
}
