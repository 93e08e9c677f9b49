// The team's digest of what needs the merchant (server/domain/action-digests.ts composes it): each round queues the
// digests now due, then sends the queued ones through the mail transport — to the member's address as it is at the
// send, and only while they still want it (else "skipped"). A refused send is retried with the e-mail worker's
// backoff, then "failed". The Subject is fixed words; the business's name is inert text (notice.ts), and the items
// are our own words (no endpoint URL, order id or error text: ActionItem.brief).
import type { Logger } from "pino";
import type { Database } from "../store/database.ts";
import type { Services } from "../domain/context.ts";
import type { ActionKind } from "../domain/merchant-actions.ts";
import { composeActionDigests, DIGEST_INTERVAL_MS, type DigestContent } from "../domain/action-digests.ts";
import {
  claimDueDigests,
  findDigestRecipient,
  recordDigestOutcome,
  type DueDigest,
} from "../store/merchant-actions.ts";
import { inertCallerText, renderNotice, type NoticeBlock, type RenderedNotice } from "./notice.ts";
import { EMAIL_RETRY_DELAYS_MS, withoutAddresses, type MailTransport } from "./worker.ts";
import { createWorker } from "../workers/worker.ts";
import { recordFailedAttempt } from "../workers/failure-recorder.ts";
import { HOUR_MS } from "../vocabulary/time.ts";
import { DIGEST_POLL_MS } from "../config.ts";

export const ACTION_DIGEST_SUBJECT = "What needs you on the Purchase Protection dashboard";

const KIND_HEADINGS: Record<ActionKind, string> = {
  claim_payout: "Approved claims to refund or replace",
  fee_refund: "Protection fees to refund",
  webhook_endpoint: "Failing webhook endpoints",
  shopify_payout: "Shopify payouts that gave up",
  go_live: "Go-live steps left",
};

export function renderActionDigest(input: {
  merchantName: string;
  content: DigestContent;
  dashboardUrl: string;
}): RenderedNotice {
  const { content } = input;
  const blocks: NoticeBlock[] = [
    `New for the ${inertCallerText(input.merchantName)} team${content.mode === "test" ? " (test data)" : ""}:`,
  ];
  for (const kind of Object.keys(KIND_HEADINGS) as ActionKind[]) {
    const items = content.newItems.filter((item) => item.kind === kind);
    if (items.length === 0) continue;
    const open = content.open.find((group) => group.kind === kind)?.count ?? items.length;
    blocks.push(`${KIND_HEADINGS[kind]} (${items.length} new, ${open} in all):`);
    for (const item of items) blocks.push(`- ${item.brief}`);
  }
  blocks.push(
    { label: "Open Needs your action on the dashboard", href: input.dashboardUrl },
    `You get at most one of these e-mails every ${DIGEST_INTERVAL_MS / HOUR_MS} hours, and only when something new needs you. To stop them, untick "E-mail me what needs action" under Needs your action on the dashboard's overview.`,
  );
  return renderNotice(ACTION_DIGEST_SUBJECT, blocks);
}

export interface ActionDigestWorkerOptions {
  db: Database;
  services: Services;
  logger: Logger;
  transport: MailTransport;
  from: string;
  /** The standalone dashboard's address (DASHBOARD_URL): the e-mail's link. */
  dashboardUrl: string;
  /** Default DIGEST_POLL_MS. */
  pollMs?: number;
  batchSize?: number;
}

const LEASE_MS = 120_000;

export function createActionDigestWorker(options: ActionDigestWorkerOptions) {
  const { db, services, logger, pollMs = DIGEST_POLL_MS, batchSize = 20 } = options;
  const policy = { delaysMs: EMAIL_RETRY_DELAYS_MS, afterLast: "give-up" as const };

  async function send(digest: DueDigest): Promise<void> {
    const attempts = digest.attempts + 1;
    try {
      const recipient = await findDigestRecipient(db, digest.memberId);
      if (!recipient) {
        await recordDigestOutcome(db, digest.id, {
          status: "skipped",
          attempts: digest.attempts,
          at: services.clock(),
        });
        return;
      }
      const rendered = renderActionDigest({
        merchantName: recipient.merchantName,
        content: JSON.parse(digest.items) as DigestContent,
        dashboardUrl: options.dashboardUrl,
      });
      await options.transport.sendMail({
        from: options.from,
        to: recipient.email,
        ...rendered,
        headers: { "X-Service-Message-Id": digest.id },
      });
      await recordDigestOutcome(db, digest.id, { status: "sent", attempts, at: services.clock() });
    } catch (error) {
      const { retryInMs, lastError } = recordFailedAttempt(logger, {
        item: "action digest",
        fields: { digestId: digest.id },
        attempts,
        error,
        policy,
        redact: withoutAddresses,
      });
      await recordDigestOutcome(db, digest.id, {
        status: retryInMs === undefined ? "failed" : "pending",
        attempts,
        at: services.clock() + (retryInMs ?? 0),
        lastError,
      });
    }
  }

  /** Queues the digests now due, then sends the queued ones; resolves with how many were sent or tried. */
  async function runOnce(): Promise<number> {
    await composeActionDigests(db, services);
    const due = await claimDueDigests(db, services.clock(), LEASE_MS, batchSize);
    await Promise.all(due.map(send));
    return due.length;
  }

  return createWorker({
    name: "digests",
    logger,
    pollMs,
    runOnce,
    round: async () => (await runOnce()) === batchSize,
  });
}
