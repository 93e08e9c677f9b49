// Approved claims of Shopify shops, paid on the original order. Shopify's App Store rules (1.1.15) want refunds through
// the original payment processor, so a refund is Admin GraphQL refundCreate against the order's sales or captures; a
// replacement (where the program allows it: the claim's remedy says so) is a draft order of the same goods, discounted
// 100 % and completed. The core knows nothing of Shopify: a claim approved with a remedy waits in status approved; a
// periodic task here finds such claims and queues one job per claim under an id of the claim's (never two payouts;
// a job that found the approval withdrawn before it began, and so paid nothing, is queued again once a person approves
// the claim again); the job pays and resolves the claim (paid, with the refund's or the new order's gid; the ledger's reimbursement). A
// failed attempt is retried on the queue's backoff. Where the payout stands (queued, retrying, gave up, done) and the
// last error are kept on the claim, written with the job's own bookkeeping: the core reads them there for the
// dashboard, the needs-your-action list and the console, never this queue.
import { recordClaimPayoutStep } from "../../server/index.ts";
import {
  listUnqueuedShopifyClaimPayouts,
  findShopifyClaimPayout,
  type ShopifyClaimPayout,
} from "./store/claim-payouts.ts";
import { queueClaimPayout, savePaidClaim, startClaimPayout } from "./store/units/claim-payouts.ts";
import { formatDecimalAmount, parseDecimalAmount } from "@purchase-protection/contract";
import type { ShopifyDeps } from "./deps.server.ts";
import type { AdminGraphql } from "./admin/graphql.ts";
import { claimPayoutOrder, type ClaimPayoutOrderResult } from "./admin/claim-payout-order.ts";
import { claimReplacementDrafts, type ClaimReplacementDraft } from "./admin/claim-replacement-drafts.ts";
import { completeClaimReplacement } from "./admin/complete-claim-replacement.ts";
import { createClaimReplacement, type MailingAddressInput } from "./admin/create-claim-replacement.ts";
import type { RefundOrderTransaction } from "./admin/protection-refund-order.ts";
import { refundClaim } from "./admin/refund-claim.ts";
import type { Installation } from "./installations.server.ts";
import {
  coreRefusalIsFinal,
  PermanentJobError,
  type Job,
  type JobCompletion,
  type JobOutcomeRecorder,
  type PeriodicTask,
} from "./jobs.server.ts";
import type { JobHandlers, JobPayloads } from "./named-jobs.ts";
import { convertCents } from "./presentment.ts";

/** The payout job's kind in shopify_jobs: one per claim, its subject the claim's id. */
export const CLAIM_PAYOUT_JOB = "pay_claim";
/** How often the app looks for approved claims to pay: the buyer waits for the money, so as often as fee refunds. */
export const CLAIM_PAYOUT_SCAN_MS = 30_000;
/** Claims queued per look; more are taken on the next one. */
const SCAN_LIMIT = 100;

/**
 * The payout job's id: one per claim, so enqueueing it again (or from another instance) adds nothing while it is
 * pending, and a second job can never pay the claim beside it.
 */
export const claimPayoutJobId = (claimId: string) => `job_claim_payout_${claimId}`;

/**
 * The refund's note: what finds the refund again after a lost answer (Shopify keeps no idempotency key for us), and
 * what tells refunds/create the refund is a claim's, not the merchant's.
 */
const refundNote = (claim: ShopifyClaimPayout) =>
  `Purchase protection ${claim.referenceNumber}: claim ${claim.claimId} refunded`;
const CLAIM_REFUND_NOTE = /^Purchase protection \S+: claim clm_\S+ refunded$/;

/** Whether a refund's note is the one a claim's refund carries. */
export const isClaimRefundNote = (note: string | null | undefined) => CLAIM_REFUND_NOTE.test(note ?? "");

