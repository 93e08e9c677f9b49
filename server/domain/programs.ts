import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
export type { EditableProgram };
import { SUPPORTED_CURRENCIES, type Currency, type CurrencyLimit, type CurrencyLimits } from "../vocabulary/money.ts";
import { PAYERS, type Payer } from "../vocabulary/plans.ts";
import { claimRulesSchema, type ClaimRules } from "./claim-rules.ts";
import { z } from "zod";
import { appendMerchantAudit, type MerchantAuditSource } from "./merchant-audit.ts";
import {
  findActiveProgram,
  findFirstActiveProgram,
  findOwnedProgram,
  listProgramsPage,
  insertProgram,
  updateClaimRules,
  updateProgramTerms,
  type EditableProgram,
  type ListedProgram,
  type ProgramRecord,
  type ProgramTerms,
} from "../store/programs.ts";

export type Program = ProgramRecord;

/**
 * About 1.00 US dollar in each currency's minor units, rounded to a plain figure: what a currency's defaults are
 * multiples of, so each default means about the same sum in every currency.
 */
const ABOUT_ONE_US_DOLLAR: Record<Currency, number> = {
  USD: 100,
  CAD: 100,
  EUR: 100,
  GBP: 100,
  AUD: 100,
  NZD: 100,
  JPY: 150,
  KWD: 300,
  BHD: 400,
  JOD: 700,
  OMR: 400,
};

/** A value for each currency, made from about 1.00 US dollar in its minor units. */
function fromOneUsDollar<T>(make: (oneUsDollar: number) => T): Record<Currency, T> {
  return Object.fromEntries(
    SUPPORTED_CURRENCIES.map((currency) => [currency, make(ABOUT_ONE_US_DOLLAR[currency])]),
  ) as Record<Currency, T>;
}

/**
 * The limits a currency starts with in a new program, in its minor units: about 1.00 US dollar at least and 5,000 US
 * dollars covered (docs/api.md "Programs").
 */
export const DEFAULT_CURRENCY_LIMITS: Record<Currency, CurrencyLimit> = fromOneUsDollar((oneUsDollar) => ({
  minFeeCents: oneUsDollar,
  maxCoveredCents: 5_000 * oneUsDollar,
}));

/**
 * The amount each currency offers when a merchant turns approval without review on, in its minor units: about 50 US
 * dollars ($50.00, ¥7,500, KWD 15.000), the claim rules' maxAmountCentsByCurrency.
 */
export const DEFAULT_AUTO_APPROVE_MAX_CENTS: Record<Currency, number> = fromOneUsDollar(
  (oneUsDollar) => 50 * oneUsDollar,
);

/** The terms every new merchant starts with, in each mode: 3 % of the covered amount, at least about 1.00 USD. */
export const DEFAULT_PROGRAM: ProgramTerms = {
  name: "Default protection",
  rateBps: 300,
  merchantShareBps: 2_000,
  currencies: [...SUPPORTED_CURRENCIES],
  currencyLimits: DEFAULT_CURRENCY_LIMITS,
  productCategories: [],
  payer: "buyer",
  buyerShareBps: null,
};

export async function loadActiveProgram(tx: Tx, actor: Actor, programId: string): Promise<Program> {
  const program = await findActiveProgram(tx, actor, programId);
  if (!program) throw notFound("protection program", programId, "programId");
  return program;
}

export async function createProgram(
  tx: Tx,
  services: Services,
  actor: Actor,
  terms = DEFAULT_PROGRAM,
): Promise<string> {
  const now = services.clock();
  const id = newId("prog", now, services.random);
  // Terms may carry limits for more currencies than the program offers (DEFAULT_CURRENCY_LIMITS): it keeps its own.
  const ownLimits = Object.fromEntries(terms.currencies.map((currency) => [currency, terms.currencyLimits[currency]]));
  const currencyLimits = agreeingLimits(terms.currencies, ownLimits);
  await insertProgram(tx, actor, { id, terms: { ...terms, currencyLimits }, createdAt: now });
  return id;
}

/**
 * Sets the claim rules (server/domain/claim-rules.ts) of the actor's active programs, or of the one named: what claims
 * filed from now on are decided by. Rules that do not parse change nothing.
 */
export async function setClaimRules(
  tx: Tx,
  _services: Services,
  actor: Actor,
  rules: unknown,
  programId?: string,
): Promise<ClaimRules> {
  const parsed = parseClaimRules(rules);
  if ((await updateClaimRules(tx, actor, JSON.stringify(parsed), programId)) === 0)
    throw notFound("protection program", programId ?? "(active)", "programId");
  return parsed;
}

/** Claim rules as given (server/domain/claim-rules.ts), or a DomainError naming the first problem and where it is. */
function parseClaimRules(rules: unknown): ClaimRules {
  const parsed = claimRulesSchema.safeParse(rules);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DomainError(
    "invalid",
    "parameter_invalid",
    `Claim rules: ${issue.message}${issue.path.length ? ` (at ${issue.path.join(".")})` : ""}.`,
    ["claimRules", ...issue.path].join("."),
  );
}

