// Protection programs (protection_programs): the terms that price a merchant's offers. Currencies and product
// categories are stored as JSON arrays.
import type { Actor } from "../vocabulary/actors.ts";
import type { Currency, CurrencyLimit, CurrencyLimits } from "../vocabulary/money.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import type { Payer } from "../vocabulary/plans.ts";
import { findOwnedRow, type Queryable } from "./database.ts";
import { listPage } from "./pagination.ts";
import { boundedCache } from "@purchase-protection/contract";

export interface ProgramTerms {
  name: string;
  rateBps: number;
  merchantShareBps: number;
  currencies: Currency[];
  /** The minimum fee and largest covered amount in each of `currencies`, in its own minor units. */
  currencyLimits: CurrencyLimits;
  /** Empty: any category. */
  productCategories: string[];
  /** Who pays for protection; buyerShareBps is the buyer's share of the fee for split, null otherwise. */
  payer: Payer;
  buyerShareBps: number | null;
}

/** An active program as quotes read it; its lists and limits are shared between requests (parsedOnce), so read-only. */
export interface ProgramRecord extends Omit<
  ProgramTerms,
  "name" | "currencies" | "currencyLimits" | "productCategories"
> {
  id: string;
  currencies: readonly Currency[];
  currencyLimits: { readonly [C in Currency]?: Readonly<CurrencyLimit> };
  productCategories: readonly string[];
}

interface ProgramRow {
  id: string;
  rate_bps: number;
  merchant_share_bps: number;
  currencies: string;
  currency_limits: string;
  product_categories: string;
  payer: Payer;
  buyer_share_bps: number | null;
}

export async function findActiveProgram(
  tx: Queryable,
  owner: Actor,
  programId: string,
): Promise<ProgramRecord | undefined> {
  const row = await findOwnedRow<ProgramRow>(
    tx,
    owner,
    "protection_programs",
    "id, rate_bps, merchant_share_bps, currencies, currency_limits, product_categories, payer, buyer_share_bps",
    programId,
    " AND active = TRUE",
  );
  if (!row) return undefined;
  return {
    id: row.id,
    rateBps: row.rate_bps,
    merchantShareBps: row.merchant_share_bps,
    currencies: parsedOnce(row.currencies),
    currencyLimits: parsedOnce(row.currency_limits),
    productCategories: parsedOnce(row.product_categories),
    payer: row.payer,
    buyerShareBps: row.buyer_share_bps,
  };
}

// Every quote reads its program: its JSON columns are parsed once per distinct text and the frozen values shared
// (parsing them was a third of findActiveProgram's time in bench:api's profile).
const parsedColumns = boundedCache<unknown>(1_000);
const parsedOnce = <T>(text: string): T => parsedColumns(text, () => deepFrozen(JSON.parse(text))) as T;

function deepFrozen<T>(value: T): T {
  if (typeof value === "object" && value !== null) for (const each of Object.values(value)) deepFrozen(each);
  return Object.freeze(value);
}

export async function insertProgram(
  tx: Queryable,
  owner: Actor,
  program: { id: string; terms: ProgramTerms; createdAt: number },
): Promise<void> {
  const { terms } = program;
  await tx.run(
    `INSERT INTO protection_programs (id, merchant_id, mode, name, rate_bps, merchant_share_bps, currencies,
       currency_limits, product_categories, payer, buyer_share_bps, active, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, TRUE, ?)`,
    [
      program.id,
      owner.merchantId,
      owner.mode,
      terms.name,
      terms.rateBps,
      terms.merchantShareBps,
      JSON.stringify(terms.currencies),
      JSON.stringify(terms.currencyLimits),
      JSON.stringify(terms.productCategories),
      terms.payer,
      terms.buyerShareBps,
      program.createdAt,
    ],
  );
}

/**
 * The merchant's share of the fee under the program that priced the quote (0 when the program is gone), as a column
 * of a SELECT from `quotes`.
 */
export const MERCHANT_SHARE_OF_QUOTE =
  "COALESCE((SELECT pp.merchant_share_bps FROM protection_programs pp WHERE pp.id = quotes.program_id), 0)";

/** MERCHANT_SHARE_OF_QUOTE of one quote (0 when there is no such quote). */
export async function merchantShareBpsOfQuote(tx: Queryable, quoteId: string): Promise<number> {
  const quote = await tx.get<{ merchant_share_bps: number }>(
    `SELECT ${MERCHANT_SHARE_OF_QUOTE} AS merchant_share_bps FROM quotes WHERE id = ?`,
    [quoteId],
  );
  return quote?.merchant_share_bps ?? 0;
}

/** The id of the owner's first program (by id, so by creation time), active or not. */
export async function firstProgramId(tx: Queryable, owner: Actor): Promise<string | undefined> {
  return (
    await tx.get<{ id: string }>(
      "SELECT id FROM protection_programs WHERE merchant_id = ? AND mode = ? ORDER BY id LIMIT 1",
      [owner.merchantId, owner.mode],
    )
  )?.id;
}

export async function programBelongsTo(tx: Queryable, programId: string, merchantId: string): Promise<boolean> {
  return (
    (await tx.get("SELECT id FROM protection_programs WHERE id = ? AND merchant_id = ?", [programId, merchantId])) !==
    undefined
  );
}

