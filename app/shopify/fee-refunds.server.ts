// The protection fee of a free-look cancellation, refunded on the Shopify order. Shopify's App Store rules (1.1.15)
// want refunds through the original payment processor, so the app refunds the protection line itself, through
// Admin GraphQL refundCreate against the order's sale or capture. The core knows nothing of Shopify: the portal's
// cancel writes a fee_refunds row (channel "shopify", pending); a periodic task here finds such rows and queues one
// job per plan under an id of the plan's (never two refunds); the job refunds and confirms the row with the refund's
// gid. A failed attempt is retried on the queue's backoff and its error kept on the row for the dashboard.
// The same refund takes back protection units no plan stands behind (docs/shopify.md "When the opt-in and the
// protection line disagree"): a line on an order without the buyer's consent, a second unit beside the plan's.
import {
  FEE_REFUND_JOB,
  findShopifyFeeRefund,
  listUnqueuedShopifyFeeRefunds,
  recordShopifyFeeRefundError,
  type ShopifyFeeRefund,
} from "./store/fee-refunds.ts";
import { setShopifyOrderStatus } from "./store/orders.ts";
import { checkFeeRefundable, saveFeeRefunded } from "./store/units/fee-refunds.ts";
import { formatDecimalAmount, parseDecimalAmount } from "@purchase-protection/contract";
import type { ShopifyDeps } from "./deps.server.ts";
import type { AdminGraphql } from "./admin/graphql.ts";
import { protectionRefundOrder, type RefundOrderTransaction } from "./admin/protection-refund-order.ts";
import { refundProtectionFee } from "./admin/refund-protection-fee.ts";
import { coreRefusalIsFinal, PermanentJobError, type Job, type PeriodicTask } from "./jobs.server.ts";
import { enqueueNamedJobOnce, type JobHandlers, type JobPayloads } from "./named-jobs.ts";
import { convertCents } from "./presentment.ts";

/** The job that refunds protection units without a plan: one per order, ever. */
export const LINE_REFUND_JOB = "refund_protection_lines";

// The job kind lives with the rows it refunds (the core reads which ones gave up: docs/dashboard.md "Needs your action").
export { FEE_REFUND_JOB };
/**
 * How often the app looks for fee refunds owed. A cancelled buyer sees "refund pending" until the job ran; half a
 * minute is well inside what a refund takes to reach a card anyway.
 */
export const FEE_REFUND_SCAN_MS = 30_000;
/** Rows queued per look; more are taken on the next one. */
const SCAN_LIMIT = 100;
/** As the job queue keeps a job's error (server/workers/failure-recorder.ts). */
const LAST_ERROR_CHARS = 2_000;

/** The refund job's id: one per plan, so enqueueing it again (or from another instance) adds nothing. */
export const feeRefundJobId = (planId: string) => `job_fee_refund_${planId}`;

/** Queues a refund job for every Shopify fee refund owed that has none yet. Returns how many it queued. */
export async function queueOwedFeeRefunds(deps: ShopifyDeps): Promise<number> {
  const owed = await listUnqueuedShopifyFeeRefunds(deps.db, { kind: FEE_REFUND_JOB, limit: SCAN_LIMIT });
  let queued = 0;
  for (const { planId, shop, orderId } of owed) {
    const added = await enqueueNamedJobOnce(deps.db, deps.services, {
      id: feeRefundJobId(planId),
      shop,
      kind: FEE_REFUND_JOB,
      payload: { planId },
      subject: planId,
    });
    if (added) queued++;
    // The order is no longer protected: refunds/create (this fee refund's own, or the merchant's later) reports nothing.
    await setShopifyOrderStatus(deps.db, shop, orderId, "cancelled", deps.services.clock());
  }
  if (queued > 0) deps.wakeJobs();
  return queued;
}

export function feeRefundTask(deps: ShopifyDeps): PeriodicTask {
  return { name: "shopify-fee-refunds", everyMs: FEE_REFUND_SCAN_MS, task: () => queueOwedFeeRefunds(deps) };
}

export function feeRefundHandlers(
  deps: ShopifyDeps,
): Pick<JobHandlers, typeof FEE_REFUND_JOB | typeof LINE_REFUND_JOB> {
  return { [FEE_REFUND_JOB]: (job) => refundFee(deps, job), [LINE_REFUND_JOB]: (job) => refundLines(deps, job) };
}

/**
 * The line refund job's id: one per order (`subject`: its id) or order edit (`<order id>_edit_<edit id>`), so a second
 * run of the job that queued it queues nothing.
 */
