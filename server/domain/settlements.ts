// Settlement statements (docs/api.md "Settlement"): per merchant, mode and currency and per period (weekly Monday–
// Sunday UTC by default, monthly as a program setting), the ledger entries of [start, end) with the opening
// balance (the previous statement's closing), totals by kind, the net and the closing balance. A worker closes the
// periods that have ended, binding their entries to the statement in the same transaction; a closed statement is
// read from that binding, never recomputed by time, so it never changes. An entry written after its period closed
// is bound to the next statement, which says so.
import { newId } from "./ids.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { notFound } from "./errors.ts";
import { LEDGER_KINDS, type LedgerKind } from "./ledger.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import type { Database } from "../store/database.ts";
import {
  bindLedgerEntries,
  listLedgerAccounts,
  listStatementEntries,
  listUnboundEntriesInClosedPeriods,
  sumUnboundEntries,
  type LedgerEntryRecord,
} from "../store/ledger.ts";
import {
  findLastStatement,
  findStatement,
  insertStatement,
  listLastStatements,
  listStatements,
  listStatementsBetween,
  listStatementsWithBoundSums,
  lockSettlementAccount,
  settlementPeriodOf,
  settlementTermsOf,
  type StatementRecord,
} from "../store/settlements.ts";
import { DAY_MS } from "../vocabulary/time.ts";

export type SettlementPeriod = "weekly" | "monthly";

/**
 * Entries are stamped by the clock of the transaction that writes them; one that began before a period's end may
 * commit shortly after it. A period is closed only this long after its end, so such an entry is in it.
 */
export const SETTLEMENT_GRACE_MS = 15 * 60 * 1000;

/** At most this many periods of one account are closed per run (a long-idle account catches up over runs). */
const PERIODS_PER_RUN = 60;

/** The period of the given kind containing `at`: [start, end) in UTC epoch ms. Written by hand: Date.UTC suffices. */
export function periodContaining(kind: SettlementPeriod, at: number): { start: number; end: number } {
  const day = new Date(at);
  if (kind === "monthly") {
    const start = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
    return { start, end: Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1) };
  }
  const daysSinceMonday = (day.getUTCDay() + 6) % 7;
  const start = Math.floor(at / DAY_MS) * DAY_MS - daysSinceMonday * DAY_MS;
  return { start, end: start + 7 * DAY_MS };
}

export type KindTotals = Record<LedgerKind, number>;

/** Totals by kind (every kind, zero where none) and their sum. */
export function totalsOf(entries: readonly { kind: string; amountCents: number }[]): {
  totals: KindTotals;
  net: number;
} {
  const totals = Object.fromEntries(LEDGER_KINDS.map((kind) => [kind, 0])) as KindTotals;
  let net = 0;
  for (const entry of entries) {
    totals[entry.kind as LedgerKind] = (totals[entry.kind as LedgerKind] ?? 0) + entry.amountCents;
    net += entry.amountCents;
  }
  return { totals, net };
}

/**
 * Closes every ended period (plus the grace) of every account with entries, oldest first, each in its own
 * transaction. Idempotent and safe beside another closer: a period already closed is not closed again (the account
 * lock, and the unique period). Resolves to how many were written.
 */
export async function closeEndedPeriods(db: Database, services: Services): Promise<number> {
  const now = services.clock();
  const closable = now - SETTLEMENT_GRACE_MS;
  const accounts = await db.transaction((tx) => listLedgerAccounts(tx, closable));
  let written = 0;
  for (const account of accounts) {
    for (let i = 0; i < PERIODS_PER_RUN; i++) {
      if (!(await db.transaction((tx) => closeNextPeriod(tx, services, account, closable)))) break;
      written++;
    }
  }
  return written;
}

