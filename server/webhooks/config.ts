import type { Logger } from "pino";
import type { Config } from "../config.ts";
import { defaultLeaseMs, type WebhookWorkerOptions } from "./worker.ts";

/** The worker's settings from the environment (WEBHOOK_*), for the embedded worker and `npm run worker`. */
export function webhookWorkerOptions(config: Config): Partial<WebhookWorkerOptions> & { enabled: boolean } {
  return {
    enabled: config.WEBHOOK_WORKER === "on",
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    leaseMs: config.WEBHOOK_LEASE_MS ?? defaultLeaseMs(config.WEBHOOK_TIMEOUT_MS),
    pollMs: config.WEBHOOK_POLL_MS,
    batchSize: config.WEBHOOK_BATCH_SIZE,
    stableId: config.WORKER_ID,
  };
}

/** WEBHOOK_ALLOW_PRIVATE_URLS: whether test-mode endpoints may reach private addresses; a warning at start when on. */
export function allowPrivateWebhookUrls(config: Config, logger: Logger): boolean {
  const allowed = config.WEBHOOK_ALLOW_PRIVATE_URLS === "on";
  if (allowed)
    logger.warn(
      "WEBHOOK_ALLOW_PRIVATE_URLS=on: test-mode webhook endpoints may reach loopback and private addresses (local development only)",
    );
  return allowed;
}
