// Closed settlement statements (settlement_statements): inserted once per (merchant, mode, currency,
// period_start), in the transaction that binds their ledger entries to them, and never updated.
import type { Actor } from "../vocabulary/actors.ts";
import type { Mode } from "../vocabulary/ids.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
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

/**
 * Holds the account's statement closing until the transaction ends: a second closer waits, then sees the statement
 * the first wrote. SQLite transactions are serialised already.
 */
export async function lockSettlementAccount(
  tx: Queryable,
  account: { merchantId: string; mode: Mode; currency: string },
): Promise<void> {
  if (tx.dialect !== "postgres") return;
  await tx.get("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [
    `settlement: ${account.merchantId} ${account.mode} ${account.currency}`,
  ]);
}

/** Inserts the statement; a period closed twice is a unique violation (which rolls its bindings back). */
export async function insertStatement(tx: Queryable, statement: StatementRecord): Promise<void> {
  await tx.run(`INSERT INTO settlement_statements (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
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
  ]);
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

/** An account's statements whose period ends after `after` and starts before `before`, oldest first. */
export async function listStatementsBetween(
  tx: Queryable,
  account: { merchantId: string; mode: Mode; currency: string },
  after: number,
  before: number,
): Promise<StatementRecord[]> {
  const rows = await tx.all<StatementRow>(
    `SELECT ${COLUMNS} FROM settlement_statements
     WHERE merchant_id = ? AND mode = ? AND currency = ? AND period_end > ? AND period_start < ?
     ORDER BY period_start`,
    [account.merchantId, account.mode, account.currency, after, before],
  );
  return rows.map(toRecord);
}

/**
 * Every statement with the sums of the entries bound to it, per kind (one statement, so a statement and its
 * bindings, written in one transaction, are read together or not at all).
 */
export async function listStatementsWithBoundSums(
  tx: Queryable,
): Promise<{ statement: StatementRecord; bound: { kind: string; amountCents: number; count: number }[] }[]> {
  const rows = await tx.all<
    StatementRow & { bound_kind: string | null; bound_cents: number | string | null; bound_count: number | string }
  >(
    `SELECT ${COLUMNS.replace(/\w+/g, "s.$&")}, b.kind AS bound_kind, b.cents AS bound_cents, COALESCE(b.n, 0) AS bound_count
     FROM settlement_statements s
     LEFT JOIN (SELECT statement_id, kind, SUM(amount_cents) AS cents, COUNT(*) AS n FROM ledger_entries
                WHERE statement_id IS NOT NULL GROUP BY statement_id, kind) b ON b.statement_id = s.id
     ORDER BY s.id`,
  );
  const byId = new Map<
    string,
    { statement: StatementRecord; bound: { kind: string; amountCents: number; count: number }[] }
  >();
  for (const row of rows) {
    const entry = byId.get(row.id) ?? { statement: toRecord(row), bound: [] };
    byId.set(row.id, entry);
    if (row.bound_kind !== null)
      entry.bound.push({ kind: row.bound_kind, amountCents: Number(row.bound_cents), count: Number(row.bound_count) });
  }
  return [...byId.values()];
}

/** An owner's statements, newest first (ids sort by creation time). */
export const listStatements = (tx: Queryable, owner: Actor, query: PageQuery): Promise<Page<StatementRecord>> =>
  listPage<StatementRow, StatementRecord>(tx, owner, "settlement_statements", COLUMNS, [], query, toRecord);

/** The latest closed statement of each of an owner's currencies. */
export async function listLastStatements(
  tx: Queryable,
  owner: { merchantId: string; mode: Mode },
): Promise<StatementRecord[]> {
  const rows = await tx.all<StatementRow>(
    `SELECT ${COLUMNS.replace(/\w+/g, "s.$&")} FROM settlement_statements s
     JOIN (SELECT currency, MAX(period_start) AS last_start FROM settlement_statements
           WHERE merchant_id = ? AND mode = ? GROUP BY currency) last
       ON last.currency = s.currency AND last.last_start = s.period_start
     WHERE s.merchant_id = ? AND s.mode = ? ORDER BY s.currency`,
    [owner.merchantId, owner.mode, owner.merchantId, owner.mode],
  );
  return rows.map(toRecord);
}

/**
 * The settlement terms of the merchant's programs in a mode, from its first program (the one statements follow):
 * the period (weekly without a program) and the merchant's share of each fee (null without a program).
 */
export async function settlementTermsOf(
  tx: Queryable,
  owner: { merchantId: string; mode: Mode },
): Promise<{ period: "weekly" | "monthly"; merchantShareBps: number | null }> {
  const row = await tx.get<{ settlement_period: string; merchant_share_bps: number | string }>(
    `SELECT settlement_period, merchant_share_bps FROM protection_programs WHERE merchant_id = ? AND mode = ?
     ORDER BY id LIMIT 1`,
    [owner.merchantId, owner.mode],
  );
  return {
    period: row?.settlement_period === "monthly" ? "monthly" : "weekly",
    merchantShareBps: row ? Number(row.merchant_share_bps) : null,
  };
}

/** The settlement period of the merchant's programs in a mode: its first program's, weekly without one. */
export async function settlementPeriodOf(
  tx: Queryable,
  owner: { merchantId: string; mode: Mode },
): Promise<"weekly" | "monthly"> {
  return (await settlementTermsOf(tx, owner)).period;
}
