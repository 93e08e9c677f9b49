// E-mails to buyers, queued in the transaction of what triggers them (the plan's confirm), sent by the e-mail worker
// (server/email/worker.ts). One row per (template, plan): a replayed or retried confirm never queues a second one.
// The address comes from the caller (even the page's publishable key can name one), so the service caps what it
// sends: beyond a cap the e-mail is recorded as suppressed and never sent; the plan itself is not affected.
import { newId } from "./ids.ts";
import type { Actor, Services, Tx } from "./context.ts";
import type { StoredEmail } from "./buyer-emails.ts";

const EMAIL_TEMPLATES = ["welcome_protected"] as const;
export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];

const HOUR_MS = 60 * 60 * 1000;

/** E-mails counted are those queued (not suppressed) within the window before now; both caps count both modes. */
export const EMAIL_CAPS = {
  /** To one address (by its lookup hash), from every merchant together. */
  perRecipient: { limit: 5, windowMs: 24 * HOUR_MS, reason: "over the cap of 5 e-mails per recipient per 24 hours" },
  /** From one merchant. */
  perMerchant: { limit: 500, windowMs: HOUR_MS, reason: "over the cap of 500 e-mails per merchant per hour" },
};

export async function queueEmail(tx: Tx, services: Services, actor: Actor, input: { template: EmailTemplate; planId: string; recipient: StoredEmail }): Promise<void> {
  const now = services.clock();
  const suppressedBecause = await capReached(tx, now, actor.merchantId, input.recipient.hash);
  await tx.run(
    `INSERT INTO email_messages (id, merchant_id, mode, template, plan_id, recipient_sealed, recipient_hash, status, attempts, next_attempt_at, last_error, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT (template, plan_id) DO NOTHING`,
    [newId("msg", now, services.random), actor.merchantId, actor.mode, input.template, input.planId, input.recipient.sealed, input.recipient.hash,
      suppressedBecause ? "suppressed" : "pending", now, suppressedBecause ?? null, now],
  );
}

/** Which cap queueing one more e-mail would pass, if any. */
async function capReached(tx: Tx, now: number, merchantId: string, recipientHash: string): Promise<string | undefined> {
  // On PostgreSQL concurrent confirms would each count before any inserts, and all get under a cap together; so the
  // count and the insert run under transaction-scoped advisory locks, the merchant's before the recipient's in every
  // transaction (no lock cycle). SQLite transactions are serialised already.
  if (tx.dialect === "postgres") {
    for (const key of [`email cap: merchant ${merchantId}`, `email cap: recipient ${recipientHash}`]) {
      await tx.get("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [key]);
    }
  }
  const { perRecipient, perMerchant } = EMAIL_CAPS;
  const counts = await tx.get<{ recipient: number | string; merchant: number | string }>(
    `SELECT (SELECT COUNT(*) FROM email_messages WHERE recipient_hash = ? AND created_at > ? AND status <> 'suppressed') AS recipient,
            (SELECT COUNT(*) FROM email_messages WHERE merchant_id = ? AND created_at > ? AND status <> 'suppressed') AS merchant`,
    [recipientHash, now - perRecipient.windowMs, merchantId, now - perMerchant.windowMs],
  );
  if (Number(counts!.recipient) >= perRecipient.limit) return perRecipient.reason;
  if (Number(counts!.merchant) >= perMerchant.limit) return perMerchant.reason;
  return undefined;
}
