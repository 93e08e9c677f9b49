// The Shopify app's use cases. protectOrder is orders/create's unit of work: the headless quote and confirm of
// POST /headless/quote and /headless/confirm — the same input schema, the same key check and the same domain
// functions, so the rules are one — and the app's own rows for the order, all in one transaction.
//
// Why no idempotency records, though the job may run twice (a crash, a retry, a second delivery of the order under a
// new webhook id): the quote, the plan and the app's rows (the order's row, its follow-up jobs, the job's completion)
// commit together or not at all, so a job that runs again after a crash starts from nothing, and no quote or plan is
// left without the rest. A second job for an order that has its plan meets the order's unique key (orders: merchant,
// mode, external id; confirmQuote's order_already_protected) and is handed that plan instead of making another. The
// SDK's path over HTTP (idempotency keys and all) stays the one every other cart's server takes.
import { z } from "zod";
import type { CoreDeps } from "./deps.ts";
import { headlessQuoteInput, headlessQuoteRequest } from "../http/schemas.ts";
import { authenticateKey } from "../domain/merchants.ts";
import { createQuote } from "../domain/quotes.ts";
import { confirmQuote, CUSTOMER_EMAIL_REQUIRED } from "../domain/plans.ts";
import { getPurchase } from "../domain/purchases.ts";
import { loadActiveProgram } from "../domain/programs.ts";
import { DomainError } from "../domain/errors.ts";
import { errors, fromZodError, toApiError } from "../http/errors.ts";
import { lockOrderByExternalId } from "../store/orders.ts";
import { acceptedCartIdentity } from "../domain/experiments.ts";
import type { Queryable } from "../store/database.ts";
import { insertPlanPresentment } from "../store/plan-presentments.ts";
import type { PlanPresentmentRecord } from "../vocabulary/plans.ts";
import type { ConsentEvidence, Payer } from "../vocabulary/plans.ts";

/**
 * What POST /headless/quote takes (snake_case, as the SDK sends it), and the buyer's locale that POST /headless/confirm
 * takes (the order's customer_locale): the plan's e-mails are written in it (server/domain/plan-language.ts).
 */
export type HeadlessQuoteInput = z.input<typeof headlessQuoteRequest> & { customer_locale?: string };

/** The order's plan, as the app records it. */
export interface OrderPlan {
  planId: string;
  referenceNumber: string;
  feeCents: number;
  /** What the buyer pays of it: what the order's protection line should cost (docs/api.md "Who pays"). */
  buyerFeeCents: number;
  /** Who pays for it (docs/api.md "Who pays"). */
  payer: Payer;
}

/**
 * The evidence of the buyer's choice that the order's confirm rests on, under the program's payer as the unit reads it
 * (none for a merchant-paid program's order).
 */
export type OrderEvidence = (payer: Payer) => readonly ConsentEvidence[];

/** The app's rows for the protected order, written in the unit's transaction (see protectOrder). */
export type RecordOrderPlan = (tx: Queryable, plan: OrderPlan) => Promise<void>;