/**
 * Queues a payout job for every approved Shopify claim that has none yet. A claim listed here while its job is done
 * was not paid by it (a paid claim is not approved; a job done without paying leaves the claim no payout state): its
 * approval was withdrawn before the job began, and it was approved again since, so the job runs again for the new
 * approval. Returns how many it queued.
 */
export async function queueApprovedClaimPayouts(deps: ShopifyDeps): Promise<number> {
  const approved = await listUnqueuedShopifyClaimPayouts(deps.db, { limit: SCAN_LIMIT });
  let queued = 0;
  for (const { claimId, shop } of approved) {
    const added = await queueClaimPayout(deps.db, deps.services, {
      id: claimPayoutJobId(claimId),
      shop,
      kind: CLAIM_PAYOUT_JOB,
      payload: { claimId },
      subject: claimId,
      rearmDone: true,
    });
    if (added) queued++;
  }
  if (queued > 0) deps.wakeJobs();
  return queued;
}

export function claimPayoutTask(deps: ShopifyDeps): PeriodicTask {
  return { name: "shopify-claim-payouts", everyMs: CLAIM_PAYOUT_SCAN_MS, task: () => queueApprovedClaimPayouts(deps) };
}

export function claimPayoutHandlers(deps: ShopifyDeps): Pick<JobHandlers, typeof CLAIM_PAYOUT_JOB> {
  return { [CLAIM_PAYOUT_JOB]: (job, completion) => payClaim(deps, job, completion) };
}

/** The payout job's outcomes, kept on its claim (payout_state, payout_attempts, payout_error). */
export function claimPayoutOutcomes(): Record<typeof CLAIM_PAYOUT_JOB, JobOutcomeRecorder> {
  return {
    [CLAIM_PAYOUT_JOB]: (tx, job, outcome) =>
      recordClaimPayoutStep(tx, (job as Job<JobPayloads[typeof CLAIM_PAYOUT_JOB]>).payload.claimId, {
        state: outcome.status,
        attempts: outcome.attempts,
        error: outcome.lastError,
      }),
  };
}

/** What was paid on Shopify: the refund's or the replacement order's gid, and the amount the claim is paid. */
interface Payout {
  reference: string;
  amountCents: number;
}

async function payClaim(
  deps: ShopifyDeps,
  job: Job<JobPayloads[typeof CLAIM_PAYOUT_JOB]>,
  completion: JobCompletion,
): Promise<void> {
  const claim = await findShopifyClaimPayout(deps.db, job.payload.claimId);
  if (!claim || claim.status !== "approved") return;
  const { remedy } = claim;
  if (remedy !== "refund" && remedy !== "replacement")
    throw new PermanentJobError(`claim ${claim.claimId} was approved without a remedy`);
  const installation = await deps.installation(claim.shop);
  if (!installation)
    throw new PermanentJobError("the app is not installed on the shop: pay the claim in the Shopify admin");
  // docs/api.md "Money invariants": the core's own check before any money moves on Shopify (an ended plan pays no claim),
  // which also records the attempt so that a new scan no longer withdraws the approval; resolveClaim checks again when
  // it records the payout. A plan ended between the two keeps the claim approved with the refusal as its payout error,
  // for the claims team. An approval withdrawn since the claim was read is not paid.
  const owner = { merchantId: claim.merchantId, mode: claim.mode };
  const begun = await coreRefusalIsFinal(startClaimPayout(deps.db, owner, claim.claimId, job.attempts + 1));
  if (!begun) return;
  const graphql = await deps.adminApi(claim.shop);
  const payout =
    remedy === "refund" ? await refundOnShopify(graphql, claim) : await replaceOnShopify(graphql, claim, installation);
  // The claim's resolution, the job's completion and the claim's payout state commit together.
  await savePaidClaim(
    deps.db,
    deps.services,
    owner,
    claim.claimId,
    { channel: "shopify", kind: remedy, amountCents: payout.amountCents, reference: payout.reference },
    completion,
  );
}

type PayoutOrder = NonNullable<ClaimPayoutOrderResult["order"]>;