export const lineRefundJobId = (shop: string, subject: string) => `job_line_refund_${shop}_${subject}`;

/** The note on a refund of protection units without a plan: refunds/create knows its own refund by it. */
export const LINE_REFUND_NOTE = "Purchase protection: no protection plan stands behind this fee, refunded";

/**
 * Refunds what of each protection line the order holds beyond its `keep` units (not restocked). The money goes back
 * against the order's sale or capture, less what the buyer still owes (an edit's unpaid balance, payment terms: that
 * part is taken off the balance, not paid out). What the order no longer holds (this job's earlier refund, or the
 * merchant's) is not refunded again; nothing left to refund is done.
 */
async function refundLines(deps: ShopifyDeps, job: Job<JobPayloads[typeof LINE_REFUND_JOB]>): Promise<void> {
  const { orderGid, currency, lines } = job.payload;
  if (!(await deps.installation(job.shop)))
    throw new PermanentJobError(
      "the app is not installed on the shop: refund the protection line in the Shopify admin",
    );
  const graphql = await deps.adminApi(job.shop);
  const { order } = await protectionRefundOrder(graphql, { id: orderGid });
  if (!order) throw new PermanentJobError(`order ${orderGid} is not on Shopify (deleted?)`);
  const refunded = (lineId: string) =>
    order.refunds
      .flatMap((refund) => refund.refundLineItems.nodes)
      .filter((item) => item.lineItem.id === lineId)
      .reduce((sum, item) => sum + item.quantity, 0);
  const units = lines
    .map((line) => {
      const item = order.lineItems.nodes.find((candidate) => candidate.id === line.id);
      if (!item)
        throw new PermanentJobError(`order ${orderGid} has no line ${line.id}: refund it in the Shopify admin`);
      return { id: line.id, item, quantity: Math.max(0, item.quantity - refunded(line.id) - line.keep) };
    })
    .filter((line) => line.quantity > 0);
  if (units.length === 0) return;
  if (order.presentmentCurrencyCode !== currency)
    throw new PermanentJobError(
      `the fee is in ${currency} but the buyer paid in ${order.presentmentCurrencyCode}: refund it in the Shopify admin`,
    );
  const cents = (money: { presentmentMoney: { amount: string } }) =>
    parseDecimalAmount(money.presentmentMoney.amount, currency);
  const amountCents = units.reduce((sum, line) => sum + line.quantity * cents(line.item.originalUnitPriceSet), 0);
  const paidCents = Math.max(0, amountCents - cents(order.totalOutstandingSet));
  const parent = paidCents > 0 ? originalPayment(order.transactions, currency, paidCents) : undefined;
  if (paidCents > 0 && !parent)
    throw new Error(`order ${orderGid} has no successful sale or capture covering the fee yet`);
  const refund = await createRefund(graphql, {
    orderGid,
    lines: units.map((line) => ({ lineItemId: line.id, quantity: line.quantity })),
    payment: parent && { parent, amount: formatDecimalAmount(paidCents, currency) },
    currency: order.presentmentCurrencyCode === order.currencyCode ? undefined : order.presentmentCurrencyCode,
    note: LINE_REFUND_NOTE,
  });
  deps.logger.info(
    { shop: job.shop, orderGid, refund, amountCents, paidCents },
    "protection units without a plan refunded",
  );
}

async function refundFee(deps: ShopifyDeps, job: Job<JobPayloads[typeof FEE_REFUND_JOB]>): Promise<void> {
  const owed = await findShopifyFeeRefund(deps.db, job.payload.planId);
  if (!owed || owed.status === "refunded") return;
  try {
    const owner = { merchantId: owed.merchantId, mode: owed.mode };
    // docs/api.md "Money invariants": the core's own check before the fee moves on Shopify.
    await coreRefusalIsFinal(checkFeeRefundable(deps.db, owner, owed.planId));
    const reference = await refundOnShopify(deps, owed);
    await saveFeeRefunded(deps.db, deps.services, owner, owed.planId, reference);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordShopifyFeeRefundError(deps.db, owed.planId, message.slice(0, LAST_ERROR_CHARS));
    throw error;
  }
}

/**
 * Refunds the protection line (quantity 1, not restocked) for the fee, against the order's sale or capture, and
 * returns the refund's gid. When a refund of the order already covers the protection line — this job's own, made
 * before the process died or its answer was lost, or the merchant's by hand — that one is returned and nothing is
 * refunded again.
 */
