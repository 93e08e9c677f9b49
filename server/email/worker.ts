// Sends the queued e-mails (email_messages): claims due rows (FOR UPDATE SKIP LOCKED on PostgreSQL, so several
// processes never send one twice; a crashed sender's lease runs out), renders each from the plan and claim as they
// are now, hands it to the transport, and records the outcome. A refused or failed send is retried with backoff,
// then marked failed. An e-mail whose occasion no longer holds is not sent ("skipped"): a welcome after a void, an
// information request already answered, anything to an address a customer redaction cleared.
import type { Logger } from "pino";
import type { Database } from "../store/database.ts";
import type { Services } from "../domain/context.ts";
import type { Sealer } from "../secrets/sealer.ts";
import type { CoverageLinks } from "./coverage-link.ts";
import type { EmailTemplate } from "../domain/emails.ts";
import { renderEmail, type EmailTemplateRenderer } from "./layout.ts";
import { welcomeProtected } from "./welcome-protected.ts";
import { freeLookCancelled } from "./free-look-cancelled.ts";
import { claimReceived } from "./claim-received.ts";
import { claimInformationNeeded } from "./claim-information-needed.ts";
import { claimReopened } from "./claim-reopened.ts";
import { claimDecided } from "./claim-decided.ts";
import { claimPaid } from "./claim-paid.ts";
import {
  claimDueEmails,
  findEmailClaim,
  findEmailPlan,
  markEmailSent,
  markEmailSkipped,
  recordEmailFailure,
  type DueEmail,
} from "../store/emails.ts";
import { createWorker } from "../workers/worker.ts";
import { recordFailedAttempt } from "../workers/failure-recorder.ts";
import type { RetryPolicy } from "../workers/retry-policy.ts";

/** What the worker needs of a nodemailer transporter (tests and the file transport provide the same). */
export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    headers?: Record<string, string>;
    /** The texts' Content-Transfer-Encoding: named, nodemailer does not scan each text to choose one. */
    textEncoding?: "quoted-printable" | "base64";
  }): Promise<{ messageId?: string }>;
  /** Ends kept-open connections (an SMTP pool); nothing to end for files. */
  close?(): void;
}

export interface EmailWorkerOptions {
  db: Database;
  services: Services;
  logger: Logger;
  transport: MailTransport;
  /** The From header, e.g. `Purchase Protection <protection@example.com>`. */
  from: string;
  links: CoverageLinks;
  /** Opens the sealed recipient addresses. */
  sealer: Sealer;
  /** Default 1 000 ms; `runOnce` for tests. */
  pollMs?: number;
  batchSize?: number;
}

/** Waits after each failed attempt; after the last one the message is "failed". */
export const EMAIL_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 86_400_000];
const RETRY_POLICY: RetryPolicy = { delaysMs: EMAIL_RETRY_DELAYS_MS, afterLast: "give-up" };

/** Each template renders its e-mail, or nothing when its occasion no longer holds (server/email/layout.ts). */
const TEMPLATES: Record<EmailTemplate, EmailTemplateRenderer> = {
  welcome_protected: welcomeProtected,
  free_look_cancelled: freeLookCancelled,
  claim_received: claimReceived,
  claim_information_needed: claimInformationNeeded,
  claim_reopened: claimReopened,
  claim_decided: claimDecided,
  claim_paid: claimPaid,
};

/** A claimed message is its sender's this long (a send has a 60 s SMTP timeout at most). */
const LEASE_MS = 120_000;

export function createEmailWorker(options: EmailWorkerOptions) {
  const { db, services, logger, pollMs = 1_000, batchSize = 20 } = options;

  async function send(message: DueEmail): Promise<void> {
    try {
      const email = await render(message);
      if (!email || message.recipientSealed === null) {
        await markEmailSkipped(db, message.id);
        return;
      }
      // The message id is ours and stable across retries, so a receiver can drop a duplicate after a lost answer.
      const sent = await options.transport.sendMail({
        from: options.from,
        to: options.sealer.open(message.recipientSealed),
        ...email,
        headers: { "X-Service-Message-Id": message.id },
        // The five buyer languages write in Latin letters, for which nodemailer's scan of the whole HTML and text
        // (twice per part) picks quoted-printable anyway.
        textEncoding: "quoted-printable",
      });
      await markEmailSent(db, message.id, {
        attempts: message.attempts + 1,
        at: services.clock(),
        messageId: sent.messageId ?? null,
      });
    } catch (error) {
      const attempts = message.attempts + 1;
      // An SMTP refusal often quotes the recipient ("550 <ada@example.com>: …"); neither the log nor the row keeps it.
      const { retryInMs, lastError } = recordFailedAttempt(logger, {
        item: "e-mail",
        fields: { messageId: message.id, template: message.template },
        attempts,
        error,
        policy: RETRY_POLICY,
        redact: withoutAddresses,
      });
      await recordEmailFailure(db, message.id, {
        status: retryInMs === undefined ? "failed" : "pending",
        attempts,
        nextAttemptAt: services.clock() + (retryInMs ?? 0),
        lastError,
      });
    }
  }

  /** The e-mail as the database reads now; undefined when its occasion no longer holds. */
  async function render(message: DueEmail) {
    const template = TEMPLATES[message.template as EmailTemplate];
    if (!template) throw new Error(`no e-mail template '${message.template}'`);
    const plan = await findEmailPlan(db, message.planId);
    // A redacted plan (its address cleared) gets no more e-mail, whatever the template.
    if (!plan || !plan.hasBuyerEmail) return undefined;
    const claim = message.claimId === null ? undefined : await findEmailClaim(db, message.claimId);
    if (message.claimId !== null && claim?.planId !== message.planId) return undefined;
    const context = {
      plan,
      claim,
      settings: services.settings,
      // Good for 180 days from this e-mail (server/email/coverage-link.ts); a claim e-mail's opens on the claim.
      coverageLink: options.links.linkFor(
        services.settings.portalUrl,
        plan.referenceNumber,
        services.clock(),
        claim?.number,
      ),
    };
    const content = template(context);
    return content && renderEmail(content, context);
  }

  /** Claims the due messages and sends them; resolves with how many were attempted. */
  async function runOnce(): Promise<number> {
    const messages = await claimDueEmails(db, services.clock(), LEASE_MS, batchSize);
    await Promise.all(messages.map(send));
    return messages.length;
  }

  // A full batch means more may be due: the next round runs at once. The sends in flight finish on stop.
  return createWorker({ name: "email", logger, pollMs, runOnce, round: async () => (await runOnce()) === batchSize });
}

export type EmailWorker = ReturnType<typeof createEmailWorker>;

export const withoutAddresses = (text: string) => text.replace(/[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g, "[address]");
