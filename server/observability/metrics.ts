// The process's Prometheus metrics (prom-client's default registry), served by server/observability/probe-server.ts
// on METRICS_PORT. Metrics are looked up before they are created: a process that evaluates this module more than once
// (the test runner evaluates server/ afresh for each test file, while node_modules' prom-client is loaded once) shares
// the one registry.
import client from "prom-client";
import type { Logger } from "pino";
import type { Queryable } from "../store/database.ts";
import { readQueueDepths } from "../store/queue-depths.ts";
import { within } from "./probes.ts";

export const registry = client.register;

function metric<T extends client.Metric>(name: string, create: (name: string) => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create(name);
}

const LABELS = ["method", "route", "status"] as const;

if (!registry.getSingleMetric("process_cpu_seconds_total")) client.collectDefaultMetrics({ register: registry });

/** Labels: method, route (the route's template, e.g. /api/v1/plans/:id; `unmatched` for no route), status. */
export const httpRequests = metric(
  "http_requests_total",
  (name) =>
    new client.Counter({ name, help: "API requests answered, by route template and status", labelNames: LABELS }),
);

export const httpRequestDuration = metric(
  "http_request_duration_seconds",
  (name) =>
    new client.Histogram({
      name,
      help: "Time from an API request's arrival to its response, by route template and status",
      labelNames: LABELS,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

/**
 * Labels: job, failure. A worker's or periodic job's whole round that failed: job = the worker (webhooks, email,
 * digests, purges, settlements, shopify-jobs, …), failure = round. One item's failed attempt: job = the item (e-mail,
 * action digest, job: a Shopify job), failure = retrying or given_up.
 */
export const jobFailures = metric(
  "job_failures_total",
  (name) =>
    new client.Counter({
      name,
      help: "Background work that failed: a worker's whole round, or one item's attempt (retrying or given up)",
      labelNames: ["job", "failure"] as const,
    }),
);

const webhookOutboxBacklog = metric(
  "webhook_outbox_backlog",
  (name) => new client.Gauge({ name, help: "Events written but not fanned out into webhook deliveries yet" }),
);
const webhookQueueDepth = metric(
  "webhook_queue_depth",
  (name) => new client.Gauge({ name, help: "Webhook deliveries not finished: pending or being delivered" }),
);
const webhookOldestDueAge = metric(
  "webhook_queue_oldest_due_age_seconds",
  (name) =>
    new client.Gauge({
      name,
      help: "How long the longest-waiting due webhook work (a due delivery, or an event not fanned out) has waited; 0 if none",
    }),
);
const emailQueueDepth = metric(
  "email_queue_depth",
  (name) => new client.Gauge({ name, help: "Buyer e-mails waiting to be sent" }),
);

/** The route label's value when no route matched. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * Reads the queue gauges at scrape time, at most once per `cacheMs`, so frequent scrapes do not load the database, and
 * one read at a time. A scrape waits for the read at most `timeoutMs`, then answers with the last figures: a database
 * that hangs must not take the process's other metrics down with it.
 */
export function queueGauges({
  db,
  clock = Date.now,
  cacheMs,
  timeoutMs,
  logger,
}: {
  db: () => Queryable;
  clock?: () => number;
  cacheMs: number;
  timeoutMs: number;
  logger: Logger;
}) {
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  const read = async () => {
    const now = clock();
    try {
      const depths = await readQueueDepths(db(), now);
      webhookOutboxBacklog.set(depths.webhookOutboxBacklog);
      webhookQueueDepth.set(depths.webhookDeliveries);
      webhookOldestDueAge.set(
        depths.oldestDueWebhookAt === undefined ? 0 : Math.max(0, now - depths.oldestDueWebhookAt) / 1000,
      );
      emailQueueDepth.set(depths.pendingEmails);
      readAt = now;
    } catch (error) {
      // The scrape still answers, with the last figures; the readiness probe reports the database.
      logger.warn({ err: error }, "could not read the queue depths for the metrics");
    }
  };
  return {
    async refresh(): Promise<void> {
      if (clock() - readAt < cacheMs) return;
      reading ??= read().finally(() => (reading = undefined));
      await within(reading, timeoutMs);
    },
  };
}
