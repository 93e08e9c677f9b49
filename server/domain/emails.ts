// E-mails to buyers, queued in the transaction of what triggers them (the plan's confirm), sent by the e-mail worker
// (server/email/worker.ts). One row per (template, plan): a replayed or retried confirm never queues a second one.
// The address comes from the caller (even the page's publishable key can name one), so the service caps what it
// sends: beyond a cap the e-mail is recorded as suppressed and never sent; the plan itself is not affected.
import { newId } from "./ids.ts";
import type { Actor, Services, Tx } from "./context.ts";
import type { StoredEmail } from "./buyer-emails.ts";
import { countQueuedEmails, insertEmailOnce, lockEmailCounts } from "../store/emails.ts";

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
  input: {
    template: EmailTemplate;
    planId: string;
    /** The claim a claim e-mail is about. */
    claimId?: string;
    /** What makes this e-mail one of several of its template for the claim (e.g. the timeline entry's id). */
    occasion?: string;
    recipient: StoredEmail;
  },
): Promise<void> {
  const now = services.clock();
  const suppressedBecause = await capReached(tx, now, actor.merchantId, input.recipient.hash);
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

/** Which cap queueing one more e-mail would pass, if any. */
async function capReached(tx: Tx, now: number, merchantId: string, recipientHash: string): Promise<string | undefined> {
  // Concurrent confirms would each count before any inserts, and all get under a cap together; so the count and the
  // insert run under a lock on both counts.
  await lockEmailCounts(tx, merchantId, recipientHash);
  const { perRecipient, perMerchant } = EMAIL_CAPS;
  const queued = await countQueuedEmails(tx, {
    recipientHash,
    recipientSince: now - perRecipient.windowMs,
    merchantId,
    merchantSince: now - perMerchant.windowMs,
  });
  if (queued.toRecipient >= perRecipient.limit) return perRecipient.reason;
  if (queued.fromMerchant >= perMerchant.limit) return perMerchant.reason;
  return undefined;
}
