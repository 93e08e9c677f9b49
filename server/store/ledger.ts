// The money ledger (ledger_entries): one immutable row per money movement. Rows are only ever inserted; the
// unique (kind, source_id) makes every movement appear once however often its cause is retried. The one change a row
// ever sees is its statement_id, set once when its settlement statement closes (a trigger refuses any other).
import type { Mode } from "../vocabulary/ids.ts";
import type { Queryable } from "./database.ts";

export interface NewLedgerEntry {
  id: string;
  merchantId: string;
  mode: Mode;
  currency: string;
  kind: string;
  amountCents: number;
  sourceId: string;
  planId: string | null;
  createdAt: number;
}

export interface LedgerEntryRecord extends NewLedgerEntry {
  /** The settlement statement the entry is on; null until one closes with it. */
  statementId: string | null;
}

interface LedgerRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  currency: string;
  kind: string;
  amount_cents: number | string;
  source_id: string;
  plan_id: string | null;
  created_at: number | string;
  statement_id: string | null;
}

const INSERT_COLUMNS = "id, merchant_id, mode, currency, kind, amount_cents, source_id, plan_id, created_at";
const COLUMNS = `${INSERT_COLUMNS}, statement_id`;

const toRecord = (row: LedgerRow): LedgerEntryRecord => ({
  id: row.id,
  merchantId: row.merchant_id,
  mode: row.mode,
  currency: row.currency,
  kind: row.kind,
  amountCents: Number(row.amount_cents),
  sourceId: row.source_id,
  planId: row.plan_id,
  createdAt: Number(row.created_at),
  statementId: row.statement_id,
});

/**
 * Inserts the entries in one statement, each unless one with its (kind, source_id) exists; resolves to the ids this
 * call wrote.
 */
export async function insertLedgerEntries(tx: Queryable, entries: readonly NewLedgerEntry[]): Promise<Set<string>> {
  if (entries.length === 0) return new Set();
  const inserted = await tx.all<{ id: string }>(
    `INSERT INTO ledger_entries (${INSERT_COLUMNS}) VALUES ${entries.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}
     ON CONFLICT (kind, source_id) DO NOTHING RETURNING id`,
    entries.flatMap((entry) => [
      entry.id,
      entry.merchantId,
      entry.mode,
      entry.currency,
      entry.kind,
      entry.amountCents,
      entry.sourceId,
      entry.planId,
      entry.createdAt,
    ]),
  );
  return new Set(inserted.map((row) => row.id));
}

/**
 * Binds to the statement every entry of the account not yet on one and created before `end` (a late entry of an
 * earlier, already closed period too); resolves to what it bound. Run in the statement's closing transaction.
 */
export async function bindLedgerEntries(
  tx: Queryable,
  account: { merchantId: string; mode: Mode; currency: string },
  statementId: string,
  end: number,
): Promise<{ kind: string; amountCents: number }[]> {
  const rows = await tx.all<{ kind: string; amount_cents: number | string }>(
    `UPDATE ledger_entries SET statement_id = ?
     WHERE merchant_id = ? AND mode = ? AND currency = ? AND statement_id IS NULL AND created_at < ?
     RETURNING kind, amount_cents`,
    [statementId, account.merchantId, account.mode, account.currency, end],
  );
  return rows.map((row) => ({ kind: row.kind, amountCents: Number(row.amount_cents) }));
}

/** The entries bound to a statement, oldest first. */
export async function listStatementEntries(tx: Queryable, statementId: string): Promise<LedgerEntryRecord[]> {
  const rows = await tx.all<LedgerRow>(
    `SELECT ${COLUMNS} FROM ledger_entries WHERE statement_id = ? ORDER BY created_at, id`,
    [statementId],
  );
  return rows.map(toRecord);
}

/**
 * Entries on no statement although their time is before the end of their account's last closed period: written
 * after that period closed (a long transaction, a clock step, a late event). The next statement takes them.
 */
export async function listUnboundEntriesInClosedPeriods(
  tx: Queryable,
): Promise<(LedgerEntryRecord & { closedUntil: number })[]> {
  const rows = await tx.all<LedgerRow & { closed_until: number | string }>(
    `SELECT ${COLUMNS.replace(/\w+/g, "e.$&")}, closed.closed_until
     FROM (SELECT merchant_id, mode, currency, MAX(period_end) AS closed_until FROM settlement_statements
           GROUP BY merchant_id, mode, currency) closed
     JOIN ledger_entries e ON e.merchant_id = closed.merchant_id AND e.mode = closed.mode
       AND e.currency = closed.currency AND e.statement_id IS NULL AND e.created_at < closed.closed_until
     ORDER BY e.created_at, e.id`,
  );
  return rows.map((row) => ({ ...toRecord(row), closedUntil: Number(row.closed_until) }));
}