async function closeNextPeriod(
  tx: Tx,
  services: Services,
  account: { merchantId: string; mode: Actor["mode"]; currency: string; firstAt: number },
  closable: number,
): Promise<boolean> {
  const owner = { merchantId: account.merchantId, mode: account.mode };
  await lockSettlementAccount(tx, account);
  const kind = await settlementPeriodOf(tx, owner);
  const last = await findLastStatement(tx, owner, account.currency);
  // Periods chain: the next starts where the last ended (a change of setting shortens the first period after it).
  const start = last ? last.periodEnd : periodContaining(kind, account.firstAt).start;
  const end = periodContaining(kind, start).end;
  if (end > closable) return false;
  // The id's time is the period's start, so statements list in period order.
  const id = newId("stmt", start, services.random);
  // Every entry not on a statement yet and created before the end: the period's, and any written into an earlier
  // period after it had closed. The totals are of exactly what was bound.
  const entries = await bindLedgerEntries(tx, account, id, end);
  const { totals, net } = totalsOf(entries);
  const opening = last?.closingBalanceCents ?? 0;
  await insertStatement(tx, {
    id,
    ...owner,
    currency: account.currency,
    periodStart: start,
    periodEnd: end,
    openingBalanceCents: opening,
    totals,
    netCents: net,
    closingBalanceCents: opening + net,
    entryCount: entries.length,
    createdAt: services.clock(),
  });
  return true;
}

/** A statement as the API shows it; `direction` says who owes the closing balance. */
export interface Statement {
  id: string;
  object: "settlement_statement";
  currency: string;
  periodStart: string;
  periodEnd: string;
  period: SettlementPeriod | "partial";
  openingBalanceCents: number;
  totals: Record<string, number>;
  netCents: number;
  closingBalanceCents: number;
  /** payable_to_merchant: we owe the closing balance; payable_by_merchant: the merchant owes it; settled: zero. */
  direction: "payable_to_merchant" | "payable_by_merchant" | "settled";
  entryCount: number;
  createdAt: string;
  livemode: boolean;
}

export interface StatementEntry {
  id: string;
  kind: string;
  amountCents: number;
  currency: string;
  sourceId: string;
  planId: string | null;
  createdAt: string;
  /** Written after the period of its time had closed (on this statement): settled here instead; null otherwise. */
  lateFrom: { statementId: string; periodStart: string; periodEnd: string } | null;
}

function periodKind(record: StatementRecord): Statement["period"] {
  for (const kind of ["weekly", "monthly"] as const) {
    const period = periodContaining(kind, record.periodStart);
    if (period.start === record.periodStart && period.end === record.periodEnd) return kind;
  }
  return "partial";
}

export function toStatement(record: StatementRecord): Statement {
  return {
    id: record.id,
    object: "settlement_statement",
    currency: record.currency,
    periodStart: iso(record.periodStart),
    periodEnd: iso(record.periodEnd),
    period: periodKind(record),
    openingBalanceCents: record.openingBalanceCents,
    // Every kind, zero where none: a statement closed before a kind existed (merchant_paid_fee) stored none of it.
    totals: { ...totalsOf([]).totals, ...record.totals },
    netCents: record.netCents,
    closingBalanceCents: record.closingBalanceCents,
    direction: directionOf(record.closingBalanceCents),
    entryCount: record.entryCount,
    createdAt: iso(record.createdAt),
    livemode: record.mode === "live",
  };
}

const directionOf = (balanceCents: number): Statement["direction"] =>
  balanceCents > 0 ? "payable_to_merchant" : balanceCents < 0 ? "payable_by_merchant" : "settled";

/**
 * The open period's running balance of one currency: what its statement would close with if the period ended now.
 * The lines are those of a statement (totals by kind of every entry on no statement yet, late ones included), the
 * opening balance is the last closed statement's closing balance, and `balanceCents` = opening + net: positive, we
 * owe the merchant; negative, the merchant owes us.
 */
export interface RunningBalance {
  object: "settlement_balance";
  currency: string;
  /** The open period: from the last statement's end (or the period's start) to the end of the period holding now. */
  periodStart: string;
  periodEnd: string;
  period: SettlementPeriod;
  /** When its statement closes: the period's end plus the grace an entry committed at midnight needs. */
  closesAt: string;
  openingBalanceCents: number;
  totals: KindTotals;
  netCents: number;
  balanceCents: number;
  direction: Statement["direction"];
  entryCount: number;
  /** Entries stamped inside a period already closed (written after it closed): the next statement settles them. */
  lateEntries: { count: number; amountCents: number };
  /** The merchant's share of each fee, from the program statements follow (null without a program). */
  merchantShareBps: number | null;
  livemode: boolean;
}

