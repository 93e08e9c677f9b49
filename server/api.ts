import type { Logger } from "pino";
import type { Database } from "./store/database.ts";
import type { Services } from "./domain/context.ts";
import { createSealer } from "./secrets/sealer.ts";
import { createHttpApi } from "./http/app.ts";
import { createWebhookWorker, type WebhookWorkerOptions } from "./webhooks/worker.ts";
import type { RateLimitOptions } from "./http/rate-limit.ts";
import { createEmailWorker, type MailTransport } from "./email/worker.ts";
import { coverageLinks } from "./email/coverage-link.ts";
import { sealClearBuyerEmails } from "./domain/buyer-emails.ts";

export interface ProtectionApiOptions {
  db: Database;
  services: Services;
  encryptionKey: Buffer;
  logger: Logger;
  inFlightWaitMs?: number;
  afterSideEffects?: () => void;
  /** The limiter (server/rate-limits/limiter.ts) and TRUST_PROXY; unset: no rate limits. */
  rateLimits?: RateLimitOptions;
  /** The embedded webhook worker: `enabled: false` (WEBHOOK_WORKER=off) when workers run as their own processes. */
  webhooks?: Partial<Omit<WebhookWorkerOptions, "db" | "sealer" | "logger">> & { enabled?: boolean };
  /** The e-mail worker's transport and From; unset: queued e-mails wait for a process that has them. */
  email?: { transport: MailTransport; from: string; enabled?: boolean; pollMs?: number };
}

export const IDEMPOTENCY_PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The protection API, ready to mount: `fetch(Request) => Promise<Response>` for every path under /api/v1,
 * plus the background job it owns (purging idempotency records past their 24 h). The standalone server
 * (server/main.ts) and the Remix app's /api/v1 splat route both use this.
 */
export function createProtectionApi(options: ProtectionApiOptions) {
  const sealer = createSealer(options.encryptionKey);
  const http = createHttpApi({ ...options, sealer });
  const { enabled: webhooksEnabled = true, ...webhookOptions } = options.webhooks ?? {};
  const webhooks = createWebhookWorker({
    clock: options.services.clock, random: options.services.random, resolveHost: options.services.resolveHost,
    allowPrivateWebhookUrls: options.services.settings.allowPrivateWebhookUrls, ...webhookOptions,
    db: options.db, sealer, logger: options.logger,
  });
  const email = options.email && createEmailWorker({
    db: options.db, services: options.services, logger: options.logger, transport: options.email.transport, from: options.email.from,
    links: coverageLinks(options.encryptionKey), sealer, pollMs: options.email.pollMs,
  });
  let purgeTimer: NodeJS.Timeout | undefined;
  let sealingClearEmails: Promise<void> | undefined;
  let stopping = false;
  return {
    /** `env` is what @hono/node-server passes (the Node request, whose socket gives the client IP). */
    fetch: (request: Request, env?: unknown) => http.fetch(request, env),
    routes: http.routes,
    purgeExpiredIdempotencyKeys: http.purgeExpiredIdempotencyKeys,
    /** The webhook delivery worker (started by startBackgroundJobs unless disabled; tests drive runOnce). */
    webhooks,
    /** The e-mail worker, when configured (started by startBackgroundJobs unless disabled; tests drive runOnce). */
    email,
    startBackgroundJobs() {
      if (webhooksEnabled) webhooks.start();
      // Addresses stored before they were sealed are sealed first, so the e-mail worker never reads one in clear.
      sealingClearEmails = sealClearBuyerEmails(options.db, sealer)
        .then(
          (count) => void (count > 0 && options.logger.info({ count }, "sealed the buyer e-mail addresses stored in clear")),
          (error) => options.logger.error({ err: error }, "sealing the buyer e-mail addresses stored in clear failed"),
        )
        .then(() => void (!stopping && options.email?.enabled !== false && email?.start()));
      purgeTimer = setInterval(() => {
        http.purgeExpiredIdempotencyKeys().catch((error) => options.logger.error({ err: error }, "idempotency purge failed"));
      }, IDEMPOTENCY_PURGE_INTERVAL_MS).unref();
    },
    /** Resolves when in-flight webhook deliveries and e-mail sends have finished or been released. */
    async stopBackgroundJobs(graceMs?: number) {
      clearInterval(purgeTimer);
      stopping = true;
      await sealingClearEmails;
      await Promise.all([webhooks.stop(graceMs), email?.stop()]);
    },
  };
}

export type ProtectionApi = ReturnType<typeof createProtectionApi>;
