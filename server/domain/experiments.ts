// Offer experiments (docs/api.md "Offer experiments"): a merchant tests 2–3 variants of its program's offer — the rate
// and the wording from the contract's approved catalogue — on its buyers. Off until the merchant starts one; at most one
// runs per program. Each cart or order gets one variant for good: a hash of the experiment id and the cart's identity
// picks it, evenly. Nothing here can pre-tick the offer: a variant has no such field, and the surfaces render every
// wording unticked. Stopping ends it; rolling a variant out gives the program that variant's rate and wording and ends
// it, in one transaction with its audit entry.
import { createHash } from "node:crypto";
import { z } from "zod";
import {
  DEFAULT_OFFER_WORDING,
  isOfferWording,
  OFFER_WORDING_KEYS,
  type OfferWording,
} from "@purchase-protection/contract";
import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { appendMerchantAudit, type MerchantAuditSource } from "./merchant-audit.ts";
import { loadActiveProgram, programTermsOf, ratePercentSchema, type Program } from "./programs.ts";
import { updateProgramOffer } from "../store/programs.ts";
import { findQuoteCartIdentity } from "../store/quotes.ts";
import {
  countExperimentOffers,
  findProgramOffer,
  insertExperiment,
  listExperiments,
  listExperimentsDuring,
  lockOwnedExperiment,
  lockProgramRow,
  markExperimentEnded,
  type ExperimentRecord,
  type ExperimentState,
  type VariantCounts,
} from "../store/experiments.ts";

/** A variant's key: its place in the experiment. */
export const VARIANT_KEYS = ["A", "B", "C"] as const;

/**
 * One variant. The control is the program as it is when each offer is quoted (rateBps and offerWording null); any
 * other variant sets both. The minimum fee of each currency and the maximum covered amount stay the program's.
 */
export interface ExperimentVariant {
  key: (typeof VARIANT_KEYS)[number];
  control: boolean;
  rateBps: number | null;
  offerWording: OfferWording | null;
}

export type Experiment = ExperimentRecord<ExperimentVariant>;

/**
 * A variant's rate lies within half and one and a half times the program's rate when the experiment starts (rounded
 * inwards), and within the program form's own bounds (0.01–50 %): a test of price points near the merchant's own, never
 * a different product.
 */
export function variantRateBounds(programRateBps: number): { minBps: number; maxBps: number } {
  return {
    minBps: Math.max(1, Math.ceil(programRateBps / 2)),
    maxBps: Math.min(5_000, Math.floor((programRateBps * 3) / 2)),
  };
}

const variantInput = z.discriminatedUnion("control", [
  z.strictObject({ control: z.literal(true) }),
  z.strictObject({
    control: z.literal(false),
    ratePercent: ratePercentSchema,
    offerWording: z.enum(OFFER_WORDING_KEYS, "Choose one of the approved wordings."),
  }),
]);

const experimentInput = z.strictObject({
  variants: z
    .array(variantInput, "Describe the variants to test.")
    .min(2, "Test at least two variants.")
    .max(3, "Test at most three variants."),
});

function invalid(message: string, field: string): DomainError {
  return new DomainError("invalid", "parameter_invalid", message, field);
}

/** The variants as asked, checked against the program; a DomainError on the first variant field at fault. */
function parseVariants(input: unknown, program: WordedProgram): ExperimentVariant[] {
  const parsed = experimentInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(issue.message, issue.path.length ? issue.path.join(".") : "variants");
  }
  const bounds = variantRateBounds(program.rateBps);
  const seen: string[] = [];
  return parsed.data.variants.map((asked, i): ExperimentVariant => {
    const key = VARIANT_KEYS[i];
    if (asked.control) {
      if (seen.includes("control"))
        throw invalid("Only one variant can be the program as it is.", `variants.${i}.control`);
      seen.push("control");
      return { key, control: true, rateBps: null, offerWording: null };
    }
    const rateBps = Math.round(asked.ratePercent * 100);
    if (rateBps < bounds.minBps || rateBps > bounds.maxBps)
      throw invalid(
        `Choose a rate from ${bounds.minBps / 100} % to ${bounds.maxBps / 100} % (half to one and a half times your rate of ${program.rateBps / 100} %).`,
        `variants.${i}.ratePercent`,
      );
    const terms = `${rateBps}:${asked.offerWording}`;
    if (terms === `${program.rateBps}:${program.offerWording}` || seen.includes(terms))
      throw invalid(
        "This variant offers the same rate and wording as another one (or as your program): change one of them.",
        `variants.${i}.ratePercent`,
      );
    seen.push(terms);
    return { key, control: false, rateBps, offerWording: asked.offerWording };
  });
}

/** A program with the wording of its offer. */
type WordedProgram = Program & { offerWording: string };

/** What a program's offer is priced and worded by, for one cart: the program's own terms, or its variant's. */
export interface ProgramOffer {
  program: Program;
  offerWording: OfferWording;
  experiment: { id: string; variant: ExperimentVariant["key"]; cartIdentity: string } | null;
}

