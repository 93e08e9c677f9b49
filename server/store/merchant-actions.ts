// What needs a merchant (server/domain/merchant-actions.ts): approved claims its own cart must pay, free-look fees it
// must refund; and its team's e-mails of them — each member's choice (merchant_members.action_emails), the digests
// (member_action_digests, a work queue) and which items each member was already told about (member_action_notices).
import type { Actor } from "../vocabulary/actors.ts";
import type { Mode } from "../vocabulary/ids.ts";
import { forUpdate, placeholders, type Database, type Queryable } from "./database.ts";
import { claimDueRows } from "./work-table.ts";

/** An approved claim whose buyer the merchant (not the Shopify app) refunds or reships. */
export interface ClaimAwaitingMerchant {
  claimId: string;
  number: number;
  referenceNumber: string;
  remedy: "refund" | "replacement";
  amountCents: number;
  currency: string;
  decidedAt: number;
}

/** A free-look fee the merchant refunds through its own cart and confirms. */
export interface FeeRefundOwed {
  planId: string;
  referenceNumber: string;
  orderId: string;
  amountCents: number;
  currency: string;
  createdAt: number;
}

// Approved claims of a merchant without a Shopify shop: the app pays a shop's claims, the store pays the others'.
const MERCHANT_PAYS = `claims c JOIN plans p ON p.id = c.plan_id JOIN merchants m ON m.id = c.merchant_id
  WHERE c.merchant_id = ? AND c.mode = ? AND c.status = 'approved' AND m.shop_domain IS NULL`;

/** The oldest approvals first (the earliest due), up to `limit`, and how many there are. */
export async function listClaimsAwaitingMerchant(
  db: Queryable,
  owner: Actor,
  limit: number,
): Promise<{ count: number; items: ClaimAwaitingMerchant[] }> {
  const params = [owner.merchantId, owner.mode];
  const [counted, rows] = await Promise.all([
    db.get<{ count: number | string }>(`SELECT COUNT(*) AS count FROM ${MERCHANT_PAYS}`, params),
    db.all<{
      id: string;
      number: number | string;
      reference_number: string;
      remedy: "refund" | "replacement" | null;
      amount_cents: number | string;
      currency: string;
      decided_at: number | string | null;
      created_at: number | string;
    }>(
      `SELECT c.id, c.number, p.reference_number, c.remedy, c.amount_cents, c.currency, c.decided_at, c.created_at
       FROM ${MERCHANT_PAYS} ORDER BY COALESCE(c.decided_at, c.created_at), c.id LIMIT ?`,
      [...params, limit],
    ),
  ]);
  return {
    count: Number(counted?.count ?? 0),
    items: rows.map((row) => ({
      claimId: row.id,
      number: Number(row.number),
      referenceNumber: row.reference_number,
      remedy: row.remedy ?? "refund",
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      decidedAt: Number(row.decided_at ?? row.created_at),
    })),
  };
}

const MERCHANT_REFUNDS = `fee_refunds f JOIN plans p ON p.id = f.plan_id
  WHERE f.merchant_id = ? AND f.mode = ? AND f.channel = 'merchant' AND f.status = 'pending'`;

/** The merchant's pending free-look fee refunds, oldest first, up to `limit`, and how many there are. */
export async function listFeeRefundsOwed(
  db: Queryable,
  owner: Actor,
  limit: number,
): Promise<{ count: number; items: FeeRefundOwed[] }> {
  const params = [owner.merchantId, owner.mode];
  const [counted, rows] = await Promise.all([
    db.get<{ count: number | string }>(`SELECT COUNT(*) AS count FROM ${MERCHANT_REFUNDS}`, params),
    db.all<{
      plan_id: string;
      reference_number: string;
      order_id: string;
      amount_cents: number | string;
      currency: string;
      created_at: number | string;
    }>(
      `SELECT f.plan_id, p.reference_number, p.order_id, f.amount_cents, f.currency, f.created_at
       FROM ${MERCHANT_REFUNDS} ORDER BY f.created_at, f.plan_id LIMIT ?`,
      [...params, limit],
    ),
  ]);
  return {
    count: Number(counted?.count ?? 0),
    items: rows.map((row) => ({
      planId: row.plan_id,
      referenceNumber: row.reference_number,
      orderId: row.order_id,
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      createdAt: Number(row.created_at),
    })),
  };
}

