// What the metrics report about the work queues, read at scrape time: a few aggregate reads, each over an index
// (the deliveries' and e-mails' (status, next_attempt_at), the events' seq past the fan-out's watermark).
import type { Queryable } from "./database.ts";

export interface QueueDepths {
  /** Events written but not fanned out into deliveries yet (every webhook worker stopped, or behind). */
  webhookOutboxBacklog: number;
  /** Webhook deliveries not finished: waiting for their attempt or being delivered. */
  webhookDeliveries: number;
  /** Since when the longest-waiting webhook work has been due (epoch ms): a due delivery or an event not fanned out. */
  oldestDueWebhookAt: number | undefined;
  /** Buyer e-mails waiting to be sent. */
  pendingEmails: number;
}

export async function readQueueDepths(db: Queryable, nowMs: number): Promise<QueueDepths> {
  const outbox = await db.get<{ backlog: number | string; oldest: number | string | null }>(
    `SELECT COUNT(*) AS backlog, MIN(created_at) AS oldest FROM events
     WHERE seq > COALESCE((SELECT last_seq FROM webhook_fanout WHERE name = 'events'), 0)`,
  );
  const deliveries = await db.get<{ depth: number | string; oldest_due: number | string | null }>(
    `SELECT COUNT(*) AS depth,
            MIN(CASE WHEN status = 'pending' AND next_attempt_at <= ? THEN next_attempt_at END) AS oldest_due
     FROM webhook_deliveries WHERE status IN ('pending', 'delivering')`,
    [nowMs],
  );
  const emails = await db.get<{ depth: number | string }>(
    "SELECT COUNT(*) AS depth FROM email_messages WHERE status = 'pending'",
  );
  const oldest = [outbox?.oldest, deliveries?.oldest_due].filter((at) => at != null).map(Number);
  return {
    webhookOutboxBacklog: Number(outbox?.backlog ?? 0),
    webhookDeliveries: Number(deliveries?.depth ?? 0),
    oldestDueWebhookAt: oldest.length > 0 ? Math.min(...oldest) : undefined,
    pendingEmails: Number(emails?.depth ?? 0),
  };
}
