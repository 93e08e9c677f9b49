// The money ledger: every money movement between the merchant and us is one immutable entry, written in the
// transaction of its cause. Entries are never updated or deleted; a mistake is put right by a `correction` entry.
import { newId } from "./ids.ts";
import type { Services, Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { FeeParts } from "../vocabulary/plans.ts";
import { applyBps } from "./money.ts";
import { findLedgerEntry, insertLedgerEntries } from "../store/ledger.ts";

/**
 * Ledger kinds and their signs. amount_cents is signed from the merchant's side: positive is owed to the merchant
 * by us, negative is owed to us by the merchant.
 *
 * | kind                   | sign | source id  | what                                                                 |
 * |------------------------|------|------------|----------------------------------------------------------------------|
 * | fee_collected          |  −   | plan id    | the protection fee the merchant collected from the buyer for us (confirm) |
 * | merchant_fee_share     |  +   | plan id    | the merchant's share of that fee (confirm)                           |
 * | merchant_paid_fee      |  −   | plan id    | the fee the merchant pays for protecting its own orders (confirm; payer merchant, or split's rest) |
 * | fee_refunded           |  +   | plan id    | free-look cancellation: the merchant refunds the buyer the fee; we return it |
 * | merchant_refund_credit |  +   | plan id    | refund report: the merchant's fee share credited (spec "Orders: merchant refund report") |
 * | claim_reimbursement    |  +   | claim id   | a paid claim: what the merchant refunded or reshipped for the buyer, reimbursed |
 * | correction             |  ±   | any        | a fix of an earlier entry (also: the fee share taken back on a free-look cancellation, and the merchant's own part returned on it or on a void) |
 *
 * The share is a commission on protection sold to buyers: a merchant paying for protection of its own orders earns
 * none on its part (docs/api.md "Who pays").
 */
export const LEDGER_KINDS = [
  "fee_collected",
  "merchant_fee_share",
  "merchant_paid_fee",
  "fee_refunded",
  "merchant_refund_credit",
  "claim_reimbursement",
  "correction",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export interface LedgerEntryInput {
  kind: LedgerKind;
  /** Signed, minor units: positive owed to the merchant, negative owed to us (see the table above). */
  amountCents: number;
  currency: string;
  /** What caused the entry (see the table); with the kind, it makes the entry unique. */
  sourceId: string;
  planId?: string;
}

/**
 * Appends entries for the actor's merchant and mode in one statement, each unless an entry of its kind for its source
 * exists (a retried cause writes nothing twice). Resolves, per entry, whether this call wrote it.
 */
export async function appendLedgerEntries(
  tx: Tx,
  services: Services,
  actor: Actor,
  entries: readonly LedgerEntryInput[],
): Promise<boolean[]> {
  const now = services.clock();
  const rows = entries.map((entry) => {
    if (!Number.isSafeInteger(entry.amountCents))
      throw new Error(`ledger amount must be an integer: ${entry.amountCents}`);
    return {
      id: newId("le", now, services.random),
      merchantId: actor.merchantId,
      mode: actor.mode,
      currency: entry.currency.toUpperCase(),
      kind: entry.kind,
      amountCents: entry.amountCents,
      sourceId: entry.sourceId,
      planId: entry.planId ?? null,
      createdAt: now,
    };
  });
  const written = await insertLedgerEntries(tx, rows);
  return rows.map((row) => written.has(row.id));
}

/** appendLedgerEntries of one entry: true when this call wrote it. */
export async function appendLedgerEntry(
  tx: Tx,
  services: Services,
  actor: Actor,
  entry: LedgerEntryInput,
): Promise<boolean> {
  const [written] = await appendLedgerEntries(tx, services, actor, [entry]);
  return written;
}

/**
 * The entries of a confirmed sale, by who pays (docs/api.md "Who pays"): the buyer's part as the fee the merchant
 * collected for us with the merchant's share of it (payer buyer or split), and the merchant's own part
 * (merchant_paid_fee: payer merchant or split), which earns no share.
 */
export function feeEntriesOfSale(
  sale: FeeParts & { planId: string; currency: string; merchantShareBps: number },
): LedgerEntryInput[] {
  const { planId, currency } = sale;
  const entries: LedgerEntryInput[] = [];
  if (sale.payer !== "merchant")
    entries.push(
      { kind: "fee_collected", amountCents: -sale.buyerFeeCents, currency, sourceId: planId, planId },
      {
        kind: "merchant_fee_share",
        amountCents: applyBps(sale.buyerFeeCents, sale.merchantShareBps),
        currency,
        sourceId: planId,
        planId,
      },
    );
  if (sale.payer !== "buyer")
    entries.push({
      kind: "merchant_paid_fee",
      amountCents: -sale.merchantFeeCents,
      currency,
      sourceId: planId,
      planId,
    });
  return entries;
}

/**
 * The free-look cancellation's reversal: the merchant refunds the buyer the fee, so we return what the confirm's
 * fee_collected took (fee_refunded), and the merchant's share of a fee no longer earned is taken back (a
 * correction). A split plan's merchant part is returned too (a correction: the plan it paid for is cancelled); a
 * merchant-paid plan has no free look (the buyer paid nothing). Plans confirmed before the ledger existed have no fee
 * entry, and get no reversal either.
 */
export async function reverseFeeOnCancellation(
  tx: Tx,
  services: Services,
  actor: Actor,
  planId: string,
): Promise<void> {
  const collected = await findLedgerEntry(tx, "fee_collected", planId);
  if (collected === undefined) return;
  const currency = collected.currency;
  await appendLedgerEntry(tx, services, actor, {
    kind: "fee_refunded",
    amountCents: -collected.amountCents,
    currency,
    sourceId: planId,
    planId,
  });
  const share = (await findLedgerEntry(tx, "merchant_fee_share", planId))?.amountCents ?? 0;
  if (share !== 0)
    await appendLedgerEntry(tx, services, actor, {
      kind: "correction",
      amountCents: -share,
      currency,
      sourceId: `fee_share_reversal:${planId}`,
      planId,
    });
  await returnMerchantPaidFee(tx, services, actor, planId);
}

/**
 * Returns the merchant's own part of a plan's fee (merchant_paid_fee: payer merchant, or a split's rest) once the plan
 * ends before its cover was used: a free-look cancellation or a void (docs/api.md "Who pays"). One correction per plan
 * (source `merchant_fee_reversal:{plan id}`), so a retried cause returns nothing twice; none for a buyer-paid plan.
 */
export async function returnMerchantPaidFee(tx: Tx, services: Services, actor: Actor, planId: string): Promise<void> {
  const merchantPaid = await findLedgerEntry(tx, "merchant_paid_fee", planId);
  if (merchantPaid === undefined || merchantPaid.amountCents === 0) return;
  await appendLedgerEntry(tx, services, actor, {
    kind: "correction",
    amountCents: -merchantPaid.amountCents,
    currency: merchantPaid.currency,
    sourceId: `merchant_fee_reversal:${planId}`,
    planId,
  });
}