// ---- The team's e-mails ----

/** Whether the member wants the e-mails: their own choice, else their role's default (owners yes). */
const WANTS_EMAILS = "(mm.action_emails = 1 OR (mm.action_emails IS NULL AND mm.role = 'owner'))";

/** The member's choice as it applies now, or undefined for no such member of the merchant. */
export async function findMemberActionEmails(
  db: Queryable,
  merchantId: string,
  memberId: string,
): Promise<boolean | undefined> {
  const row = await db.get<{ wants: number | string | boolean }>(
    `SELECT CASE WHEN ${WANTS_EMAILS} THEN 1 ELSE 0 END AS wants FROM merchant_members mm
     WHERE mm.merchant_id = ? AND mm.id = ?`,
    [merchantId, memberId],
  );
  return row && Number(row.wants) === 1;
}

/** The ids of the merchant's members who get the e-mails now (their choice, else their role's default). */
export async function listMembersWantingActionEmails(db: Queryable, merchantId: string): Promise<string[]> {
  const rows = await db.all<{ id: string }>(
    `SELECT mm.id FROM merchant_members mm WHERE mm.merchant_id = ? AND ${WANTS_EMAILS} ORDER BY mm.id`,
    [merchantId],
  );
  return rows.map((row) => row.id);
}

/** Sets the member's own choice. */
export async function setMemberActionEmails(
  db: Queryable,
  merchantId: string,
  memberId: string,
  wanted: boolean,
  at: number,
): Promise<void> {
  await db.run("UPDATE merchant_members SET action_emails = ?, updated_at = ? WHERE merchant_id = ? AND id = ?", [
    wanted ? 1 : 0,
    at,
    merchantId,
    memberId,
  ]);
}

/** A member who gets the e-mails, with what the digest needs of their merchant. */
export interface DigestRecipient {
  memberId: string;
  merchantId: string;
  email: string;
  merchantName: string;
  merchantLive: boolean;
}

interface RecipientRow {
  id: string;
  merchant_id: string;
  email: string;
  merchant_name: string;
  live_at: number | string | null;
}

const toRecipient = (row: RecipientRow): DigestRecipient => ({
  memberId: row.id,
  merchantId: row.merchant_id,
  email: row.email,
  merchantName: row.merchant_name,
  merchantLive: row.live_at !== null,
});

const RECIPIENTS = `merchant_members mm JOIN merchants b ON b.id = mm.merchant_id
  WHERE mm.status = 'active' AND ${WANTS_EMAILS}
    AND NOT EXISTS (SELECT 1 FROM member_action_digests d WHERE d.member_id = mm.id AND d.created_at > ?)`;

/**
 * Active members who want the e-mails and had no digest after `since` (the batching window): up to `limit` of them
 * with ids after `after`, in id order.
 */
export async function listDigestRecipients(
  db: Queryable,
  since: number,
  limit: number,
  after: string,
): Promise<DigestRecipient[]> {
  const rows = await db.all<RecipientRow>(
    `SELECT mm.id, mm.merchant_id, mm.email, b.name AS merchant_name, b.live_at FROM ${RECIPIENTS} AND mm.id > ?
     ORDER BY mm.id LIMIT ?`,
    [since, after, limit],
  );
  return rows.map(toRecipient);
}