export function shopifyArea(deps: CoreDeps) {
  const { db, services, sealer } = deps;

  /** The key's principal, admitted as the headless routes admit it (server/http/auth.ts), or their refusal. */
  async function serverPrincipal(tx: Queryable, secretKey: string) {
    const principal = await authenticateKey(tx, secretKey, services.clock());
    if (!principal) throw errors.apiKeyInvalid();
    if (principal.mode === "live" && !principal.merchantLive) throw errors.liveModeNotEnabled();
    if (principal.kind === "publishable") throw errors.secretKeyRequired();
    return principal;
  }

  return {
    /**
     * Who pays for the shop's program (docs/api.md "Who pays"): orders/create protects every order of a merchant-paid
     * program, and an order of any other only on the buyer's choice.
     */
    async programPayer(secretKey: string, programId: string): Promise<Payer> {
      const principal = await serverPrincipal(db, secretKey);
      return (await loadActiveProgram(db, principal, programId)).payer;
    },
    /**
     * Keeps, beside the plan and in the unit's transaction `tx`, what its buyer paid in their own currency when it is
     * not the plan's (a Shopify Markets order); a plan that has it keeps the first.
     */
    recordPresentment: (tx: Queryable, planId: string, presentment: PlanPresentmentRecord) =>
      insertPlanPresentment(tx, planId, presentment, services.clock()),
    /**
     * Quotes the order and confirms the quote with the shop's secret key, the consent record naming the evidence of
     * the buyer's choice the app found on the order (`evidenceFor` the program's payer, read in the unit: the app
     * need not read it first when the order's attribute settles the choice), then lets the app
     * record the plan (`record`) in the same transaction. A refusal is thrown as the API's answer to it (ApiError:
     * status, code, message); a confirm refused for want of a buyer address keeps its quote open with the refusal on it, as POST
     * /headless/confirm does, for the dashboard. An order that has its plan already gets that plan recorded (`record`
     * must tolerate an order it recorded before). `shippingAddressHash`, the keyed hash of the order's shipping address
     * (server/domain/buyer-addresses.ts), goes on the new plan: the buyer's claims are counted by it too.
     */
    async protectOrder(
      secretKey: string,
      input: HeadlessQuoteInput,
      evidenceFor: OrderEvidence,
      record: RecordOrderPlan,
      shippingAddressHash: string | null = null,
      acceptedQuoteId?: string,
    ): Promise<OrderPlan> {
      const { customer_locale: customerLocale, ...quoteInput } = input;
      const parsed = headlessQuoteRequest.safeParse(quoteInput);
      if (!parsed.success) throw fromZodError(parsed.error, "body");
      const body = parsed.data;
      try {
        const outcome = await db.transaction(async (tx) => {
          const principal = await serverPrincipal(tx, secretKey);
          // The variant of the offer the buyer accepted on the storefront (`acceptedQuoteId`) prices the order too.
          const cartId = body.cart_id ?? (await acceptedCartIdentity(tx, principal, acceptedQuoteId));
          const { quote } = await createQuote(tx, services, principal, { ...headlessQuoteInput(body, sealer), cartId });
          const evidence = evidenceFor(quote.payer);
          // No evidence of the buyer's choice stands only for a merchant-paid program (the buyer is told, not asked).
          // Its payer changed since the app read it: nothing commits, and the job's retry reads it again.
          if (evidence.length === 0 && quote.payer !== "merchant")
            throw new Error(
              `the program's payer is ${quote.payer} now, and the order has no evidence of the buyer's choice`,
            );
          let plan: OrderPlan;
          try {
            plan = await confirmQuote(tx, services, principal, {
              surface: "server",
              quoteId: quote.quoteId,
              evidence,
              shippingAddressHash,
              // A locale Shopify sends that is not one (or not served) leaves the plan in English: the order is protected.
              language: { locale: customerLocale },
            });
          } catch (error) {
            // Refused before it wrote anything: the quote commits, open, with the refusal on it (what the API's
            // quote call and its refused confirm leave).
            if (error instanceof DomainError && error.code === CUSTOMER_EMAIL_REQUIRED) {
              await error.recordRefusal?.(tx);
              return { refused: error };
            }
            throw error;
          }
          await record(tx, plan);
          return { plan };
        });
        if ("refused" in outcome) throw outcome.refused;
        return outcome.plan;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === "order_already_protected") return recordExistingPlan(secretKey, body.order_id, record);
        throw toApiError(error);
      }
    },
  };

  /** The order has its plan (a second job for it, or the merchant's own call): the app records that one. */
  function recordExistingPlan(secretKey: string, orderId: string, record: RecordOrderPlan): Promise<OrderPlan> {
    return db.transaction(async (tx) => {
      const principal = await serverPrincipal(tx, secretKey);
      const order = (await lockOrderByExternalId(tx, principal, orderId))!;
      const purchase = await getPurchase(tx, principal, order.planId, false);
      const { feeCents, buyerFeeCents, payer } = purchase;
      const plan = { planId: purchase.id, referenceNumber: purchase.referenceNumber, feeCents, buyerFeeCents, payer };
      await record(tx, plan);
      return plan;
    });
  }
}
