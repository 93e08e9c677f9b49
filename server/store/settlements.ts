// Closed settlement statements (settlement_statements): inserted once per (merchant, mode, currency,
// period_start) and never updated; the unique key makes a second generation of the same period write nothing.
import type { Actor } from "../domain/context.ts";
import type { Mode } from "../domain/ids.ts";
import type { Page, PageQuery } from "../domain/pagination.ts";
import { findOwnedRow, type Queryable } from "./database.ts";
import { listPage } from "./pagination.ts";

export interface StatementRecord {
  id: string;
  merchantId: string;
  mode: Mode;
  currency: string;
  periodStart: number;
  periodEnd: number;
  openingBalanceCents: number;
  /** Sum of the period's entries per ledger kind. */
  totals: Record<string, number>;
  netCents: number;
  closingBalanceCents: number;
  entryCount: number;
  createdAt: number;
}

interface StatementRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  currency: string;
  period_start: number | string;
  period_end: number | string;
  opening_balance_cents: number | string;
  totals: string;
  net_cents: number | string;
  closing_balance_cents: number | string;
  entry_count: number | string;
  created_at: number | string;
}

const COLUMNS =
  "id, merchant_id, mode, currency, period_start, period_end, opening_balance_cents, totals, net_cents, closing_balance_cents, entry_count, created_at";

const toRecord = (row: StatementRow): StatementRecord => ({
  id: row.id,
  merchantId: row.merchant_id,
  mode: row.mode,
  currency: row.currency,
  periodStart: Number(row.period_start),
  periodEnd: Number(row.period_end),
  openingBalanceCents: Number(row.opening_balance_cents),
  totals: JSON.parse(row.totals) as Record<string, number>,
  netCents: Number(row.net_cents),
  closingBalanceCents: Number(row.closing_balance_cents),
  entryCount: Number(row.entry_count),
  createdAt: Number(row.created_at),
});

/** Inserts the statement unless its period is already closed; true when this call wrote it. */
export async function insertStatement(tx: Queryable, statement: StatementRecord): Promise<boolean> {
  const inserted = await tx.all<{ id: string }>(
    `INSERT INTO settlement_statements (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (merchant_id, mode, currency, period_start) DO NOTHING RETURNING id`,
    [
      statement.id,
      statement.merchantId,
      statement.mode,
      statement.currency,
      statement.periodStart,
      statement.periodEnd,
      statement.openingBalanceCents,
      JSON.stringify(statement.totals),
      statement.netCents,
      statement.closingBalanceCents,
      statement.entryCount,
      statement.createdAt,
    ],
  );
  return inserted.length > 0;
}

/** The latest closed statement of an account, or undefined. */
export async function findLastStatement(
  tx: Queryable,
  owner: { merchantId: string; mode: Mode },
  currency: string,
): Promise<StatementRecord | undefined> {
  const row = await tx.get<StatementRow>(
    `SELECT ${COLUMNS} FROM settlement_statements WHERE merchant_id = ? AND mode = ? AND currency = ?
     ORDER BY period_start DESC LIMIT 1`,
    [owner.merchantId, owner.mode, currency],
  );
  return row && toRecord(row);
}

export async function findStatement(
  tx: Queryable,
  owner: Actor,
  statementId: string,
): Promise<StatementRecord | undefined> {
  const row = await findOwnedRow<StatementRow>(tx, owner, "settlement_statements", COLUMNS, statementId);
  return row && toRecord(row);
}

/** An owner's statements, newest first (ids sort by creation time). */
export const listStatements = (tx: Queryable, owner: Actor, query: PageQuery): Promise<Page<StatementRecord>> =>
  listPage<StatementRow, StatementRecord>(tx, owner, "settlement_statements", COLUMNS, [], query, toRecord);

/** The settlement period of the merchant's programs in a mode: its first program's, weekly without one. */
export async function settlementPeriodOf(
  tx: Queryable,
  owner: { merchantId: string; mode: Mode },
): Promise<"weekly" | "monthly"> {
  const row = await tx.get<{ settlement_period: string }>(
    "SELECT settlement_period FROM protection_programs WHERE merchant_id = ? AND mode = ? ORDER BY id LIMIT 1",
    [owner.merchantId, owner.mode],
  );
  return row?.settlement_period === "monthly" ? "monthly" : "weekly";
}
