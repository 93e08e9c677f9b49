// E-mails to buyers (email_messages, a work table: server/store/work-table.ts) and the columns that hold a buyer's
// address at rest, sealed beside its lookup hash.
import type { Mode } from "../vocabulary/ids.ts";
import type { Payer } from "../vocabulary/plans.ts";
import type { Database, Queryable } from "./database.ts";
import { claimDueRows } from "./work-table.ts";

/**
 * The cap budget an e-mail counts toward (server/domain/emails.ts): welcome e-mails ("confirm") or what a buyer's
 * portal session triggers ("portal"); null for the service's own notices, never capped.
 */
export type CapBudget = "confirm" | "portal";

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
  capBudget: CapBudget | null;
  createdAt: number;
}

/** A message claimed for sending. */
export interface DueEmail {
  id: string;
  merchantId: string;
  mode: Mode;
  template: string;
  planId: string;
  claimId: string | null;
  /** Null once a customer redaction cleared it. */
  recipientSealed: string | null;
  attempts: number;
}

/** What the e-mails say about a plan, read when one is sent. */
export interface EmailPlan {
  referenceNumber: string;
  orderId: string;
  /** The store's own name of the order ("#1001") where it gave one: what the buyer knows the order by. */
  orderName: string | null;
  status: "active" | "voided" | "cancelled";
  currency: string;
  /**
   * Who paid for the protection, and what the buyer paid of its fee: the only fee amount a buyer e-mail shows (not the
   * whole fee, which a merchant-paid or split plan's buyer did not pay).
   */
  payer: Payer;
  buyerFeeCents: number;
  coveredAmountCents: number;
  purchasedAt: number;
  freeLookEndsAt: number;
  cancelledAt: number | null;
  /** False once a customer redaction cleared the buyer's address. */
  hasBuyerEmail: boolean;
  merchantName: string;
  /** Who pays money back to the buyer: Shopify refunds on the original order, other carts' merchants themselves. */
  refundChannel: "shopify" | "merchant";
  /** Who refunds the fee of a free-look cancellation: the fee refund's channel, else refundChannel. */
  feeRefundChannel: "shopify" | "merchant";
  /**
   * The buyer's locale and time zone recorded at confirm (plans.locale, plans.time_zone): the e-mails' language and the
   * zone of their times. Null or absent: English, UTC.
   */
  locale?: string | null;
  timeZone?: string | null;
}

/** What the claim e-mails say about a claim, read when one is sent. */
export interface EmailClaim {
  id: string;
  planId: string;
  /** Its number on its plan (1, 2, … in filing order): with the reference number, its name for the buyer. */
  number: number;
  reason: string;
  description: string;
  status: string;
  amountCents: number;
  currency: string;
  occurredAt: number;
  decisionCode: string | null;
  decisionMessage: string | null;
  decidedAt: number | null;
  /**
   * The decider's note to the buyer: what the decision's timeline entry says after the published sentence
   * (claim-decisions.ts withNote); null when none was given.
   */
  decisionNote: string | null;
  /** What an approved claim is owed: a refund or a replacement (a reship); null before approval. */
  remedy: "refund" | "replacement" | null;
  paidAmountCents: number;
  /** How a paid claim was paid: by the app on Shopify or by the merchant, their reference and note; null before. */
  resolution: { channel: "shopify" | "merchant"; reference: string | null; note: string | null } | null;
  resolvedAt: number | null;
  createdAt: number;
  /** The newest message or status change from anyone but the buyer with a text: what the buyer was last asked. */
  latestRequest: { actor: string; text: string } | null;
}

