import { newId } from "./ids.ts";
import { notFound } from "./errors.ts";
import type { Actor, Services, Tx } from "./context.ts";
import { SUPPORTED_CURRENCIES, type Currency } from "./money.ts";

export interface Program {
  id: string;
  rateBps: number;
  minFeeCents: number;
  maxCoveredCents: number;
  merchantShareBps: number;
  currencies: Currency[];
  productCategories: string[];
}

interface ProgramRow {
  id: string;
  rate_bps: number;
  min_fee_cents: number;
  max_covered_cents: number;
  merchant_share_bps: number;
  currencies: string;
  product_categories: string;
}

/** The terms every new merchant starts with, in each mode: 3 % of the covered amount, at least 1.00. */
export const DEFAULT_PROGRAM = {
  name: "Default protection",
  rateBps: 300,
  minFeeCents: 100,
  maxCoveredCents: 500_000,
  merchantShareBps: 2_000,
  currencies: [...SUPPORTED_CURRENCIES],
  productCategories: [] as string[],
};

export async function loadActiveProgram(tx: Tx, actor: Actor, programId: string): Promise<Program> {
  const row = await tx.get<ProgramRow>(
    `SELECT id, rate_bps, min_fee_cents, max_covered_cents, merchant_share_bps, currencies, product_categories
     FROM protection_programs WHERE id = ? AND merchant_id = ? AND mode = ? AND active = TRUE`,
    [programId, actor.merchantId, actor.mode],
  );
  if (!row) throw notFound("protection program", programId, "protection_program_id");
  return {
    id: row.id,
    rateBps: row.rate_bps,
    minFeeCents: row.min_fee_cents,
    maxCoveredCents: row.max_covered_cents,
    merchantShareBps: row.merchant_share_bps,
    currencies: JSON.parse(row.currencies),
    productCategories: JSON.parse(row.product_categories),
  };
}

export async function createProgram(tx: Tx, services: Services, actor: Actor, terms = DEFAULT_PROGRAM): Promise<string> {
  const now = services.clock();
  const id = newId("prog", now, services.random);
  await tx.run(
    `INSERT INTO protection_programs (id, merchant_id, mode, name, rate_bps, min_fee_cents, max_covered_cents,
       merchant_share_bps, currencies, product_categories, active, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, TRUE, ?)`,
    [id, actor.merchantId, actor.mode, terms.name, terms.rateBps, terms.minFeeCents, terms.maxCoveredCents,
      terms.merchantShareBps, JSON.stringify(terms.currencies), JSON.stringify(terms.productCategories), now],
  );
  return id;
}