/**
 * The variant a cart gets: the first 32 bits of SHA-256(experiment id, cart identity) modulo the number of variants —
 * the same cart always gets the same one, and carts split evenly between them.
 */
export function assignVariant<V>(experimentId: string, cartIdentity: string, variants: readonly V[]): V {
  const digest = createHash("sha256").update(`${experimentId}\n${cartIdentity}`).digest();
  return variants[digest.readUInt32BE(0) % variants.length];
}

/**
 * The offer a quote of `program` makes to the cart `cartIdentity` (the cart id given, else the order id: docs/api.md
 * "Offer experiments"): under a running experiment, the rate and wording of the cart's variant.
 */
export async function offerFor(tx: Tx, program: Program, cartIdentity: string): Promise<ProgramOffer> {
  const { offerWording, experiment } = await findProgramOffer<ExperimentVariant>(tx, program.id);
  const wording: OfferWording = isOfferWording(offerWording) ? offerWording : DEFAULT_OFFER_WORDING;
  if (!experiment) return { program, offerWording: wording, experiment: null };
  const variant = assignVariant(experiment.id, cartIdentity, experiment.variants);
  return {
    program: { ...program, rateBps: variant.rateBps ?? program.rateBps },
    offerWording: variant.offerWording ?? wording,
    experiment: { id: experiment.id, variant: variant.key, cartIdentity },
  };
}

/**
 * The cart identity the variant of the owner's quote `quoteId` followed, for a later quote of the same order (the
 * Shopify orders path, pricing the offer its buyer accepted at checkout); undefined without one.
 */
export async function acceptedCartIdentity(
  tx: Tx,
  actor: Actor,
  quoteId: string | undefined,
): Promise<string | undefined> {
  return (quoteId && (await findQuoteCartIdentity(tx, actor, quoteId))) || undefined;
}

/** The program the dashboard edits, with its wording. */
async function dashboardProgram(tx: Tx, actor: Actor): Promise<WordedProgram> {
  const { id } = await programTermsOf(tx, actor);
  const program = await loadActiveProgram(tx, actor, id);
  return { ...program, offerWording: await programOfferWording(tx, id) };
}

/** The wording of the program's own offer (outside any experiment). */
export async function programOfferWording(tx: Tx, programId: string): Promise<OfferWording> {
  const { offerWording } = await findProgramOffer(tx, programId);
  return isOfferWording(offerWording) ? offerWording : DEFAULT_OFFER_WORDING;
}

/** Starts an experiment on the mode's program (the dashboard's): refused while another runs, or for a merchant-paid one. */
export async function startExperiment(
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  input: unknown,
): Promise<Experiment> {
  const actor = { merchantId: source.merchantId, mode: source.mode };
  const program = await dashboardProgram(tx, actor);
  await lockProgramRow(tx, program.id);
  if (program.payer === "merchant")
    throw new DomainError(
      "conflict",
      "experiment_not_offered",
      "Your program is paid by you: buyers are offered nothing to test.",
      "variants",
    );
  if ((await findProgramOffer(tx, program.id)).experiment)
    throw new DomainError(
      "conflict",
      "experiment_running",
      "An experiment is running on your program: stop it or roll a variant out first.",
      "variants",
    );
  const variants = parseVariants(input, program);
  const now = services.clock();
  const experiment: Experiment = {
    id: newId("exp", now, services.random),
    programId: program.id,
    variants,
    state: "running",
    rolledOutVariant: null,
    startedAt: now,
    stoppedAt: null,
  };
  await insertExperiment(tx, actor, experiment);
  await appendMerchantAudit(tx, services, source, {
    action: "offer_experiment.started",
    subject: experiment.id,
    detail: {
      programId: program.id,
      variants: variants
        .map((v) => `${v.key}:${v.control ? "control" : `${v.rateBps}bps ${v.offerWording}`}`)
        .join(", "),
    },
  });
  return experiment;
}

/** The actor's running experiment, locked; refused when it is unknown or no longer running. */
async function lockRunning(tx: Tx, actor: Actor, experimentId: string): Promise<Experiment> {
  const experiment = await lockOwnedExperiment<ExperimentVariant>(tx, actor, experimentId);
  if (!experiment) throw notFound("offer experiment", experimentId, "experimentId");
  if (experiment.state !== "running")
    throw new DomainError("conflict", "experiment_ended", "This experiment has ended already.", "experimentId");
  return experiment;
}

/** Stops a running experiment: offers from now on use the program's own terms. */
export async function stopExperiment(
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  experimentId: string,
): Promise<void> {
  const experiment = await lockRunning(tx, source, experimentId);
  await markExperimentEnded(tx, experiment.id, { state: "stopped" }, services.clock());
  await appendMerchantAudit(tx, services, source, {
    action: "offer_experiment.stopped",
    subject: experiment.id,
  });
}

/**
 * Rolls a variant out: the program takes its rate and wording (the control's: unchanged) and the experiment ends, in
 * one transaction with the audit entry.
 */
