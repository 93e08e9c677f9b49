// E-mails to buyers, queued in the transaction of what triggers them (the plan's confirm, its free-look cancellation,
// a claim's submission, request for information, decision, payment), sent by the e-mail worker
// (server/email/worker.ts), which renders them from the database at send time. One row per occasion (the dedupe
// key): a replayed or retried mutation never queues a second one. The address comes from the caller (even the page's
// publishable key can name one), so the service caps what an outsider can make it send — each kind of trigger within
// a budget of its own, so that spending one starves no other —, and never what it sends of its own accord (the claims
// team's requests and decisions, payments): beyond a cap the e-mail is recorded as suppressed with the cap's reason
// (the merchant sees it on the purchase) and never sent; the mutation itself is not affected.
import { newId } from "./ids.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { StoredEmail } from "./buyer-emails.ts";
import {
  countQueuedEmails,
  findPlanRecipient,
  insertEmailOnce,
  listPlanEmails,
  lockEmailCounts,
} from "../store/emails.ts";
import type { CapBudget, PlanEmailRecord } from "../store/emails.ts";
import { DAY_MS, HOUR_MS } from "../vocabulary/time.ts";

export type { CapBudget };

export type EmailTemplate =
  | "welcome_protected"
  | "free_look_cancelled"
  | "claim_received"
  | "claim_information_needed"
  | "claim_reopened"
  | "claim_decided"
  | "claim_paid";

export interface EmailCap {
  limit: number;
  windowMs: number;
  /** What the suppressed e-mail records (last_error) and the merchant reads. */
  reason: string;
}

/**
 * The caps of each budget, over the e-mails of that budget queued (not suppressed) within the window before now, both
 * modes together: per recipient (by the address's lookup hash, from every merchant together) and per merchant.
 */
export const EMAIL_CAPS: Record<CapBudget, Record<"perRecipient" | "perMerchant", EmailCap>> = {
  /** Welcome e-mails: anyone holding the page's publishable key confirms, naming any address. */
  confirm: {
    perRecipient: {
      limit: 5,
      windowMs: DAY_MS,
      reason: "over the cap of 5 welcome e-mails per recipient per 24 hours",
    },
    perMerchant: { limit: 500, windowMs: HOUR_MS, reason: "over the cap of 500 welcome e-mails per merchant per hour" },
  },
  /**
   * What a buyer's portal session sends: a free-look cancellation, a claim's receipt and the decision its filing's
   * rules make at once (a filing may send two). A session is made from a confirmed plan, so whoever confirms can.
   */
  portal: {
    perRecipient: {
      limit: 10,
      windowMs: DAY_MS,
      reason: "over the cap of 10 e-mails from portal actions per recipient per 24 hours",
    },
    perMerchant: {
      limit: 500,
      windowMs: HOUR_MS,
      reason: "over the cap of 500 e-mails from portal actions per merchant per hour",
    },
  },
};

/**
 * The budget each template counts toward by default; null: the service's own notice, sent whatever the caps (no
 * caller can aim one at an address: the claims team asks and decides, a payment is made once per claim).
 */
const BUDGET_OF_TEMPLATE: Record<EmailTemplate, CapBudget | null> = {
  welcome_protected: "confirm",
  free_look_cancelled: "portal",
  claim_received: "portal",
  claim_information_needed: null,
  claim_reopened: null,
  claim_decided: null,
  claim_paid: null,
};

export async function queueEmail(
  tx: Tx,
  services: Services,
  actor: Actor,
  input: EmailOccasion & { recipient: StoredEmail },
): Promise<void> {
  const now = services.clock();
  const budget = input.capBudget === undefined ? BUDGET_OF_TEMPLATE[input.template] : input.capBudget;
  const suppressedBecause = budget && (await capReached(tx, now, budget, actor.merchantId, input.recipient.hash));
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
    // A suppressed e-mail spends no budget: kept out of the budget's index range, so that counting a spent cap reads
    // at most the cap's rows however many were held back after it (not every suppressed row of the hour).
    capBudget: suppressedBecause ? null : budget,
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
  /** The budget it counts toward when not its template's (a decision its filing's rules made: the portal's). */
  capBudget?: CapBudget | null;
}

/** queueEmail to the address the plan holds; nothing when it holds none (none given, or redacted). */
export async function queuePlanEmail(tx: Tx, services: Services, actor: Actor, input: EmailOccasion): Promise<void> {
  const recipient = await findPlanRecipient(tx, input.planId);
  if (recipient) await queueEmail(tx, services, actor, { ...input, recipient });
}

/** Which cap of the budget queueing one more e-mail would pass, if any. */
async function capReached(
  tx: Tx,
  now: number,
  budget: CapBudget,
  merchantId: string,
  recipientHash: string,
): Promise<string | undefined> {
  // Concurrent confirms would each count before any inserts, and all get under a cap together; so the count and the
  // insert run under a lock on both counts. The count is sent behind the locks without waiting for them (on
  // PostgreSQL the three share a round trip); the database runs it once both are held.
  const { perRecipient, perMerchant } = EMAIL_CAPS[budget];
  const [, queued] = await Promise.all([
    lockEmailCounts(tx, budget, merchantId, recipientHash),
    countQueuedEmails(
      tx,
      {
        budget,
        recipientHash,
        recipientSince: now - perRecipient.windowMs,
        merchantId,
        merchantSince: now - perMerchant.windowMs,
      },
      { recipient: perRecipient.limit, merchant: perMerchant.limit },
    ),
  ]);
  if (queued.toRecipient >= perRecipient.limit) return perRecipient.reason;
  if (queued.fromMerchant >= perMerchant.limit) return perMerchant.reason;
  return undefined;
}

/** An e-mail to a purchase's buyer as the dashboard shows it: what, when, and what became of it. */
export interface PurchaseEmail {
  id: string;
  template: EmailTemplate;
  status: PlanEmailRecord["status"];
  /** The cap that held it back (status suppressed), else null. */
  suppressedBecause: string | null;
  queuedAt: string;
  sentAt: string | null;
}

/** The e-mails about one of the actor's purchases, oldest first; none for another merchant's or mode's. */
export async function listPurchaseEmails(db: Tx, actor: Actor, purchaseId: string): Promise<PurchaseEmail[]> {
  return (await listPlanEmails(db, actor, purchaseId)).map((record) => ({
    id: record.id,
    template: record.template as EmailTemplate,
    status: record.status,
    suppressedBecause: record.status === "suppressed" ? record.lastError : null,
    queuedAt: iso(record.createdAt),
    sentAt: record.sentAt === null ? null : iso(record.sentAt),
  }));
}
