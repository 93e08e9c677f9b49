// E-mails to buyers (email_messages, a work table: server/store/work-table.ts) and the columns that hold a buyer's
// address at rest, sealed beside its lookup hash.
import type { Mode } from "../domain/ids.ts";
import type { Database, Queryable } from "./database.ts";
import { claimDueRows } from "./work-table.ts";

export interface NewEmailMessage {
  id: string;
  merchantId: string;
  mode: Mode;
  template: string;
  planId: string;
  /** The claim a claim e-mail is about (null for the plan's own e-mails). */
  claimId: string | null;
  /** One e-mail per key (server/domain/emails.ts): a replayed or retried mutation never queues a second. */
  dedupeKey: string;
  recipientSealed: string;
  recipientHash: string;
  status: "pending" | "suppressed";
  /** Why it was suppressed (null when pending). */
  lastError: string | null;
  createdAt: number;
}

/** A message claimed for sending. */
export interface DueEmail {
  id: string;
  merchantId: string;
  mode: Mode;
  template: string;
  planId: string;
  recipientSealed: string;
  attempts: number;
}

/** Inserts the message unless one with its dedupe key already exists (a replayed or retried mutation). */
export async function insertEmailOnce(tx: Queryable, message: NewEmailMessage): Promise<void> {
  await tx.run(
    `INSERT INTO email_messages (id, merchant_id, mode, template, plan_id, claim_id, dedupe_key, recipient_sealed, recipient_hash, status, attempts, next_attempt_at, last_error, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
    [
      message.id,
      message.merchantId,
      message.mode,
      message.template,
      message.planId,
      message.claimId,
      message.dedupeKey,
      message.recipientSealed,
      message.recipientHash,
      message.status,
      message.createdAt,
      message.lastError,
      message.createdAt,
    ],
  );
}

/**
 * Serialises, until the transaction ends, every transaction that counts and queues e-mails for this merchant or this
 * recipient. PostgreSQL: transaction-scoped advisory locks, the merchant's before the recipient's in every
 * transaction (no lock cycle). SQLite transactions are serialised already.
 */
export async function lockEmailCounts(tx: Queryable, merchantId: string, recipientHash: string): Promise<void> {
  if (tx.dialect !== "postgres") return;
  for (const key of [`email cap: merchant ${merchantId}`, `email cap: recipient ${recipientHash}`]) {
    await tx.get("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [key]);
  }
}

/** E-mails queued (not suppressed) to the recipient since one time and from the merchant since another, both modes. */
export async function countQueuedEmails(
  tx: Queryable,
  window: { recipientHash: string; recipientSince: number; merchantId: string; merchantSince: number },
): Promise<{ toRecipient: number; fromMerchant: number }> {
  const counts = await tx.get<{ recipient: number | string; merchant: number | string }>(
    `SELECT (SELECT COUNT(*) FROM email_messages WHERE recipient_hash = ? AND created_at > ? AND status <> 'suppressed') AS recipient,
            (SELECT COUNT(*) FROM email_messages WHERE merchant_id = ? AND created_at > ? AND status <> 'suppressed') AS merchant`,
    [window.recipientHash, window.recipientSince, window.merchantId, window.merchantSince],
  );
  return { toRecipient: Number(counts!.recipient), fromMerchant: Number(counts!.merchant) };
}

/** Leases up to `limit` pending messages that are due (see claimDueRows). */
export async function claimDueEmails(db: Database, now: number, leaseMs: number, limit: number): Promise<DueEmail[]> {
  const rows = await claimDueRows<{
    id: string;
    merchant_id: string;
    mode: Mode;
    template: string;
    plan_id: string;
    recipient_sealed: string;
    attempts: number | string;
  }>(db, {
    table: "email_messages",
    dueColumn: "next_attempt_at",
    columns: "id, merchant_id, mode, template, plan_id, recipient_sealed, attempts",
    now,
    leaseMs,
    limit,
  });
  return rows.map((row) => ({
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    template: row.template,
    planId: row.plan_id,
    recipientSealed: row.recipient_sealed,
    attempts: Number(row.attempts),
  }));
}

export async function markEmailSkipped(db: Queryable, id: string): Promise<void> {
  await db.run("UPDATE email_messages SET status = 'skipped', locked_until = NULL WHERE id = ?", [id]);
}

export async function markEmailSent(
  db: Queryable,
  id: string,
  sent: { attempts: number; at: number; messageId: string | null },
): Promise<void> {
  await db.run(
    "UPDATE email_messages SET status = 'sent', attempts = ?, sent_at = ?, message_id = ?, locked_until = NULL, last_error = NULL WHERE id = ?",
    [sent.attempts, sent.at, sent.messageId, id],
  );
}

/** A failed send: pending again from `nextAttemptAt`, or failed for good. The lease is released. */
export async function recordEmailFailure(
  db: Queryable,
  id: string,
  failure: { status: "pending" | "failed"; attempts: number; nextAttemptAt: number; lastError: string },
): Promise<void> {
  await db.run(
    "UPDATE email_messages SET status = ?, attempts = ?, next_attempt_at = ?, locked_until = NULL, last_error = ? WHERE id = ?",
    [failure.status, failure.attempts, failure.nextAttemptAt, failure.lastError, id],
  );
}

/** Every column pair that holds a buyer's address: sealed, and its lookup hash. */
const BUYER_EMAIL_COLUMNS = {
  quotes: { sealed: "customer_email_sealed", hash: "customer_email_hash" },
  plans: { sealed: "customer_email_sealed", hash: "customer_email_hash" },
  email_messages: { sealed: "recipient_sealed", hash: "recipient_hash" },
} as const;

export type BuyerEmailTable = keyof typeof BUYER_EMAIL_COLUMNS;
export const BUYER_EMAIL_TABLES = Object.keys(BUYER_EMAIL_COLUMNS) as BuyerEmailTable[];

/**
 * Up to `limit` addresses still in clear in the table: rows written before migration 20261123120000_seal_buyer_emails,
 * which renamed the columns but cannot seal without the key. Every address holds an '@' and no sealed box does.
 */
export function listClearBuyerEmails(
  tx: Queryable,
  table: BuyerEmailTable,
  limit: number,
): Promise<{ id: string; address: string }[]> {
  const { sealed } = BUYER_EMAIL_COLUMNS[table];
  return tx.all<{ id: string; address: string }>(
    `SELECT id, ${sealed} AS address FROM ${table} WHERE ${sealed} LIKE '%@%' LIMIT ${Number(limit)}`,
  );
}

/** Replaces the address in clear by its sealed form and hash, unless another process did first; returns 1 or 0. */
export function sealClearBuyerEmail(
  tx: Queryable,
  table: BuyerEmailTable,
  id: string,
  address: string,
  stored: { sealed: string; hash: string },
): Promise<number> {
  const columns = BUYER_EMAIL_COLUMNS[table];
  return tx.run(
    `UPDATE ${table} SET ${columns.sealed} = ?, ${columns.hash} = ? WHERE id = ? AND ${columns.sealed} = ?`,
    [stored.sealed, stored.hash, id, address],
  );
}