/** The program terms the dashboard shows and edits, of the mode's first active program. */
export async function programTermsOf(db: Tx, actor: Actor): Promise<EditableProgram> {
  const program = await findFirstActiveProgram(db, actor);
  if (!program) throw notFound("protection program", "(active)", "programId");
  return program;
}

/** A program's rate as typed, in percent (stored as rate_bps): an offer experiment's variants are typed the same. */
export const ratePercentSchema = z.coerce
  .number("Enter the rate as a percentage, such as 3 or 2.5.")
  .min(0.01, "At least 0.01 %.")
  .max(50, "At most 50 %.")
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, "At most two decimals.");

const programUpdateSchema = z.strictObject({
  ratePercent: ratePercentSchema,
  currencies: z.array(z.enum(SUPPORTED_CURRENCIES)).min(1, "Choose at least one currency."),
  // Amounts arrive as integers in each currency's minor units: the dashboard reads what the merchant typed ("¥150",
  // "KWD 0.300") and says what is wrong there.
  currencyLimits: z.partialRecord(
    z.enum(SUPPORTED_CURRENCIES, "Limits are for the supported currencies only."),
    z.strictObject({
      minFeeCents: z
        .number("Enter the minimum fee.")
        .int("The minimum fee is a whole number of the currency's minor units.")
        .min(0, "The minimum fee cannot be negative.")
        .max(1_000_000, "The minimum fee is too large."),
      maxCoveredCents: z
        .number("Enter the maximum covered amount.")
        .int("The maximum covered amount is a whole number of the currency's minor units.")
        .min(100, "The maximum covered amount is too small.")
        .max(100_000_000, "The maximum covered amount is too large."),
    }),
    "Enter the minimum fee and the maximum covered amount of each currency.",
  ),
  productCategories: z
    .string()
    .max(1_000)
    .transform((text) => [
      ...new Set(
        text
          .split(/[\n,]+/)
          .map((value) => value.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.string().max(64, "Categories are at most 64 characters.")).max(50, "At most 50 categories.")),
  /** Claim rules as data (server/domain/claim-rules.ts's schema checks them below). */
  claimRules: z.unknown(),
  settlementPeriod: z.enum(["weekly", "monthly"], "Choose weekly or monthly."),
  /** Absent: the payer (and a split's share) stays as it is. */
  payer: z.enum(PAYERS, "Choose who pays for protection: the buyer, you, or split.").optional(),
  /** Split only: the buyer's share of the fee, as ratePercent is typed (stored as buyer_share_bps, 1–9,999). */
  buyerSharePercent: z.unknown().optional(),
});

/**
 * A program's limits, once each of its currencies has its own and no other currency has any; else a DomainError on
 * the currency's limits (currencyLimits.KWD).
 */
function agreeingLimits(currencies: readonly Currency[], limits: CurrencyLimits): CurrencyLimits {
  const missing = currencies.find((currency) => !limits[currency]);
  if (missing)
    throw new DomainError(
      "invalid",
      "parameter_invalid",
      `Enter the minimum fee and the maximum covered amount in ${missing}, the program offers protection in it.`,
      `currencyLimits.${missing}`,
    );
  const extra = Object.keys(limits).find((currency) => !currencies.includes(currency as Currency));
  if (extra)
    throw new DomainError(
      "invalid",
      "parameter_invalid",
      `The program does not offer protection in ${extra}: choose ${extra} among its currencies or leave out its limits.`,
      `currencyLimits.${extra}`,
    );
  // Stored in the order of the program's currencies, whatever order they were given in.
  return Object.fromEntries(currencies.map((currency) => [currency, limits[currency]]));
}

/**
 * Approval without review names amounts only in the program's currencies (a currency it leaves out has its claims
 * decided by a person); else a DomainError on the currency's amount.
 */
function assertAutoApprovalCurrencies(currencies: readonly Currency[], claimRules: ClaimRules): void {
  const amounts = claimRules.autoApprove?.maxAmountCentsByCurrency ?? {};
  const extra = Object.keys(amounts).find((currency) => !currencies.includes(currency as Currency));
  if (extra)
    throw new DomainError(
      "invalid",
      "parameter_invalid",
      `The program does not offer protection in ${extra}: choose ${extra} among its currencies or leave out its amount for approval without review.`,
      `claimRules.autoApprove.maxAmountCentsByCurrency.${extra}`,
    );
}

/** A split's buyer share in basis points, or the problem with what was typed. */
const buyerShareSchema = z.coerce
  .number("Enter the buyer's share as a percentage, such as 50.")
  .min(0.01, "The buyer's share is at least 0.01 %; for none, choose that you pay.")
  .max(99.99, "The buyer's share is at most 99.99 %; for all of it, choose that the buyer pays.")
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, "At most two decimals.")
  .transform((value) => Math.round(value * 100));

/** The payer and, for split, the buyer's share (bps); a split without a valid share is a DomainError on its field. */
function parsePayer(payer: Payer, buyerSharePercent: unknown): { payer: Payer; buyerShareBps: number | null } {
  if (payer !== "split") return { payer, buyerShareBps: null };
  if (buyerSharePercent === undefined || buyerSharePercent === null || buyerSharePercent === "")
    throw new DomainError(
      "invalid",
      "parameter_invalid",
      "Enter the share of the fee the buyer pays, such as 50 %.",
      "buyerSharePercent",
    );
  const share = buyerShareSchema.safeParse(buyerSharePercent);
  if (!share.success)
    throw new DomainError("invalid", "parameter_invalid", share.error.issues[0].message, "buyerSharePercent");
  return { payer, buyerShareBps: share.data };
}

/**
 * Replaces the mode's program terms: they price offers quoted from now on (a quote keeps the fee it was given, a plan
 * its terms); claim rules decide claims filed from now on; the period shapes statements not yet closed; who pays
 * splits the fees of offers quoted from now on (a quote keeps its parts). The merchant's share of fees is not the
 * merchant's to change. One audit entry names what changed.
 */
export async function updateProgram(
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  input: unknown,
): Promise<EditableProgram> {
  const parsed = programUpdateSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // A currency's limits are named down to the amount (currencyLimits.JPY.minFeeCents); other fields by their name.
    const field = issue.path[0] === "currencyLimits" ? issue.path.join(".") : String(issue.path[0] ?? "");
    throw new DomainError("invalid", "parameter_invalid", issue.message, field);
  }
  const currencyLimits = agreeingLimits(parsed.data.currencies, parsed.data.currencyLimits);
  const claimRules = parseClaimRules(parsed.data.claimRules ?? {});
  assertAutoApprovalCurrencies(parsed.data.currencies, claimRules);
  const actor = { merchantId: source.merchantId, mode: source.mode };
  const program = await programTermsOf(tx, actor);
  const payer =
    parsed.data.payer === undefined
      ? { payer: program.payer, buyerShareBps: program.buyerShareBps }
      : parsePayer(parsed.data.payer, parsed.data.buyerSharePercent);
  const terms = {
    rateBps: Math.round(parsed.data.ratePercent * 100),
    currencies: parsed.data.currencies,
    currencyLimits,
    productCategories: parsed.data.productCategories,
    claimRules: JSON.stringify(claimRules),
    settlementPeriod: parsed.data.settlementPeriod,
    ...payer,
  };
  await updateProgramTerms(tx, program.id, terms);
  await appendMerchantAudit(tx, services, source, {
    action: "program.updated",
    subject: program.id,
    detail: {
      rateBps: terms.rateBps,
      currencyLimits: JSON.stringify(terms.currencyLimits),
      settlementPeriod: terms.settlementPeriod,
      payer: terms.payer,
      buyerShareBps: terms.buyerShareBps,
    },
  });
  return { id: program.id, ...terms };
}

