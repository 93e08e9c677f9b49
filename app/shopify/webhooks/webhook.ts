// What a handled webhook topic is: Shopify's payload for it (typed from Shopify's documented shape) and the named job
// it feeds, with what that job keeps of the payload. app/shopify/webhooks.server.ts receives every topic this way.
import type { JobKind, JobPayloads } from "../named-jobs.ts";
import type { Sealer } from "../../../server/index.ts";

/** The keyed hash a job payload may keep in place of personal data it needs only to compare (a shipping address). */
export type PayloadKeys = Pick<Sealer, "hash">;

export interface TopicDefinition<Topic extends string, Payload, Kind extends JobKind> {
  /** As in X-Shopify-Topic and shopify.app.toml. */
  topic: Topic;
  job: Kind;
  /** What the job keeps: only what it needs (webhook payloads carry customer data). */
  jobPayload(payload: Payload, keys: PayloadKeys): JobPayloads[Kind];
  /** What the job can be found by while it is pending (an order's id). */
  subject?(payload: Payload): string;
}

/** A topic as the receiver sees it: the payload is the verified body, read as the topic's documented shape. */
export interface HandledWebhook<Topic extends string = string> {
  topic: Topic;
  job: JobKind;
  jobPayload(payload: unknown, keys: PayloadKeys): unknown;
  subject?(payload: unknown): string;
}

/**
 * The one place the body of a webhook is taken as its topic's shape: authenticate.webhook has checked it is
 * Shopify's (HMAC), and Shopify sends each topic in its documented shape.
 */
export function handledWebhook<Topic extends string, Payload, Kind extends JobKind>(
  definition: TopicDefinition<Topic, Payload, Kind>,
): HandledWebhook<Topic> {
  return definition as HandledWebhook<Topic>;
}