/**
 * Sets the claim rules (JSON) of the owner's active programs, or of the one named; how many programs took them.
 */
export async function updateClaimRules(
  tx: Queryable,
  owner: Actor,
  claimRulesJson: string,
  programId?: string,
): Promise<number> {
  const rows = await tx.all(
    `UPDATE protection_programs SET claim_rules = ? WHERE merchant_id = ? AND mode = ? AND active = TRUE${programId === undefined ? "" : " AND id = ?"} RETURNING id`,
    [claimRulesJson, owner.merchantId, owner.mode, ...(programId === undefined ? [] : [programId])],
  );
  return rows.length;
}

/** The terms the dashboard edits, of one program. */
export interface EditableProgram {
  id: string;
  rateBps: number;
  currencies: Currency[];
  currencyLimits: CurrencyLimits;
  productCategories: string[];
  claimRules: string;
  settlementPeriod: "weekly" | "monthly";
  payer: Payer;
  buyerShareBps: number | null;
}

/** The owner's first active program in the mode (the one quotes use unless another is named). */
export async function findFirstActiveProgram(tx: Queryable, owner: Actor): Promise<EditableProgram | undefined> {
  const row = await tx.get<ProgramRow & { claim_rules: string; settlement_period: "weekly" | "monthly" }>(
    `SELECT id, rate_bps, merchant_share_bps, currencies, currency_limits, product_categories,
            claim_rules, settlement_period, payer, buyer_share_bps
     FROM protection_programs WHERE merchant_id = ? AND mode = ? AND active = TRUE ORDER BY id LIMIT 1`,
    [owner.merchantId, owner.mode],
  );
  return (
    row && {
      id: row.id,
      rateBps: row.rate_bps,
      currencies: JSON.parse(row.currencies),
      currencyLimits: JSON.parse(row.currency_limits),
      productCategories: JSON.parse(row.product_categories),
      claimRules: row.claim_rules,
      settlementPeriod: row.settlement_period,
      payer: row.payer,
      buyerShareBps: row.buyer_share_bps,
    }
  );
}

/** Replaces a program's editable terms (its merchant share stays: it is ours to set). */
export async function updateProgramTerms(
  tx: Queryable,
  programId: string,
  terms: Omit<EditableProgram, "id">,
): Promise<void> {
  await tx.run(
    `UPDATE protection_programs SET rate_bps = ?, currencies = ?, currency_limits = ?, product_categories = ?,
       claim_rules = ?, settlement_period = ?, payer = ?, buyer_share_bps = ? WHERE id = ?`,
    [
      terms.rateBps,
      JSON.stringify(terms.currencies),
      JSON.stringify(terms.currencyLimits),
      JSON.stringify(terms.productCategories),
      terms.claimRules,
      terms.settlementPeriod,
      terms.payer,
      terms.buyerShareBps,
      programId,
    ],
  );
}

/** A program as the programs API (GET /programs) reads it: its terms, whether quotes may use it, when it began. */
export interface ListedProgram extends ProgramRecord {
  name: string;
  settlementPeriod: "weekly" | "monthly";
  active: boolean;
  mode: Actor["mode"];
  createdAt: number;
}

const LISTED_PROGRAM_COLUMNS =
  "id, mode, name, rate_bps, merchant_share_bps, currencies, currency_limits, product_categories, settlement_period, payer, buyer_share_bps, active, created_at";

type ListedProgramRow = ProgramRow & {
  mode: Actor["mode"];
  name: string;
  settlement_period: "weekly" | "monthly";
  active: boolean | number;
  created_at: number;
};

function toListedProgram(row: ListedProgramRow): ListedProgram {
  return {
    id: row.id,
    mode: row.mode,
    name: row.name,
    rateBps: row.rate_bps,
    merchantShareBps: row.merchant_share_bps,
    currencies: JSON.parse(row.currencies),
    currencyLimits: JSON.parse(row.currency_limits),
    productCategories: JSON.parse(row.product_categories),
    settlementPeriod: row.settlement_period,
    payer: row.payer,
    buyerShareBps: row.buyer_share_bps,
    active: Boolean(row.active), // SQLite answers 0/1

    createdAt: Number(row.created_at),
  };
}

/** The owner's programs in its mode, active or not, newest first. */
export function listProgramsPage(tx: Queryable, owner: Actor, query: PageQuery): Promise<Page<ListedProgram>> {
  return listPage(tx, owner, "protection_programs", LISTED_PROGRAM_COLUMNS, [], query, toListedProgram);
}

/** One of the owner's programs in its mode, active or not; undefined for another merchant's or mode's. */
export async function findOwnedProgram(
  tx: Queryable,
  owner: Actor,
  programId: string,
): Promise<ListedProgram | undefined> {
  const row = await findOwnedRow<ListedProgramRow>(tx, owner, "protection_programs", LISTED_PROGRAM_COLUMNS, programId);
  return row && toListedProgram(row);
}

/** An offer experiment's roll-out (server/domain/experiments.ts): the program's rate and wording. */
export async function updateProgramOffer(
  tx: Queryable,
  programId: string,
  offer: { rateBps: number; offerWording: string },
): Promise<void> {
  await tx.run("UPDATE protection_programs SET rate_bps = ?, offer_wording = ? WHERE id = ?", [
    offer.rateBps,
    offer.offerWording,
    programId,
  ]);
}