/**
 * A program as GET /programs answers it (docs/api.md "Programs"): the id quotes name as `protection_program_id` and the
 * terms that price them. Inactive programs are listed too (`active: false`): quotes may no longer name them.
 */
export interface ProgramView {
  id: string;
  object: "protection_program";
  name: string;
  active: boolean;
  rateBps: number;
  /** @deprecated The limits in the program's first currency (docs/api.md "Programs"): use currencyLimits. */
  minFeeCents: number;
  /** @deprecated The limits in the program's first currency: use currencyLimits. */
  maxCoveredCents: number;
  merchantShareBps: number;
  currencies: readonly string[];
  /** Each currency's minimum fee and largest covered amount, in its minor units. */
  currencyLimits: CurrencyLimits;
  /** Empty: any category. */
  productCategories: readonly string[];
  settlementPeriod: "weekly" | "monthly";
  payer: Payer;
  /** Split only: the buyer's share of the fee in hundredths of a percent; null for buyer and merchant. */
  buyerShareBps: number | null;
  livemode: boolean;
  createdAt: string;
}

function toProgramView(program: ListedProgram): ProgramView {
  const first = program.currencyLimits[program.currencies[0]];
  return {
    id: program.id,
    object: "protection_program",
    name: program.name,
    active: program.active,
    rateBps: program.rateBps,
    minFeeCents: first?.minFeeCents ?? 0,
    maxCoveredCents: first?.maxCoveredCents ?? 0,
    merchantShareBps: program.merchantShareBps,
    currencies: program.currencies,
    currencyLimits: program.currencyLimits,
    productCategories: program.productCategories,
    settlementPeriod: program.settlementPeriod,
    payer: program.payer,
    buyerShareBps: program.buyerShareBps,
    livemode: program.mode === "live",
    createdAt: iso(program.createdAt),
  };
}

/** The actor's programs in its mode, newest first. */
export async function listPrograms(db: Tx, actor: Actor, query: PageQuery): Promise<Page<ProgramView>> {
  const page = await listProgramsPage(db, actor, query);
  return { ...page, data: page.data.map(toProgramView) };
}

/** One of the actor's programs in its mode; another merchant's (or mode's) is 404, as an unknown id. */
export async function getProgram(db: Tx, actor: Actor, programId: string): Promise<ProgramView> {
  const program = await findOwnedProgram(db, actor, programId);
  if (!program) throw notFound("protection program", programId);
  return toProgramView(program);
}
