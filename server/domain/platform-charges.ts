// A closed statement's balance charged through the platform that bills the merchant (Shopify's Billing API: the app's
// usage records, app/shopify/billing.server.ts). The charge is money the merchant pays us, so it is a ledger entry
// (`correction`, + the amount, source `platform_charge:{statement id}`), written once per statement in the transaction
// that records the charge: the next statement's balance no longer holds what was charged, and a credit (a balance we
// owe the merchant) is simply carried on as the next opening balance, netted against what the merchant owes next.
import type { Services, Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { notFound } from "./errors.ts";
import { appendLedgerEntries } from "./ledger.ts";
import { sumEntriesAfterPeriod } from "../store/ledger.ts";
import { findStatement, lockSettlementAccount } from "../store/settlements.ts";

const CHARGE_SOURCE_PREFIX = "platform_charge:";

/** What a closed statement comes to through the platform: charged (owed by the merchant) or carried (owed to them). */
export interface StatementSettlement {
  statementId: string;
  currency: string;
  /** The statement's closing balance (negative: the merchant owes it). */
  balanceCents: number;
  /** What the merchant is charged for it (≥ 0). */
  amountCents: number;
  /** A credit the merchant keeps: carried to the next statement and netted against its charge (≥ 0). */
  carriedForwardCents: number;
}

/**
 * Settles a closed statement through the platform: what the merchant owes on it is its closing balance less the
 * charges made after it closed (a charge's entry lands on a later statement; until then it is not in this balance)
 * and less the balance settled outside the platform before it billed (`settledBeforeCents`: the closing balance of the
 * account's last statement from then, which every later closing balance still carries), and that amount's ledger
 * entry is written now. Call it once per statement (the caller's row for the statement makes it so); the entry is
 * unique per statement anyway, so a second call writes no second entry.
 */
export async function settleStatementThroughPlatform(
  tx: Tx,
  services: Services,
  owner: Actor,
  statementId: string,
  settledBeforeCents = 0,
): Promise<StatementSettlement> {
  const statement = await findStatement(tx, owner, statementId);
  if (!statement) throw notFound("settlement statement", statementId, "statementId");
  // Beside the statement closer (server/domain/settlements.ts): a statement closing meanwhile binds what it sees.
  await lockSettlementAccount(tx, statement);
  const chargedSince = await sumEntriesAfterPeriod(
    tx,
    statement,
    { kind: "correction", sourcePrefix: CHARGE_SOURCE_PREFIX },
    statement.periodStart,
  );
  const owedCents = -(statement.closingBalanceCents - settledBeforeCents) - chargedSince;
  const amountCents = Math.max(0, owedCents);
  if (amountCents > 0)
    await appendLedgerEntries(tx, services, owner, [
      {
        kind: "correction",
        amountCents,
        currency: statement.currency,
        sourceId: `${CHARGE_SOURCE_PREFIX}${statement.id}`,
      },
    ]);
  return {
    statementId: statement.id,
    currency: statement.currency,
    balanceCents: statement.closingBalanceCents,
    amountCents,
    carriedForwardCents: Math.max(0, -owedCents),
  };
}