export async function rollOutVariant(
  tx: Tx,
  services: Services,
  source: MerchantAuditSource,
  experimentId: string,
  variantKey: string,
): Promise<void> {
  const experiment = await lockRunning(tx, source, experimentId);
  const variant = experiment.variants.find((each) => each.key === variantKey);
  if (!variant) throw invalid(`This experiment has no variant ${variantKey}.`, "variant");
  if (!variant.control)
    await updateProgramOffer(tx, experiment.programId, {
      rateBps: variant.rateBps!,
      offerWording: variant.offerWording!,
    });
  await markExperimentEnded(tx, experiment.id, { state: "rolled_out", variant: variant.key }, services.clock());
  await appendMerchantAudit(tx, services, source, {
    action: "offer_experiment.rolled_out",
    subject: experiment.id,
    detail: { variant: variant.key, rateBps: variant.rateBps, offerWording: variant.offerWording },
  });
}

/** Offers a variant must have been shown before the analytics call a difference (docs/api.md "Offer experiments"). */
export const MIN_OFFERS_TO_CALL = 100;
/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** The Wilson score interval of `successes` in `trials` at 95 %; null without trials. */
export function wilsonInterval(successes: number, trials: number): { low: number; high: number } | null {
  if (trials === 0) return null;
  const p = successes / trials;
  const z2 = Z95 * Z95;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (Z95 / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface VariantResult extends ExperimentVariant {
  offersShown: number;
  confirmed: number;
  /** confirmed / offersShown; null without offers. */
  attachRate: number | null;
  /** The attach rate's 95 % Wilson score interval; null without offers. */
  attachRateInterval: { low: number; high: number } | null;
  /** Per currency: the fees of the variant's plans still active, and that over its offers (minor units, unrounded). */
  revenue: { currency: string; offersShown: number; feeCents: number; revenuePerOfferCents: number }[];
}

export interface ExperimentResult {
  id: string;
  programId: string;
  state: ExperimentState;
  rolledOutVariant: string | null;
  startedAt: string;
  stoppedAt: string | null;
  /**
   * too_small: a variant has fewer than MIN_OFFERS_TO_CALL offers in the period; no_clear_leader: every interval
   * overlaps another's; leader: `leader`'s attach rate interval lies wholly above every other's.
   */
  reading: "too_small" | "no_clear_leader" | "leader";
  leader: string | null;
  variants: VariantResult[];
}

/** An experiment's figures from its offers' counts per variant and currency (the reading included). */
export function experimentResultOf(experiment: Experiment, counts: readonly VariantCounts[]): ExperimentResult {
  const variants = experiment.variants.map((variant): VariantResult => {
    const rows = counts
      .filter((row) => row.variant === variant.key)
      .sort((a, b) => a.currency.localeCompare(b.currency));
    const offersShown = rows.reduce((sum, row) => sum + row.shown, 0);
    const confirmed = rows.reduce((sum, row) => sum + row.confirmed, 0);
    return {
      ...variant,
      offersShown,
      confirmed,
      attachRate: offersShown === 0 ? null : confirmed / offersShown,
      attachRateInterval: wilsonInterval(confirmed, offersShown),
      revenue: rows.map((row) => ({
        currency: row.currency,
        offersShown: row.shown,
        feeCents: row.feeCents,
        revenuePerOfferCents: row.feeCents / row.shown,
      })),
    };
  });
  const tooSmall = variants.some((variant) => variant.offersShown < MIN_OFFERS_TO_CALL);
  const leader = tooSmall
    ? undefined
    : variants.find((variant) =>
        variants.every(
          (other) => other === variant || other.attachRateInterval!.high < variant.attachRateInterval!.low,
        ),
      );
  return {
    id: experiment.id,
    programId: experiment.programId,
    state: experiment.state,
    rolledOutVariant: experiment.rolledOutVariant,
    startedAt: iso(experiment.startedAt),
    stoppedAt: experiment.stoppedAt === null ? null : iso(experiment.stoppedAt),
    reading: tooSmall ? "too_small" : leader ? "leader" : "no_clear_leader",
    leader: leader?.key ?? null,
    variants,
  };
}

/** The experiments that ran during [fromMs, toMs), newest first, each variant's figures over its offers quoted then. */
export async function experimentResults(
  db: Tx,
  actor: Actor,
  period: { fromMs: number; toMs: number },
): Promise<ExperimentResult[]> {
  const experiments = await listExperimentsDuring<ExperimentVariant>(db, actor, period);
  return Promise.all(
    experiments.map(async (experiment) =>
      experimentResultOf(experiment, await countExperimentOffers(db, experiment.id, period)),
    ),
  );
}

/** The dashboard's experiments (newest first, the last 20), each with its figures over its whole run. */
export async function dashboardExperiments(db: Tx, actor: Actor, nowMs: number): Promise<ExperimentResult[]> {
  const experiments = await listExperiments<ExperimentVariant>(db, actor, 20);
  return Promise.all(
    experiments.map(async (experiment) =>
      experimentResultOf(
        experiment,
        await countExperimentOffers(db, experiment.id, { fromMs: experiment.startedAt, toMs: nowMs + 1 }),
      ),
    ),
  );
}