async function payoutOrder(graphql: AdminGraphql, claim: ShopifyClaimPayout): Promise<PayoutOrder> {
  const { order } = await claimPayoutOrder(graphql, { id: `gid://shopify/Order/${claim.orderId}` });
  if (!order) throw new PermanentJobError(`order ${claim.orderId} is not on Shopify (deleted?)`);
  return order;
}

/**
 * Refunds the claim's amount — at most what the plan still covers and what the order's payments can still give back —
 * through the order's sales and captures, and returns the refund. A refund of the order whose note names the claim
 * (this job's own, made before the process died or its answer was lost) is returned instead: nothing is refunded twice.
 */
async function refundOnShopify(graphql: AdminGraphql, claim: ShopifyClaimPayout): Promise<Payout> {
  const order = await payoutOrder(graphql, claim);
  // Shopify refunds in the currency the buyer paid in: a Markets order's claim (in the plan's, the shop's, currency) is
  // refunded in the buyer's at the plan's recorded rate, and paid in the claim's currency as what that refund is worth
  // at the same rate (docs/shopify.md "Shopify Markets: the buyer's currency").
  const refundCurrency = order.presentmentCurrencyCode;
  const buyerRate =
    refundCurrency !== claim.currency && claim.buyerCurrency?.currency === refundCurrency ? claim.buyerCurrency : null;
  const toRefunded = (cents: number) => (buyerRate ? convertCents(cents, claim.currency, buyerRate, true) : cents);
  const toClaims = (cents: number) => (buyerRate ? convertCents(cents, claim.currency, buyerRate, false) : cents);
  const note = refundNote(claim);
  const earlier = order.refunds.find((refund) => refund.note?.includes(claim.claimId));
  if (earlier)
    return {
      reference: earlier.id,
      amountCents: toClaims(parseDecimalAmount(earlier.totalRefundedSet.presentmentMoney.amount, refundCurrency)),
    };

  if (refundCurrency !== claim.currency && !buyerRate)
    throw new PermanentJobError(
      `the claim is in ${claim.currency} but the buyer paid in ${refundCurrency}: refund it in the Shopify admin`,
    );
  const owedCents = Math.min(claim.amountCents, claim.coveredRemainingCents);
  if (owedCents <= 0) throw new PermanentJobError(`the plan of claim ${claim.claimId} has nothing left covered`);
  const owedRefundCents = toRefunded(owedCents);
  const parents = refundableParents(order.transactions, refundCurrency);
  // A payment still pending (or none yet) may yet succeed: retried.
  if (parents.length === 0)
    throw new Error(`order ${claim.orderId} has no successful sale or capture left to refund through`);

  const transactions: { parent: RefundOrderTransaction & { gateway: string }; cents: number }[] = [];
  let left = owedRefundCents;
  for (const { transaction, refundableCents } of parents) {
    if (left === 0) break;
    const cents = Math.min(left, refundableCents);
    transactions.push({ parent: transaction, cents });
    left -= cents;
  }
  const { refundCreate } = await refundClaim(graphql, {
    input: {
      orderId: order.id,
      // Shopify needs the currency when the buyer's differs from the shop's.
      ...(refundCurrency === order.currencyCode ? {} : { currency: refundCurrency }),
      note,
      notify: true,
      refundLineItems: [],
      transactions: transactions.map(({ parent, cents }) => ({
        orderId: order.id,
        parentId: parent.id,
        gateway: parent.gateway,
        kind: "REFUND" as const,
        amount: formatDecimalAmount(cents, refundCurrency),
      })),
    },
  });
  if (!refundCreate.refund) throw new Error("refundCreate answered without a refund");
  return {
    reference: refundCreate.refund.id,
    amountCents: left === 0 ? owedCents : Math.min(owedCents, toClaims(owedRefundCents - left)),
  };
}

