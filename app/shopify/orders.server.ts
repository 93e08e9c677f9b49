// The order webhooks' work, as jobs (app/shopify/jobs.server.ts). orders/create protects an order that carries the
// buyer's opt-in (app/shopify/order-consent.ts weighs its evidence; protection units no plan stands behind are
// refunded), and every order of a merchant-paid program: headless quote on the order's real amount and headless
// confirm of that quote, with the shop's secret key, as one unit of work in the core (server/core/shopify.ts) that
// also writes the order's row and follow-up jobs and completes the job; then the reference number goes back to the
// order in a follow-up job, with the plan's state in the same Admin call (order-states.server.ts). orders/cancelled
// voids; refunds/create reports a full refund, through the TypeScript SDK over the in-process transport, each call
// with an idempotency key derived from the shop and order. A retried or duplicated job never makes a second plan.
import { ApiError } from "../../server/index.ts";
import { hasPendingShopifyJob } from "./store/jobs.ts";
import {
  findShopifyOrder,
  insertShopifyOrder,
  setShopifyOrderStatus,
  type ShopifyOrderStatus,
} from "./store/orders.ts";
import { countOrderRefund, queueUnitsRefund, saveReferenceWritten } from "./store/units/orders.ts";
import { ServiceHttpError } from "../../packages/sdk/src/index.ts";
import { PermanentJobError, type Job, type JobCompletion } from "./jobs.server.ts";
import { enqueueNamedJobOnce, type JobHandlers, type JobPayloads, type NamedJobOnce } from "./named-jobs.ts";
import { CHOICE_ATTRIBUTE, parseDecimalAmount, QUOTE_ATTRIBUTE, tierFor } from "@purchase-protection/contract";
import { fulfillProtectionLines, writeOrderReference } from "./admin-api.server.ts";
import type { ShopifyDeps } from "./deps.server.ts";
import { isClaimRefundNote } from "./claim-payouts.server.ts";
import { LINE_REFUND_JOB, LINE_REFUND_NOTE, lineRefundJobId } from "./fee-refunds.server.ts";
import { acceptedByAttribute, orderConsent, type OrderConsent } from "./order-consent.ts";
import { planPresentment } from "./presentment.ts";
import { orderProtectionChoice } from "./admin/order-protection-choice.ts";
import { confirmedStateJobId, orderStateVariables, writePlanState } from "./order-states.server.ts";
import { protectionRefundOrder } from "./admin/protection-refund-order.ts";

type OrderJobs = Pick<
  JobHandlers,
  | "orders/create"
  | "orders/edited"
  | "orders/cancelled"
  | "refunds/create"
  | "write_reference"
  | "fulfill_protection_line"
>;

export function orderHandlers(deps: ShopifyDeps): OrderJobs {
  return {
    "orders/create": (job, completion) => protectOrder(deps, job, completion),
    "orders/edited": (job) => refundEditedInUnits(deps, job),
    "orders/cancelled": (job) => voidCancelledOrder(deps, job),
    "refunds/create": (job) => reportFullRefund(deps, job),
    write_reference: (job, completion) => writeReference(deps, job, completion),
    fulfill_protection_line: async (job) => {
      const installation = await deps.installation(job.shop);
      if (installation?.productId)
        await fulfillProtectionLines(await deps.adminApi(job.shop), job.payload.orderGid, installation.productId);
    },
  };
}