/** Inserts the message unless one with its dedupe key already exists (a replayed or retried mutation). */
export async function insertEmailOnce(tx: Queryable, message: NewEmailMessage): Promise<void> {
  await tx.run(
    `INSERT INTO email_messages (id, merchant_id, mode, template, plan_id, claim_id, dedupe_key, recipient_sealed, recipient_hash, status, attempts, next_attempt_at, last_error, cap_budget, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
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
      message.capBudget,
      message.createdAt,
    ],
  );
}

/**
 * Serialises, until the transaction ends, every transaction that counts and queues e-mails of this budget for this
 * merchant or this recipient. PostgreSQL: transaction-scoped advisory locks, the merchant's before the recipient's in
 * every transaction (no lock cycle; a transaction queues e-mails of one budget at most); both are sent at once, and
 * statements issued after this call (before awaiting it) run once both are held. SQLite transactions are serialised
 * already.
 */
export async function lockEmailCounts(
  tx: Queryable,
  budget: CapBudget,
  merchantId: string,
  recipientHash: string,
): Promise<void> {
  if (tx.dialect !== "postgres") return;
  const keys = [`email cap ${budget}: merchant ${merchantId}`, `email cap ${budget}: recipient ${recipientHash}`];
  await Promise.all(keys.map((key) => tx.get("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [key])));
}

/**
 * E-mails that spent the budget (a suppressed one spends none: its cap_budget is null) to the recipient since one time
 * and from the merchant since another, both modes,
 * each counted only up to its cap (`upTo`): the caller asks whether a cap is reached, and a count that ran over every
 * e-mail of the window grew with the merchant's volume (bench:shopify: the largest statement of an order).
 */
export async function countQueuedEmails(
  tx: Queryable,
  window: {
    budget: CapBudget;
    recipientHash: string;
    recipientSince: number;
    merchantId: string;
    merchantSince: number;
  },
  upTo: { recipient: number; merchant: number },
): Promise<{ toRecipient: number; fromMerchant: number }> {
  const counts = await tx.get<{ recipient: number | string; merchant: number | string }>(
    `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM email_messages WHERE recipient_hash = ? AND cap_budget = ? AND created_at > ? LIMIT ?) r) AS recipient,
            (SELECT COUNT(*) FROM (SELECT 1 FROM email_messages WHERE merchant_id = ? AND cap_budget = ? AND created_at > ? LIMIT ?) m) AS merchant`,
    [
      window.recipientHash,
      window.budget,
      window.recipientSince,
      upTo.recipient,
      window.merchantId,
      window.budget,
      window.merchantSince,
      upTo.merchant,
    ],
  );
  return { toRecipient: Number(counts!.recipient), fromMerchant: Number(counts!.merchant) };
}

/** An e-mail of a plan as its merchant sees it: never the address. */
export interface PlanEmailRecord {
  id: string;
  template: string;
  status: "pending" | "sent" | "failed" | "skipped" | "suppressed";
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
}

/** The owner's e-mails about one plan, oldest first. */
export async function listPlanEmails(
  db: Queryable,
  owner: { merchantId: string; mode: Mode },
  planId: string,
): Promise<PlanEmailRecord[]> {
  const rows = await db.all<{
    id: string;
    template: string;
    status: PlanEmailRecord["status"];
    last_error: string | null;
    created_at: number | string;
    sent_at: number | string | null;
  }>(
    `SELECT id, template, status, last_error, created_at, sent_at FROM email_messages
      WHERE plan_id = ? AND merchant_id = ? AND mode = ? ORDER BY created_at, id`,
    [planId, owner.merchantId, owner.mode],
  );
  return rows.map((row) => ({
    id: row.id,
    template: row.template,
    status: row.status,
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    sentAt: row.sent_at === null ? null : Number(row.sent_at),
  }));
}

/** Leases up to `limit` pending messages that are due (see claimDueRows). */
export async function claimDueEmails(db: Database, now: number, leaseMs: number, limit: number): Promise<DueEmail[]> {
  const rows = await claimDueRows<{
    id: string;
    merchant_id: string;
    mode: Mode;
    template: string;
    plan_id: string;
    claim_id: string | null;
    recipient_sealed: string | null;
    attempts: number | string;
  }>(db, {
    table: "email_messages",
    dueColumn: "next_attempt_at",
    columns: "id, merchant_id, mode, template, plan_id, claim_id, recipient_sealed, attempts",
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
    claimId: row.claim_id,
    recipientSealed: row.recipient_sealed,
    attempts: Number(row.attempts),
  }));
}

/**
 * A name or an id is one line: the e-mails name it inside their own sentences, so a line break in it (stored before a
 * form normalised it, or chosen by whoever holds the publishable key) cannot start a paragraph of ours.
 */
const oneLine = (text: string) => text.replace(/[\s\u2028\u2029]+/g, " ").trim();

/** The plan with its merchant's name and its fee refund's channel; undefined when it is gone (merchant erased). */
export async function findEmailPlan(db: Queryable, planId: string): Promise<EmailPlan | undefined> {
  const row = await db.get<{
    reference_number: string;
    order_id: string;
    order_name: string | null;
    status: EmailPlan["status"];
    currency: string;
    payer: Payer;
    buyer_fee_cents: number | string;
    covered_amount_cents: number | string;
    purchased_at: number | string;
    free_look_ends_at: number | string;
    cancelled_at: number | string | null;
    customer_email_hash: string | null;
    merchant_name: string;
    shop_domain: string | null;
    fee_refund_channel: EmailPlan["feeRefundChannel"] | null;
    locale: string | null;
    time_zone: string | null;
  }>(
    `SELECT p.reference_number, p.order_id, p.order_name, p.status, p.currency, p.payer, p.buyer_fee_cents,
            p.covered_amount_cents, p.purchased_at, p.free_look_ends_at, p.cancelled_at, p.customer_email_hash, m.name AS merchant_name, m.shop_domain,
            f.channel AS fee_refund_channel, p.locale, p.time_zone
       FROM plans p JOIN merchants m ON m.id = p.merchant_id LEFT JOIN fee_refunds f ON f.plan_id = p.id
      WHERE p.id = ?`,
    [planId],
  );
  if (!row) return undefined;
  return {
    referenceNumber: row.reference_number,
    orderId: oneLine(row.order_id),
    orderName: row.order_name === null ? null : oneLine(row.order_name),
    status: row.status,
    currency: row.currency,
    payer: row.payer,
    buyerFeeCents: Number(row.buyer_fee_cents),
    coveredAmountCents: Number(row.covered_amount_cents),
    purchasedAt: Number(row.purchased_at),
    freeLookEndsAt: Number(row.free_look_ends_at),
    cancelledAt: row.cancelled_at === null ? null : Number(row.cancelled_at),
    hasBuyerEmail: row.customer_email_hash !== null,
    merchantName: oneLine(row.merchant_name),
    refundChannel: row.shop_domain === null ? "merchant" : "shopify",
    feeRefundChannel: row.fee_refund_channel ?? (row.shop_domain === null ? "merchant" : "shopify"),
    locale: row.locale,
    timeZone: row.time_zone,
  };
}

/** The claims.resolution JSON as recordClaimResolution writes it (the fields the e-mails read). */
interface ResolutionColumn {
  channel: "shopify" | "merchant";
  reference?: string | null;
  note?: string | null;
}

/** The note a decision's timeline text carries after its published sentence ("<sentence>\n\n<note>"), if any. */
function noteAfter(text: string, sentence: string): string | null {
  if (!text.startsWith(sentence)) return null;
  return text.slice(sentence.length).trim() || null;
}

/** The claim with what the buyer was last asked (its timeline); undefined when it is gone. */
export async function findEmailClaim(db: Queryable, claimId: string): Promise<EmailClaim | undefined> {
  const row = await db.get<{
    id: string;
    plan_id: string;
    number: number | string;
    reason: string;
    description: string;
    status: string;
    amount_cents: number | string;
    currency: string;
    occurred_at: number | string;
    decision_code: string | null;
    decision_message: string | null;
    decided_at: number | string | null;
    remedy: EmailClaim["remedy"];
    paid_amount_cents: number | string;
    resolution: string | null;
    resolved_at: number | string | null;
    created_at: number | string;
  }>(
    `SELECT id, plan_id, number, reason, description, status, amount_cents, currency, occurred_at, decision_code,
            decision_message, decided_at, remedy, paid_amount_cents, resolution, resolved_at, created_at
       FROM claims WHERE id = ?`,
    [claimId],
  );
  if (!row) return undefined;
  const request = await db.get<{ actor: string; text: string }>(
    `SELECT actor, text FROM claim_timeline
      WHERE claim_id = ? AND actor <> 'buyer' AND kind IN ('message', 'status_changed') AND text <> ''
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [claimId],
  );
  // The decision's own entry: the newest status change to the decided status, written in the decision's transaction.
  const decided =
    row.decision_message === null
      ? undefined
      : await db.get<{ text: string }>(
          `SELECT text FROM claim_timeline WHERE claim_id = ? AND kind = 'status_changed' AND status IN ('approved', 'denied')
            ORDER BY created_at DESC, id DESC LIMIT 1`,
          [claimId],
        );
  const resolution = row.resolution === null ? null : (JSON.parse(row.resolution) as ResolutionColumn);
  return {
    id: row.id,
    planId: row.plan_id,
    number: Number(row.number),
    reason: row.reason,
    description: row.description,
    status: row.status,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    occurredAt: Number(row.occurred_at),
    decisionCode: row.decision_code,
    decisionMessage: row.decision_message,
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
    decisionNote: decided && row.decision_message ? noteAfter(decided.text, row.decision_message) : null,
    remedy: row.remedy,
    paidAmountCents: Number(row.paid_amount_cents),
    resolution: resolution && {
      channel: resolution.channel,
      reference: resolution.reference ?? null,
      note: resolution.note ?? null,
    },
    resolvedAt: row.resolved_at === null ? null : Number(row.resolved_at),
    createdAt: Number(row.created_at),
    latestRequest: request ?? null,
  };
}

/** The buyer's address as the plan stores it; undefined when the plan has none (or it was redacted). */
export async function findPlanRecipient(
  db: Queryable,
  planId: string,
): Promise<{ sealed: string; hash: string } | undefined> {
  const row = await db.get<{ sealed: string | null; hash: string | null }>(
    "SELECT customer_email_sealed AS sealed, customer_email_hash AS hash FROM plans WHERE id = ?",
    [planId],
  );
  return row?.sealed && row.hash ? { sealed: row.sealed, hash: row.hash } : undefined;
}

/**
 * Sends the plan's e-mail of `template` that still waits (pending and not leased to a worker, which may be sending it)
 * to another address instead; false when none waits.
 */
export async function readdressWaitingEmail(
  tx: Queryable,
  planId: string,
  template: string,
  recipient: { sealed: string; hash: string },
  now: number,
): Promise<boolean> {
  const updated = await tx.all(
    `UPDATE email_messages SET recipient_sealed = ?, recipient_hash = ?
     WHERE plan_id = ? AND template = ? AND status = 'pending' AND (locked_until IS NULL OR locked_until <= ?) RETURNING id`,
    [recipient.sealed, recipient.hash, planId, template, now],
  );
  return updated.length > 0;
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