/**
 * The running balance of every currency the actor has money in (entries on no statement yet, or a closed
 * statement), by currency. Closed statements are not touched: this reads them and the open entries only.
 */
export async function runningBalances(tx: Tx, actor: Actor, now: number): Promise<RunningBalance[]> {
  const owner = { merchantId: actor.merchantId, mode: actor.mode };
  const [terms, last, open] = await Promise.all([
    settlementTermsOf(tx, owner),
    listLastStatements(tx, owner),
    sumUnboundEntries(tx, owner),
  ]);
  const currencies = [...new Set([...last.map((s) => s.currency), ...open.map((s) => s.currency)])].sort();
  const period = periodContaining(terms.period, now);
  return currencies.map((currency) => {
    const closed = last.find((statement) => statement.currency === currency);
    const sums = open.filter((sum) => sum.currency === currency);
    const { totals, net } = totalsOf(sums);
    const opening = closed?.closingBalanceCents ?? 0;
    // Periods chain: after a change of setting the open period starts where the last statement ended.
    const start = closed && closed.periodEnd > period.start ? closed.periodEnd : period.start;
    return {
      object: "settlement_balance",
      currency,
      periodStart: iso(start),
      periodEnd: iso(period.end),
      period: terms.period,
      closesAt: iso(period.end + SETTLEMENT_GRACE_MS),
      openingBalanceCents: opening,
      totals,
      netCents: net,
      balanceCents: opening + net,
      direction: directionOf(opening + net),
      entryCount: sums.reduce((count, sum) => count + sum.count, 0),
      lateEntries: {
        count: sums.reduce((count, sum) => count + sum.late.count, 0),
        amountCents: sums.reduce((cents, sum) => cents + sum.late.amountCents, 0),
      },
      merchantShareBps: terms.merchantShareBps,
      livemode: actor.mode === "live",
    };
  });
}

const toEntry = (entry: LedgerEntryRecord, lateFrom: StatementRecord | undefined): StatementEntry => ({
  id: entry.id,
  kind: entry.kind,
  amountCents: entry.amountCents,
  currency: entry.currency,
  sourceId: entry.sourceId,
  planId: entry.planId,
  createdAt: iso(entry.createdAt),
  lateFrom: lateFrom
    ? { statementId: lateFrom.id, periodStart: iso(lateFrom.periodStart), periodEnd: iso(lateFrom.periodEnd) }
    : null,
});

export async function listSettlements(tx: Tx, actor: Actor, query: PageQuery): Promise<Page<Statement>> {
  const page = await listStatements(tx, actor, query);
  return { ...page, data: page.data.map(toStatement) };
}

/** The statement and the entries bound to it, oldest first, each late one with the earlier statement of its time. */
async function statementWithEntries(tx: Tx, actor: Actor, statementId: string) {
  const record = await findStatement(tx, actor, statementId);
  if (!record) throw notFound("settlement statement", statementId, "statementId");
  const bound = await listStatementEntries(tx, record.id);
  // Oldest first: the first entry before the period is the earliest late one.
  const earliest = bound[0]?.createdAt;
  const earlier =
    earliest !== undefined && earliest < record.periodStart
      ? await listStatementsBetween(tx, record, earliest, record.periodStart)
      : [];
  // Periods chain, so the first earlier statement ending after the entry's time is the one that closed it.
  const entries = bound.map((entry) =>
    toEntry(
      entry,
      earlier.find((closed) => closed.periodEnd > entry.createdAt),
    ),
  );
  return { record, entries };
}

/** GET /settlements/{id}: the statement with its entries, oldest first. */
export async function getSettlement(
  tx: Tx,
  actor: Actor,
  statementId: string,
): Promise<Statement & { entries: StatementEntry[] }> {
  const { record, entries } = await statementWithEntries(tx, actor, statementId);
  return { ...toStatement(record), entries };
}