async function protectOrder(
  deps: ShopifyDeps,
  job: Job<JobPayloads["orders/create"]>,
  completion: JobCompletion,
): Promise<void> {
  const installation = await deps.installation(job.shop);
  if (!installation) return;
  const order = job.payload;
  const orderId = String(order.id);
  const protectionLines = order.line_items.filter(
    (line) => installation.productId !== null && String(line.product_id) === installation.productId,
  );
  const cents = (price: string) => parseDecimalAmount(price, order.currency);
  // A merchant-paid program protects every order, never through a cart line: the buyer was told, not asked
  // (docs/shopify.md "Who pays on Shopify"). Any other weighs the buyer's choice (docs/shopify.md "When the opt-in and
  // the protection line disagree"). An order whose attribute accepted the offer is protected under either payer, so
  // the unit of work reads the payer itself; any other order needs it first.
  const facts = {
    attribute: order.note_attributes.find((attribute) => attribute.name === CHOICE_ATTRIBUTE)?.value,
    protectionUnits: protectionLines.reduce((sum, line) => sum + line.quantity, 0),
    sourceName: order.source_name,
  };
  const accepted = acceptedByAttribute(facts);
  const consent: OrderConsent = accepted
    ? { protect: true, evidence: accepted }
    : (await deps.shopify.programPayer(installation.secretKey, installation.programId)) === "merchant"
      ? { protect: true, evidence: [] }
      : await orderConsent(
          facts,
          async () =>
            (await orderProtectionChoice(await deps.adminApi(job.shop), { id: order.admin_graphql_api_id })).order
              ?.metafield?.value,
        );
  /** The refund of the order's protection units beyond `kept` (a unit of one line). */
  const unitsRefund = (kept?: (typeof protectionLines)[number]): NamedJobOnce<typeof LINE_REFUND_JOB> => ({
    id: lineRefundJobId(job.shop, orderId),
    shop: job.shop,
    kind: LINE_REFUND_JOB,
    subject: orderId,
    payload: {
      orderGid: order.admin_graphql_api_id,
      // Shopify refunds in the currency the buyer paid in (a Markets order's presentment currency).
      currency: order.presentment?.currency ?? order.currency,
      // A job queued before the lines' ids were kept has none to refund by: the dead job shows the merchant.
      lines: protectionLines.map((line) => ({ id: line.id ?? "", keep: line === kept ? 1 : 0 })),
    },
  });
  /** No plan: every protection unit is refunded, the refund queued with this job's completion. */
  const refundAllUnits = async () => {
    await queueUnitsRefund(deps.db, deps.services, unitsRefund(), completion);
    deps.wakeJobs();
  };
  if (!consent.protect) {
    if (consent.refundUnits) {
      deps.logger.warn({ shop: job.shop, orderId }, "protection line without the buyer's consent; refunded, no plan");
      await refundAllUnits();
    }
    return;
  }

  const linesCents = protectionLines.reduce((sum, line) => sum + cents(line.price) * line.quantity, 0);
  const goodsAmountCents = cents(order.subtotal_price) - linesCents;
  if (!(goodsAmountCents > 0)) {
    deps.logger.warn({ shop: job.shop, orderId }, "opt-in on an order with nothing to protect; no plan");
    if (protectionLines.length > 0) await refundAllUnits();
    return;
  }
  // Headless quote on the goods amount and confirm, and this job's rows for the plan, in one transaction (the core's
  // unit of work: server/core/shopify.ts says why that needs no idempotency keys). An order without any address (a
  // phone-only checkout) is refused at confirm (422 customer_email_required: a plan nobody can claim on is never
  // made). That refusal is final: the job goes dead at once (logged, on the dashboard's jobs) and the quote keeps it
  // for the dashboard's notice; no retry can give the order an address.
  await refusalIsFinal(
    deps.shopify.protectOrder(
      installation.secretKey,
      {
        order_amount_cents: goodsAmountCents,
        order_id: orderId,
        protection_program_id: installation.programId,
        currency: order.currency,
        ...(order.email ? { customer_email: order.email } : {}),
        // The name buyers know the order by ("#1001"): the portal finds their plan by it.
        ...(order.name ? { order_name: order.name } : {}),
        // The checkout's language: the buyer's e-mails about the plan are written in it.
        ...(order.customer_locale ? { customer_locale: order.customer_locale } : {}),
      },
      (payer) => (payer === "merchant" ? [] : consent.evidence),
      async (tx, plan) => {
        const merchantPays = plan.payer === "merchant";
        // The line pays the buyer's part (a split program's buyer share; docs/api.md "Who pays"), at its tier; a
        // merchant-paid order has no line to keep: one there (a cart made before the payer changed) is refunded.
        const tier = tierFor(installation.tiers, plan.buyerFeeCents);
        const tierCents = tier?.priceCents ?? plan.buyerFeeCents;
        // A Markets order's line costs the tier's price as the market converted and rounded it, and the shop's amount
        // Shopify converts that back to is not the tier's: there the tier's line is known by its variant
        // (docs/shopify.md "Shopify Markets: the buyer's currency").
        const atTier = (line: (typeof protectionLines)[number]) =>
          order.presentment && line.variant_id !== undefined
            ? line.variant_id === tier?.variantId
            : cents(line.price) === tierCents;
        // One plan, one protection unit: the one at the fee's tier (else the first) stays, any other is refunded.
        const kept = merchantPays ? undefined : (protectionLines.find(atTier) ?? protectionLines[0]);
        const linePriceCents = kept ? cents(kept.price) : null;
        const feeMismatch = !merchantPays && (!kept || !atTier(kept));
        const presentment = planPresentment(order, protectionLines, kept);
        if (feeMismatch)
          deps.logger.warn(
            { shop: job.shop, orderId, linePriceCents, buyerFeeCents: plan.buyerFeeCents },
            "protection line price differs from the tier of the buyer's part of the confirmed fee",
          );
        const recorded = await insertShopifyOrder(
          tx,
          {
            shop: job.shop,
            orderId,
            planId: plan.planId,
            referenceNumber: plan.referenceNumber,
            currency: order.currency,
            goodsAmountCents,
            presentment: presentment && {
              currency: presentment.currency,
              goodsAmountCents: presentment.coveredAmountCents,
            },
            linePriceCents,
            feeCents: plan.feeCents,
            feeMismatch,
            // For the claims console; the protection line is ours, not the goods.
            lines: order.line_items
              .filter((line) => !protectionLines.includes(line))
              .map((line) => ({
                title: line.title || "Untitled item",
                quantity: line.quantity,
                unitPriceCents: cents(line.price),
              })),
            shipTo: order.ship_to ?? null,
          },
          deps.services.clock(),
        );
        if (presentment) await deps.shopify.recordPresentment(tx, plan.planId, presentment);
        // An order recorded before (a second job for it) has its follow-ups already.
        if (recorded) {
          // Under the id of the confirmed event's write-back: the plan's state goes with the reference, in one call.
          await enqueueNamedJobOnce(tx, deps.services, {
            id: confirmedStateJobId(plan.planId),
            shop: job.shop,
            kind: "write_reference",
            subject: plan.planId,
            payload: {
              planId: plan.planId,
              orderId,
              orderGid: order.admin_graphql_api_id,
              attributes: order.note_attributes,
              referenceNumber: plan.referenceNumber,
              // The kept line is fulfilled by the same job, from the fulfillment orders its Admin call reads.
              fulfilProtectionLine: kept !== undefined,
            },
          });
          if (protectionLines.some((line) => line !== kept || line.quantity > 1))
            await enqueueNamedJobOnce(tx, deps.services, unitsRefund(kept));
        }
        await completion.markDone(tx);
      },
      order.shipping_address_hash ?? null,
      // The quote the buyer accepted at checkout: an offer experiment prices the order by that quote's variant.
      order.note_attributes.find((attribute) => attribute.name === QUOTE_ATTRIBUTE)?.value,
    ),
  );
  deps.wakeJobs();
}

