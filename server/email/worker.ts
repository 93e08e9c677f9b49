// Sends the queued e-mails (email_messages): claims due rows (FOR UPDATE SKIP LOCKED on PostgreSQL, so several
// processes never send one twice; a crashed sender's lease runs out), renders each from the plan as it is now, hands
// it to the transport, and records the outcome. A refused or failed send is retried with backoff, then marked
// failed. A plan voided or cancelled before its welcome e-mail went out is not welcomed ("skipped").
import type { Logger } from "pino";
import type { Database } from "../store/database.ts";
import type { Services } from "../domain/context.ts";
import { getPurchase } from "../domain/purchases.ts";
import type { Mode } from "../domain/ids.ts";
import type { Sealer } from "../secrets/sealer.ts";
import type { CoverageLinks } from "./coverage-link.ts";
import { welcomeProtected } from "./welcome-protected.ts";
import { claimDueRows } from "../store/work-table.ts";
import { createWorker } from "../workers/worker.ts";
import { recordFailedAttempt } from "../workers/failure-recorder.ts";
import type { RetryPolicy } from "../workers/retry-policy.ts";

/** What the worker needs of a nodemailer transporter (tests and the file transport provide the same). */
export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string; html: string; headers?: Record<string, string> }): Promise<{ messageId?: string }>;
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
/** A claimed message is its sender's this long (a send has a 60 s SMTP timeout at most). */
const LEASE_MS = 120_000;

interface MessageRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  template: string;
  plan_id: string;
  recipient_sealed: string;
  attempts: number;
}

export function createEmailWorker(options: EmailWorkerOptions) {
  const { db, services, logger, pollMs = 1_000, batchSize = 20 } = options;

  async function send(row: MessageRow): Promise<void> {
    const actor = { merchantId: row.merchant_id, mode: row.mode };
    try {
      const purchase = await getPurchase(db, actor, row.plan_id, false);
      if (purchase.status !== "active") {
        await db.run("UPDATE email_messages SET status = 'skipped', locked_until = NULL WHERE id = ?", [row.id]);
        return;
      }
      const email = welcomeProtected(purchase, services.settings, options.links.linkFor(services.settings.portalUrl, purchase.referenceNumber));
      // The message id is ours and stable across retries, so a receiver can drop a duplicate after a lost answer.
      const sent = await options.transport.sendMail({ from: options.from, to: options.sealer.open(row.recipient_sealed), ...email, headers: { "X-Service-Message-Id": row.id } });
      await db.run("UPDATE email_messages SET status = 'sent', attempts = ?, sent_at = ?, message_id = ?, locked_until = NULL, last_error = NULL WHERE id = ?", [
        Number(row.attempts) + 1, services.clock(), sent.messageId ?? null, row.id,
      ]);
    } catch (error) {
      const attempts = Number(row.attempts) + 1;
      // An SMTP refusal often quotes the recipient ("550 <ada@example.com>: …"); neither the log nor the row keeps it.
      const { retryInMs, lastError } = recordFailedAttempt(logger, {
        item: "e-mail", fields: { messageId: row.id, template: row.template }, attempts, error, policy: RETRY_POLICY, redact: withoutAddresses,
      });
      await db.run("UPDATE email_messages SET status = ?, attempts = ?, next_attempt_at = ?, locked_until = NULL, last_error = ? WHERE id = ?", [
        retryInMs === undefined ? "failed" : "pending", attempts, services.clock() + (retryInMs ?? 0), lastError, row.id,
      ]);
    }
  }

  /** Claims the due messages and sends them; resolves with how many were attempted. */
  async function runOnce(): Promise<number> {
    const rows = await claimDueRows<MessageRow>(db, {
      table: "email_messages", dueColumn: "next_attempt_at", columns: "id, merchant_id, mode, template, plan_id, recipient_sealed, attempts",
      now: services.clock(), leaseMs: LEASE_MS, limit: batchSize,
    });
    await Promise.all(rows.map(send));
    return rows.length;
  }

  // A full batch means more may be due: the next round runs at once. The sends in flight finish on stop.
  return createWorker({ name: "email", logger, pollMs, runOnce, round: async () => (await runOnce()) === batchSize });
}

export type EmailWorker = ReturnType<typeof createEmailWorker>;

const withoutAddresses = (text: string) => text.replace(/[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g, "[address]");