async function refundOnShopify(deps: ShopifyDeps, owed: ShopifyFeeRefund): Promise<string> {
  const installation = await deps.installation(owed.shop);
  if (!installation?.productId)
    throw new PermanentJobError("the app is not installed on the shop: refund the protection fee in the Shopify admin");
  const graphql = await deps.adminApi(owed.shop);
  const orderGid = `gid://shopify/Order/${owed.orderId}`;
  const { order } = await protectionRefundOrder(graphql, { id: orderGid });
  if (!order) throw new PermanentJobError(`order ${owed.orderId} is not on Shopify (deleted?)`);

  const productGid = `gid://shopify/Product/${installation.productId}`;
  const line = order.lineItems.nodes.find((item) => item.product?.id === productGid);
  if (!line) throw new PermanentJobError(`order ${owed.orderId} has no protection line to refund`);
  const earlier = order.refunds.find((refund) =>
    refund.refundLineItems.nodes.some((item) => item.lineItem.id === line.id && item.quantity > 0),
  );
  if (earlier) return earlier.id;

  // Shopify refunds in the currency the buyer paid in: a Markets order's fee (owed in the plan's, the shop's,
  // currency) goes back in the buyer's at the plan's rate, never more than they paid for the line (docs/shopify.md
  // "Shopify Markets: the buyer's currency").
  const refundCurrency = order.presentmentCurrencyCode;
  const buyer =
    refundCurrency !== owed.currency && owed.buyerCurrency?.currency === refundCurrency ? owed.buyerCurrency : null;
  if (refundCurrency !== owed.currency && !buyer)
    throw new PermanentJobError(
      `the fee is in ${owed.currency} but the buyer paid in ${refundCurrency}: refund it in the Shopify admin`,
    );
  const amountCents = buyer
    ? Math.min(convertCents(owed.amountCents, owed.currency, buyer, true), buyer.buyerPaidCents ?? Infinity)
    : owed.amountCents;
  const parent = originalPayment(order.transactions, refundCurrency, amountCents);
  // A payment still pending (or none yet) may yet succeed: retried.
  if (!parent) throw new Error(`order ${owed.orderId} has no successful sale or capture covering the fee yet`);
  return createRefund(graphql, {
    orderGid,
    lines: [{ lineItemId: line.id, quantity: 1 }],
    payment: { parent, amount: formatDecimalAmount(amountCents, refundCurrency) },
    // Shopify needs the currency when the buyer's differs from the shop's.
    currency: order.presentmentCurrencyCode === order.currencyCode ? undefined : order.presentmentCurrencyCode,
    note: `Purchase protection ${owed.referenceNumber} cancelled within the free look: protection fee refunded`,
  });
}

/** The successful sale or capture the refund goes back through: the first one that covers the amount. */
function originalPayment(
  transactions: RefundOrderTransaction[],
  currency: string,
  amountCents: number,
): (RefundOrderTransaction & { gateway: string }) | undefined {
  return transactions.find(
    (transaction): transaction is RefundOrderTransaction & { gateway: string } =>
      (transaction.kind === "SALE" || transaction.kind === "CAPTURE") &&
      transaction.status === "SUCCESS" &&
      transaction.gateway !== null &&
      parseDecimalAmount(transaction.amountSet.presentmentMoney.amount, currency) >= amountCents,
  );
}

async function createRefund(
  graphql: AdminGraphql,
  refund: {
    orderGid: string;
    lines: { lineItemId: string; quantity: number }[];
    /** The money paid back, against `parent`; none when nothing of it was paid. */
    payment: { parent: { id: string; gateway: string }; amount: string } | undefined;
    currency: string | undefined;
    note: string;
  },
): Promise<string> {
  const { refundCreate } = await refundProtectionFee(graphql, {
    input: {
      orderId: refund.orderGid,
      ...(refund.currency ? { currency: refund.currency } : {}),
      note: refund.note,
      notify: true,
      refundLineItems: refund.lines.map((line) => ({ ...line, restockType: "NO_RESTOCK" as const })),
      transactions: refund.payment
        ? [
            {
              orderId: refund.orderGid,
              parentId: refund.payment.parent.id,
              gateway: refund.payment.parent.gateway,
              kind: "REFUND",
              amount: refund.payment.amount,
            },
          ]
        : [],
    },
  });
  if (!refundCreate.refund) throw new Error("refundCreate answered without a refund");
  return refundCreate.refund.id;
}