/**
 * An edit that added protection units: they are the merchant's doing, never the buyer's act of choosing, so they are
 * refunded (the units the line held before the edit stay). A removal leaves the plan as orders/create made it.
 */
async function refundEditedInUnits(deps: ShopifyDeps, job: Job<JobPayloads["orders/edited"]>): Promise<void> {
  const { editId, orderId, additions } = job.payload;
  const installation = await deps.installation(job.shop);
  if (additions.length === 0 || !installation?.productId) return;
  const orderGid = `gid://shopify/Order/${orderId}`;
  const { order } = await protectionRefundOrder(await deps.adminApi(job.shop), { id: orderGid });
  const productGid = `gid://shopify/Product/${installation.productId}`;
  const lines = additions.flatMap(({ lineId, delta }) => {
    const line = order?.lineItems.nodes.find((item) => item.id === lineId && item.product?.id === productGid);
    return line ? [{ id: line.id, keep: line.quantity - delta }] : [];
  });
  if (!order || lines.length === 0) return;
  deps.logger.warn({ shop: job.shop, orderId, editId }, "protection line added by an order edit; refunded");
  await enqueueNamedJobOnce(deps.db, deps.services, {
    id: lineRefundJobId(job.shop, `${orderId}_edit_${editId}`),
    shop: job.shop,
    kind: LINE_REFUND_JOB,
    subject: orderId,
    payload: { orderGid, currency: order.presentmentCurrencyCode, lines },
  });
  deps.wakeJobs();
}

async function writeReference(
  deps: ShopifyDeps,
  job: Job<JobPayloads["write_reference"]>,
  completion: JobCompletion,
): Promise<void> {
  const { orderId, orderGid, attributes, referenceNumber } = job.payload;
  const planId = job.payload.planId ?? (await findShopifyOrder(deps.db, job.shop, orderId))?.planId;
  const wrote =
    planId !== undefined &&
    (await writePlanState(deps, planId, (graphql, state, installation) =>
      writeOrderReference(
        graphql,
        { gid: orderGid, attributes },
        referenceNumber,
        orderStateVariables(state),
        (job.payload.fulfilProtectionLine && installation.productId) || undefined,
      ),
    ));
  if (!wrote) return;
  await saveReferenceWritten(deps.db, deps.services, { shop: job.shop, orderId }, completion);
}