/** The order's successful sales and captures with what each can still give back (less its refunds), in order. */
function refundableParents(
  transactions: RefundOrderTransaction[],
  currency: string,
): { transaction: RefundOrderTransaction & { gateway: string }; refundableCents: number }[] {
  const cents = (transaction: RefundOrderTransaction) =>
    parseDecimalAmount(transaction.amountSet.presentmentMoney.amount, currency);
  return transactions
    .filter(
      (transaction): transaction is RefundOrderTransaction & { gateway: string } =>
        (transaction.kind === "SALE" || transaction.kind === "CAPTURE") &&
        transaction.status === "SUCCESS" &&
        transaction.gateway !== null,
    )
    .map((transaction) => ({
      transaction,
      refundableCents:
        cents(transaction) -
        transactions
          .filter(
            (refund) =>
              refund.kind === "REFUND" &&
              refund.status === "SUCCESS" &&
              refund.parentTransaction?.id === transaction.id,
          )
          .reduce((sum, refund) => sum + cents(refund), 0),
    }))
    .filter((parent) => parent.refundableCents > 0);
}

/**
 * Reships the order's goods: a draft order of its goods lines (not the protection line) to the buyer's e-mail and
 * shipping address, 100 % discounted and tagged with the claim's id, then completed. A draft tagged with the claim
 * (this job's own, from an attempt that died) is completed or, already completed, reused: never a second replacement.
 * Returns the new order's gid.
 */
async function replaceOnShopify(
  graphql: AdminGraphql,
  claim: ShopifyClaimPayout,
  installation: Installation,
): Promise<Payout> {
  const amountCents = Math.min(claim.amountCents, claim.coveredRemainingCents);
  const { draftOrders } = await claimReplacementDrafts(graphql, { query: `tag:${claim.claimId}` });
  // Search matches loosely; the tag itself decides.
  let draft: ClaimReplacementDraft | null =
    draftOrders.nodes.find((candidate) => candidate.tags.includes(claim.claimId)) ?? null;
  if (!draft) {
    const order = await payoutOrder(graphql, claim);
    const protectionProduct = installation.productId && `gid://shopify/Product/${installation.productId}`;
    const goods = order.lineItems.nodes.filter(
      (line) => line.currentQuantity > 0 && line.product?.id !== protectionProduct,
    );
    if (goods.length === 0) throw new PermanentJobError(`order ${claim.orderId} has no goods left to reship`);
    const lineItems = goods.map((line) => {
      if (!line.variant)
        throw new PermanentJobError(
          `a product of order ${claim.orderId} no longer exists: create the replacement in the Shopify admin`,
        );
      return { variantId: line.variant.id, quantity: line.currentQuantity };
    });
    const { draftOrderCreate } = await createClaimReplacement(graphql, {
      input: {
        ...(order.email ? { email: order.email } : {}),
        ...(order.shippingAddress ? { shippingAddress: addressInput(order.shippingAddress) } : {}),
        lineItems,
        appliedDiscount: { value: 100, valueType: "PERCENTAGE", title: "Purchase protection replacement" },
        tags: [claim.claimId],
        note: `Purchase protection ${claim.referenceNumber}: claim ${claim.claimId} replaced (order ${claim.orderId})`,
      },
    });
    draft = draftOrderCreate.draftOrder;
    if (!draft) throw new Error("draftOrderCreate answered without a draft order");
  }
  if (draft.order) return { reference: draft.order.id, amountCents };
  const { draftOrderComplete } = await completeClaimReplacement(graphql, { id: draft.id });
  const orderGid = draftOrderComplete.draftOrder?.order?.id;
  if (!orderGid) throw new Error("draftOrderComplete answered without an order");
  return { reference: orderGid, amountCents };
}

/** The order's shipping address as a draft order takes it (only the fields it has). */
function addressInput(address: NonNullable<PayoutOrder["shippingAddress"]>): MailingAddressInput {
  const { countryCodeV2, ...rest } = address;
  const fields = { ...rest, countryCode: countryCodeV2 };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null)) as MailingAddressInput;
}
