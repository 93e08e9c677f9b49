export {
  ProtectionClient,
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT_MS,
  SDK_VERSION,
  type ProtectionClientOptions,
} from "./client.ts";
export {
  ServiceError,
  ServiceValidationError,
  ServiceHttpError,
  ServiceRateLimitError,
  type ServiceHttpErrorFields,
} from "./errors.ts";
export {
  DEFAULT_RETRY,
  shouldRetry,
  parseRetryAfter,
  retryDelayMs,
  type RetryOptions,
  type AttemptOutcome,
} from "./retry.ts";
export { IDEMPOTENCY_KEY_PATTERN } from "./idempotency.ts";
export { canonicalJson } from "./canonical-json.ts";
export {
  verifyWebhook,
  parseSignatureHeader,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  Webhooks,
  type VerifyWebhookOptions,
} from "./webhooks.ts";
export { DISCLOSURE_PHRASE, Headless } from "./resources/headless.ts";
export { Offers } from "./resources/offers.ts";
export { Refunds } from "./resources/refunds.ts";
export { Shipments } from "./resources/shipments.ts";
export { Claims, Pages, Purchases } from "./resources/lists.ts";
export { Events } from "./resources/events.ts";
export { Settlements } from "./resources/settlements.ts";
export { Programs } from "./resources/programs.ts";
export { WebhookEndpoints } from "./resources/webhook-endpoints.ts";
export { Merchants } from "./resources/merchants.ts";
export type { FetchLike, Query, QueryValue } from "./request.ts";
export type { EitherCase, CamelCaseKeys } from "./casing.ts";
export type * from "./types.ts";
export type * from "./responses.ts";