/** RFC 4180 field: quoted when it holds a comma, quote or line break. Written by hand: one small rule. */
export const csvField = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The statement's entries as CSV, one row per entry (header first, CRLF line ends). */
export async function settlementEntriesCsv(
  tx: Tx,
  actor: Actor,
  statementId: string,
): Promise<{ bytes: Uint8Array; contentType: string; fileName: string }> {
  const { record, entries } = await statementWithEntries(tx, actor, statementId);
  const header = ["entry_id", "created_at", "kind", "amount_cents", "currency", "source_id", "plan_id", "note"];
  const rows = entries.map((entry) =>
    [
      entry.id,
      entry.createdAt,
      entry.kind,
      entry.amountCents,
      entry.currency,
      entry.sourceId,
      entry.planId,
      entry.lateFrom && lateNote(entry.lateFrom),
    ]
      .map(csvField)
      .join(","),
  );
  const text = [header.join(","), ...rows].map((line) => `${line}\r\n`).join("");
  return {
    bytes: new TextEncoder().encode(text),
    contentType: "text/csv; charset=utf-8",
    fileName: `${record.id}.csv`,
  };
}

const lateNote = (from: NonNullable<StatementEntry["lateFrom"]>) =>
  `late entry: occurred in ${from.periodStart}/${from.periodEnd} (closed as ${from.statementId})`;

/** A closed statement whose stored figures are not those of the entries bound to it. */
export interface StatementMismatch {
  statementId: string;
  merchantId: string;
  mode: Actor["mode"];
  currency: string;
  stored: { totals: Record<string, number>; netCents: number; entryCount: number; closingBalanceCents: number };
  bound: { totals: Record<string, number>; netCents: number; entryCount: number; closingBalanceCents: number };
}

/**
 * The closed statements that disagree with their bound entries: stored totals by kind, net or entry count other
 * than the sums of the entries bound to them, or a closing balance other than opening + net. Empty when every
 * statement is what its entries and its CSV say. Reads every bound entry: the worker runs it after closing.
 */
export async function findStatementMismatches(tx: Tx): Promise<StatementMismatch[]> {
  const mismatches: StatementMismatch[] = [];
  for (const { statement, bound } of await listStatementsWithBoundSums(tx)) {
    const totals = Object.fromEntries(LEDGER_KINDS.map((kind) => [kind, 0])) as Record<string, number>;
    for (const sum of bound) totals[sum.kind] = sum.amountCents;
    const netCents = bound.reduce((net, sum) => net + sum.amountCents, 0);
    const entryCount = bound.reduce((count, sum) => count + sum.count, 0);
    const kinds = new Set([...Object.keys(totals), ...Object.keys(statement.totals)]);
    const agrees =
      [...kinds].every((kind) => (statement.totals[kind] ?? 0) === (totals[kind] ?? 0)) &&
      statement.netCents === netCents &&
      statement.entryCount === entryCount &&
      statement.closingBalanceCents === statement.openingBalanceCents + netCents;
    if (!agrees)
      mismatches.push({
        statementId: statement.id,
        merchantId: statement.merchantId,
        mode: statement.mode,
        currency: statement.currency,
        stored: {
          totals: statement.totals,
          netCents: statement.netCents,
          entryCount: statement.entryCount,
          closingBalanceCents: statement.closingBalanceCents,
        },
        bound: { totals, netCents, entryCount, closingBalanceCents: statement.openingBalanceCents + netCents },
      });
  }
  return mismatches;
}

/** An entry on no statement although its time is in a closed period (before `closedUntil`). */
export interface LateEntry {
  entryId: string;
  merchantId: string;
  mode: Actor["mode"];
  currency: string;
  kind: string;
  amountCents: number;
  createdAt: string;
  closedUntil: string;
}

/**
 * Entries written into a closed period after it closed, not yet on a statement: the next statement of their account
 * takes them (marked late). Reads by index only the unbound entries: cheap enough for every worker round.
 */
export async function findLateEntries(tx: Tx): Promise<LateEntry[]> {
  return (await listUnboundEntriesInClosedPeriods(tx)).map((entry) => ({
    entryId: entry.id,
    merchantId: entry.merchantId,
    mode: entry.mode,
    currency: entry.currency,
    kind: entry.kind,
    amountCents: entry.amountCents,
    createdAt: iso(entry.createdAt),
    closedUntil: iso(entry.closedUntil),
  }));
}