/** The recipient row-locked, if they still get the e-mails and still had no digest after `since`. */
export async function lockDigestRecipient(
  tx: Queryable,
  memberId: string,
  since: number,
): Promise<DigestRecipient | undefined> {
  const row = await tx.get<RecipientRow>(
    `SELECT mm.id, mm.merchant_id, mm.email, b.name AS merchant_name, b.live_at FROM ${RECIPIENTS} AND mm.id = ?${forUpdate(tx)}`,
    [since, memberId],
  );
  return row && toRecipient(row);
}

/** Which of `keys` the member was already told about. */
export async function listToldItemKeys(tx: Queryable, memberId: string, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await tx.all<{ item_key: string }>(
    `SELECT item_key FROM member_action_notices WHERE member_id = ? AND item_key IN (${placeholders(keys)})`,
    [memberId, ...keys],
  );
  return new Set(rows.map((row) => row.item_key));
}

export interface NewActionDigest {
  id: string;
  merchantId: string;
  memberId: string;
  mode: Mode;
  /** JSON of what the e-mail says. */
  items: string;
  itemKeys: readonly string[];
  createdAt: number;
}

/** Queues the digest, due now, and records its items as told to the member (a told item is never told again). */
export async function insertActionDigest(tx: Queryable, digest: NewActionDigest): Promise<void> {
  await tx.run(
    `INSERT INTO member_action_digests (id, merchant_id, member_id, mode, items, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
    [digest.id, digest.merchantId, digest.memberId, digest.mode, digest.items, digest.createdAt, digest.createdAt],
  );
  for (const key of digest.itemKeys)
    await tx.run(
      "INSERT INTO member_action_notices (merchant_id, member_id, item_key, digest_id, created_at) VALUES (?, ?, ?, ?, ?)",
      [digest.merchantId, digest.memberId, key, digest.id, digest.createdAt],
    );
}

/** A queued digest, leased for sending, with its recipient's address and choice as they are now. */
export interface DueDigest {
  id: string;
  memberId: string;
  mode: Mode;
  items: string;
  attempts: number;
}

export async function claimDueDigests(db: Database, now: number, leaseMs: number, limit: number): Promise<DueDigest[]> {
  const rows = await claimDueRows<{
    id: string;
    member_id: string;
    mode: Mode;
    items: string;
    attempts: number | string;
  }>(db, {
    table: "member_action_digests",
    dueColumn: "next_attempt_at",
    columns: "id, member_id, mode, items, attempts",
    now,
    leaseMs,
    limit,
  });
  return rows.map((row) => ({
    id: row.id,
    memberId: row.member_id,
    mode: row.mode,
    items: row.items,
    attempts: Number(row.attempts),
  }));
}

/** The digest's recipient as they are when it is sent: undefined once they left, were disabled or opted out. */
export async function findDigestRecipient(db: Queryable, memberId: string): Promise<DigestRecipient | undefined> {
  const row = await db.get<RecipientRow>(
    `SELECT mm.id, mm.merchant_id, mm.email, b.name AS merchant_name, b.live_at
     FROM merchant_members mm JOIN merchants b ON b.id = mm.merchant_id
     WHERE mm.id = ? AND mm.status = 'active' AND ${WANTS_EMAILS}`,
    [memberId],
  );
  return row && toRecipient(row);
}

/** The outcome of a send: sent or skipped for good, pending again from `nextAttemptAt`, or failed after the last. */
export async function recordDigestOutcome(
  db: Queryable,
  id: string,
  outcome: { status: "sent" | "skipped" | "pending" | "failed"; attempts: number; at: number; lastError?: string },
): Promise<void> {
  await db.run(
    `UPDATE member_action_digests SET status = ?, attempts = ?, locked_until = NULL, last_error = ?,
       next_attempt_at = COALESCE(?, next_attempt_at), sent_at = COALESCE(?, sent_at)
     WHERE id = ?`,
    [
      outcome.status,
      outcome.attempts,
      outcome.lastError ?? null,
      outcome.status === "pending" ? outcome.at : null,
      outcome.status === "sent" ? outcome.at : null,
      id,
    ],
  );
}
