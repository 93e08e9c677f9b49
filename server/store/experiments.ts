// Offer experiments (offer_experiments): variants of a program's price and wording. running_slot holds the program's
// id while the experiment runs (null after), so its unique index keeps one running experiment per program.
import type { Actor } from "../vocabulary/actors.ts";
import { forUpdate, type Queryable } from "./database.ts";

export type ExperimentState = "running" | "stopped" | "rolled_out";

export interface ExperimentRecord<Variant> {
  id: string;
  programId: string;
  variants: Variant[];
  state: ExperimentState;
  rolledOutVariant: string | null;
  startedAt: number;
  stoppedAt: number | null;
}

interface ExperimentRow {
  id: string;
  program_id: string;
  variants: string;
  state: ExperimentState;
  rolled_out_variant: string | null;
  started_at: number | string;
  stopped_at: number | string | null;
}

const COLUMNS = "id, program_id, variants, state, rolled_out_variant, started_at, stopped_at";

function toRecord<Variant>(row: ExperimentRow): ExperimentRecord<Variant> {
  return {
    id: row.id,
    programId: row.program_id,
    variants: JSON.parse(row.variants),
    state: row.state,
    rolledOutVariant: row.rolled_out_variant,
    startedAt: Number(row.started_at),
    stoppedAt: row.stopped_at === null ? null : Number(row.stopped_at),
  };
}

export async function insertExperiment(
  tx: Queryable,
  owner: Actor,
  experiment: { id: string; programId: string; variants: unknown[]; startedAt: number },
): Promise<void> {
  await tx.run(
    `INSERT INTO offer_experiments (id, merchant_id, mode, program_id, variants, state, running_slot, started_at)
     VALUES (?, ?, ?, ?, ?, 'running', ?, ?)`,
    [
      experiment.id,
      owner.merchantId,
      owner.mode,
      experiment.programId,
      JSON.stringify(experiment.variants),
      experiment.programId,
      experiment.startedAt,
    ],
  );
}

/**
 * What prices and words a program's offers besides its terms: its wording and its running experiment, if any, in one
 * read (the quote path's).
 */
export async function findProgramOffer<Variant>(
  tx: Queryable,
  programId: string,
): Promise<{ offerWording: string; experiment: ExperimentRecord<Variant> | undefined }> {
  const row = await tx.get<
    { offer_wording: string } & { [Column in keyof ExperimentRow]: ExperimentRow[Column] | null }
  >(
    `SELECT pp.offer_wording, e.id, e.program_id, e.variants, e.state, e.rolled_out_variant, e.started_at, e.stopped_at
     FROM protection_programs pp LEFT JOIN offer_experiments e ON e.running_slot = pp.id WHERE pp.id = ?`,
    [programId],
  );
  return {
    offerWording: row?.offer_wording ?? "standard",
    experiment: row?.id ? toRecord<Variant>(row as ExperimentRow) : undefined,
  };
}

/** Locks the program's row: experiments of one program start and end one at a time. */
export async function lockProgramRow(tx: Queryable, programId: string): Promise<void> {
  await tx.get(`SELECT id FROM protection_programs WHERE id = ?${forUpdate(tx)}`, [programId]);
}

/** The owner's experiment, row-locked for the rest of the transaction; undefined for another merchant's or mode's. */
export async function lockOwnedExperiment<Variant>(
  tx: Queryable,
  owner: Actor,
  experimentId: string,
): Promise<ExperimentRecord<Variant> | undefined> {
  const row = await tx.get<ExperimentRow>(
    `SELECT ${COLUMNS} FROM offer_experiments WHERE id = ? AND merchant_id = ? AND mode = ?${forUpdate(tx)}`,
    [experimentId, owner.merchantId, owner.mode],
  );
  return row && toRecord<Variant>(row);
}

/** Ends a running experiment: stopped, or rolled out with the variant the program took. */
export async function markExperimentEnded(
  tx: Queryable,
  experimentId: string,
  end: { state: "stopped" } | { state: "rolled_out"; variant: string },
  at: number,
): Promise<void> {
  await tx.run(
    `UPDATE offer_experiments SET state = ?, rolled_out_variant = ?, running_slot = NULL, stopped_at = ?
     WHERE id = ? AND state = 'running'`,
    [end.state, end.state === "rolled_out" ? end.variant : null, at, experimentId],
  );
}

/** The owner's experiments that ran at some time in [fromMs, toMs), newest first. */
export async function listExperimentsDuring<Variant>(
  tx: Queryable,
  owner: Actor,
  period: { fromMs: number; toMs: number },
): Promise<ExperimentRecord<Variant>[]> {
  const rows = await tx.all<ExperimentRow>(
    `SELECT ${COLUMNS} FROM offer_experiments
     WHERE merchant_id = ? AND mode = ? AND started_at < ? AND (stopped_at IS NULL OR stopped_at >= ?)
     ORDER BY started_at DESC, id DESC`,
    [owner.merchantId, owner.mode, period.toMs, period.fromMs],
  );
  return rows.map((row) => toRecord<Variant>(row));
}

/** The owner's experiments, newest first (the dashboard's list: a merchant runs a handful). */
export async function listExperiments<Variant>(
  tx: Queryable,
  owner: Actor,
  limit: number,
): Promise<ExperimentRecord<Variant>[]> {
  const rows = await tx.all<ExperimentRow>(
    `SELECT ${COLUMNS} FROM offer_experiments WHERE merchant_id = ? AND mode = ? ORDER BY started_at DESC, id DESC LIMIT ?`,
    [owner.merchantId, owner.mode, limit],
  );
  return rows.map((row) => toRecord<Variant>(row));
}

/** Per variant and currency, an experiment's offers quoted in [fromMs, toMs): shown, confirmed, fees of active plans. */
export interface VariantCounts {
  variant: string;
  currency: string;
  shown: number;
  confirmed: number;
  feeCents: number;
}

export async function countExperimentOffers(
  tx: Queryable,
  experimentId: string,
  period: { fromMs: number; toMs: number },
): Promise<VariantCounts[]> {
  const rows = await tx.all<{
    variant: string;
    currency: string;
    shown: number | string;
    confirmed: number | string;
    fee_cents: number | string | null;
  }>(
    `SELECT q.experiment_variant AS variant, q.currency, COUNT(*) AS shown,
            SUM(CASE WHEN q.status = 'confirmed' THEN 1 ELSE 0 END) AS confirmed,
            SUM(CASE WHEN p.status = 'active' THEN p.fee_cents ELSE 0 END) AS fee_cents
     FROM quotes q LEFT JOIN plans p ON p.quote_id = q.id
     WHERE q.experiment_id = ? AND q.created_at >= ? AND q.created_at < ?
     GROUP BY q.experiment_variant, q.currency`,
    [experimentId, period.fromMs, period.toMs],
  );
  return rows.map((row) => ({
    variant: row.variant,
    currency: row.currency,
    shown: Number(row.shown),
    confirmed: Number(row.confirmed),
    feeCents: Number(row.fee_cents ?? 0),
  }));
}
