// E-mails to buyers, queued in the transaction of what triggers them (the plan's confirm, its free-look cancellation,
// a claim's submission, request for information, decision, payment), sent by the e-mail worker
// (server/email/worker.ts), which renders them from the database at send time. One row per occasion (the dedupe
// key): a replayed or retried mutation never queues a second one. The address comes from the caller (even the page's
// publishable key can name one), so the service caps what it sends, every template together: beyond a cap the e-mail
// is recorded as suppressed and never sent; the mutation itself is not affected.
import { newId } from "./ids.ts";
import type { Actor, Services, Tx } from "./context.ts";
import type { StoredEmail } from "./buyer-emails.ts";
import { countQueuedEmails, findPlanRecipient, insertEmailOnce, lockEmailCounts } from "../store/emails.ts";

export type EmailTemplate =
  | "welcome_protected"
  | "free_look_cancelled"
  | "claim_received"
  | "claim_information_needed"
  | "claim_decided"
  | "claim_paid";

const HOUR_MS = 60 * 60 * 1000;

/** E-mails counted are those queued (not suppressed) within the window before now; both caps count both modes. */
export const EMAIL_CAPS = {
  /** To one address (by its lookup hash), from every merchant together. */
  perRecipient: { limit: 5, windowMs: 24 * HOUR_MS, reason: "over the cap of 5 e-mails per recipient per 24 hours" },
  /** From one merchant. */
  perMerchant: { limit: 500, windowMs: HOUR_MS, reason: "over the cap of 500 e-mails per merchant per hour" },
};

export async function queueEmail(
  tx: Tx,
  services: Services,
  actor: Actor,
  input: EmailOccasion & { recipient: StoredEmail },
): Promise<void> {
  const now = services.clock();
  const suppressedBecause = await capReached(tx, now, actor.merchantId, input.recipient.hash, input.pastRecipientCap);
  await insertEmailOnce(tx, {
    id: newId("msg", now, services.random),
    merchantId: actor.merchantId,
    mode: actor.mode,
    template: input.template,
    planId: input.planId,
    claimId: input.claimId ?? null,
    dedupeKey: [input.template, input.planId, input.claimId, input.occasion].filter(Boolean).join(":"),
    recipientSealed: input.recipient.sealed,
    recipientHash: input.recipient.hash,
    status: suppressedBecause ? "suppressed" : "pending",
    lastError: suppressedBecause ?? null,
    createdAt: now,
  });
}

/** What tells one e-mail of a template apart from another (server/email/worker.ts renders each from it). */
export interface EmailOccasion {
  template: EmailTemplate;
  planId: string;
  /** The claim a claim e-mail is about. */
  claimId?: string;
  /** What makes this e-mail one of several of its template for the claim (e.g. the timeline entry's id). */
  occasion?: string;
  /**
   * Sent even past the per-recipient cap (it still counts toward it): an e-mail caused by the claims team or by a
   * payment, never by whoever holds a key or a portal session, so no caller can aim a series of them at an address.
   */
  pastRecipientCap?: boolean;
}

/** queueEmail to the address the plan holds; nothing when it holds none (none given, or redacted). */
export async function queuePlanEmail(tx: Tx, services: Services, actor: Actor, input: EmailOccasion): Promise<void> {
  const recipient = await findPlanRecipient(tx, input.planId);
  if (recipient) await queueEmail(tx, services, actor, { ...input, recipient });
}

/** Which cap queueing one more e-mail would pass, if any. */
async function capReached(
  tx: Tx,
  now: number,
  merchantId: string,
  recipientHash: string,
  pastRecipientCap = false,
): Promise<string | undefined> {
  // Concurrent confirms would each count before any inserts, and all get under a cap together; so the count and the
  // insert run under a lock on both counts. The count is sent behind the locks without waiting for them (on
  // PostgreSQL the three share a round trip); the database runs it once both are held.
  const { perRecipient, perMerchant } = EMAIL_CAPS;
  const [, queued] = await Promise.all([
    lockEmailCounts(tx, merchantId, recipientHash),
    countQueuedEmails(
      tx,
      {
        recipientHash,
        recipientSince: now - perRecipient.windowMs,
        merchantId,
        merchantSince: now - perMerchant.windowMs,
      },
      { recipient: perRecipient.limit, merchant: perMerchant.limit },
    ),
  ]);
  if (queued.toRecipient >= perRecipient.limit && !pastRecipientCap) return perRecipient.reason;
  if (queued.fromMerchant >= perMerchant.limit) return perMerchant.reason;
  return undefined;
}