/** The sums of an owner's entries on no statement yet, per currency and kind; `late`: those stamped before `lateBefore`. */
export interface UnboundSum {
  currency: string;
  kind: string;
  amountCents: number;
  count: number;
  /** Of them, the entries stamped inside a period of their currency already closed (the next statement takes them). */
  late: { amountCents: number; count: number };
}

/**
 * Per currency and kind, the owner's entries not on a statement yet (what the next statements will close with), and
 * which of them are late: stamped before the end of their currency's last closed period. Reads by the account's
 * (merchant, mode, currency, statement_id) index: only the open entries.
 */
export async function sumUnboundEntries(
  tx: Queryable,
  owner: { merchantId: string; mode: Mode },
): Promise<UnboundSum[]> {
  const rows = await tx.all<{
    currency: string;
    kind: string;
    cents: number | string;
    n: number | string;
    late_cents: number | string;
    late_n: number | string;
  }>(
    `SELECT e.currency, e.kind, SUM(e.amount_cents) AS cents, COUNT(*) AS n,
       SUM(CASE WHEN e.created_at < closed.closed_until THEN e.amount_cents ELSE 0 END) AS late_cents,
       SUM(CASE WHEN e.created_at < closed.closed_until THEN 1 ELSE 0 END) AS late_n
     FROM ledger_entries e
     LEFT JOIN (SELECT currency, MAX(period_end) AS closed_until FROM settlement_statements
                WHERE merchant_id = ? AND mode = ? GROUP BY currency) closed ON closed.currency = e.currency
     WHERE e.merchant_id = ? AND e.mode = ? AND e.statement_id IS NULL
     GROUP BY e.currency, e.kind ORDER BY e.currency, e.kind`,
    [owner.merchantId, owner.mode, owner.merchantId, owner.mode],
  );
  return rows.map((row) => ({
    currency: row.currency,
    kind: row.kind,
    amountCents: Number(row.cents),
    count: Number(row.n),
    late: { amountCents: Number(row.late_cents), count: Number(row.late_n) },
  }));
}

/** Every entry of an owner (all currencies), oldest first: for tests and reconciliation. */
export async function listLedgerEntries(
  tx: Queryable,
  owner: { merchantId: string; mode: Mode },
): Promise<LedgerEntryRecord[]> {
  const rows = await tx.all<LedgerRow>(
    `SELECT ${COLUMNS} FROM ledger_entries WHERE merchant_id = ? AND mode = ? ORDER BY created_at, id`,
    [owner.merchantId, owner.mode],
  );
  return rows.map(toRecord);
}

/** The (merchant, mode, currency) accounts with entries created before `before`, and the first entry's time. */
export async function listLedgerAccounts(
  tx: Queryable,
  before: number,
): Promise<{ merchantId: string; mode: Mode; currency: string; firstAt: number }[]> {
  const rows = await tx.all<{ merchant_id: string; mode: Mode; currency: string; first_at: number | string }>(
    `SELECT merchant_id, mode, currency, MIN(created_at) AS first_at FROM ledger_entries
     WHERE created_at < ? GROUP BY merchant_id, mode, currency ORDER BY merchant_id, mode, currency`,
    [before],
  );
  return rows.map((row) => ({
    merchantId: row.merchant_id,
    mode: row.mode,
    currency: row.currency,
    firstAt: Number(row.first_at),
  }));
}

/** The amount and currency of the entry of this kind for this source, or undefined when there is none. */
export async function findLedgerEntry(
  tx: Queryable,
  kind: string,
  sourceId: string,
): Promise<{ amountCents: number; currency: string } | undefined> {
  const row = await tx.get<{ amount_cents: number | string; currency: string }>(
    "SELECT amount_cents, currency FROM ledger_entries WHERE kind = ? AND source_id = ?",
    [kind, sourceId],
  );
  return row === undefined ? undefined : { amountCents: Number(row.amount_cents), currency: row.currency };
}

/**
 * The sum of the account's entries from `sourcePrefix` (a kind's sources of one cause) that are not on a statement
 * whose period starts at or before `periodStart`: on none yet, or on a later one.
 */
export async function sumEntriesAfterPeriod(
  tx: Queryable,
  account: { merchantId: string; mode: Mode; currency: string },
  entries: { kind: string; sourcePrefix: string },
  periodStart: number,
): Promise<number> {
  const row = await tx.get<{ cents: number | string | null }>(
    `SELECT SUM(l.amount_cents) AS cents FROM ledger_entries l
     LEFT JOIN settlement_statements s ON s.id = l.statement_id
     WHERE l.merchant_id = ? AND l.mode = ? AND l.currency = ? AND l.kind = ? AND l.source_id LIKE ?
       AND (l.statement_id IS NULL OR s.period_start > ?)`,
    [account.merchantId, account.mode, account.currency, entries.kind, `${entries.sourcePrefix}%`, periodStart],
  );
  return Number(row?.cents ?? 0);
}