async function voidCancelledOrder(deps: ShopifyDeps, job: Job<JobPayloads["orders/cancelled"]>): Promise<void> {
  const orderId = String(job.payload.id);
  const target = await protectedOrder(deps, job.shop, orderId);
  if (!target) return;
  await target.client.offers.void(
    { orderId, reason: "order_cancelled" },
    deps.idempotencyKey(job.shop, orderId, "void"),
  );
  await setOrderStatus(deps, job.shop, orderId, "voided");
}

/**
 * Counts each refund once; when the refunds reach the goods amount (everything but the protection line), the order
 * is reported as merchant-refunded, which voids the plan. A partial refund only adds to the count: the plan keeps
 * covering the order (docs/shopify.md "Shopify app").
 */
async function reportFullRefund(deps: ShopifyDeps, job: Job<JobPayloads["refunds/create"]>): Promise<void> {
  // The app's own refund of an approved claim (the merchant is reimbursed through the claim) or of protection units
  // without a plan: no merchant refund of the goods.
  if (isClaimRefundNote(job.payload.note) || job.payload.note === LINE_REFUND_NOTE) return;
  const orderId = String(job.payload.order_id);
  const target = await protectedOrder(deps, job.shop, orderId);
  if (!target) return;
  const refundId = String(job.payload.id);
  const refundedCents = (job.payload.transactions ?? [])
    .filter((transaction) => transaction.kind === "refund" && transaction.status === "success")
    .reduce((sum, transaction) => sum + parseDecimalAmount(transaction.amount, target.order.currency), 0);
  const total = await countOrderRefund(
    deps.db,
    deps.services,
    { shop: job.shop, orderId },
    { id: refundId, refundedCents },
  );
  if (total < target.order.goodsAmountCents) return;
  // docs/api.md "Money invariants": an order whose buyer a claim refunds (or refunded) is not reported refunded a second
  // time; the refusal stays on the dead job for the merchant to see.
  await refusalIsFinal(target.client.refunds.create(orderId, {}, deps.idempotencyKey(job.shop, orderId, "refund")), [
    "order_has_claim_payout",
  ]);
  await setOrderStatus(deps, job.shop, orderId, "refunded");
}

/**
 * The protected order and a client for its shop, or undefined when there is nothing to do. When the order's
 * orders/create job has not finished yet (Shopify does not order topics), this throws so the job is retried.
 */
async function protectedOrder(
  deps: ShopifyDeps,
  shop: string,
  orderId: string,
): Promise<
  | { order: { currency: string; goodsAmountCents: number }; client: ReturnType<ShopifyDeps["protectionClient"]> }
  | undefined
> {
  const installation = await deps.installation(shop);
  if (!installation) return undefined;
  const order = await findShopifyOrder(deps.db, shop, orderId);
  if (!order) {
    if (await hasPendingShopifyJob(deps.db, { shop, kind: "orders/create", subject: orderId })) {
      throw new Error(`order ${orderId} is still being protected; retrying after its orders/create job`);
    }
    return undefined;
  }
  if (order.status !== "protected") return undefined;
  return { order, client: deps.protectionClient(installation) };
}

async function setOrderStatus(
  deps: ShopifyDeps,
  shop: string,
  orderId: string,
  status: ShopifyOrderStatus,
): Promise<void> {
  await setShopifyOrderStatus(deps.db, shop, orderId, status, deps.services.clock());
}

/**
 * The API refused the request itself (400/404/422: an unsupported currency, an amount above the maximum, …; or one of
 * `finalConflicts`): a retry would be refused again, so the job goes dead at once and shows on the dashboard. Other
 * conflicts, rate limits, 5xx and transport failures stay retryable. The refusal comes over HTTP from the SDK, or as
 * the API's answer from the core's unit of work (ApiError).
 */
async function refusalIsFinal<T>(call: Promise<T>, finalConflicts: readonly string[] = []): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const refusal =
      error instanceof ServiceHttpError
        ? { status: error.httpStatus ?? 0, code: error.code ?? "" }
        : error instanceof ApiError
          ? error
          : undefined;
    if (
      refusal &&
      ([400, 404, 422].includes(refusal.status) || (refusal.status === 409 && finalConflicts.includes(refusal.code)))
    )
      throw new PermanentJobError(`${refusal.code}: ${(error as Error).message}`);
    throw error;
  }
}
