import pino, { type Logger } from "pino";
import type { Config } from "./config.ts";
import { openDatabase } from "./store/open.ts";
import { cryptoRandom } from "./domain/ids.ts";
import type { Services } from "./domain/context.ts";
import { createSealer, loadEncryptionKey } from "./secrets/sealer.ts";
import { createProtectionApi } from "./api.ts";
import { allowPrivateWebhookUrls, webhookWorkerOptions } from "./webhooks/config.ts";
import { createLimiter } from "./rate-limits/limiter.ts";
import { createMailTransport } from "./email/transport.ts";
import { periodicJobsPlan } from "./workers/periodic-jobs.ts";
import { defaultEvidenceDirectory, filesystemEvidenceStore } from "./evidence/index.ts";
import { coverageLinks } from "./email/coverage-link.ts";
import { createCore } from "./core/index.ts";

/** Time, chance and settings from configuration: the API process's and `npm run worker`'s. */
export function servicesFrom(config: Config, logger: Logger): Services {
  return {
    clock: Date.now,
    random: cryptoRandom,
    settings: {
      companyName: config.COMPANY_NAME,
      portalUrl: config.PORTAL_URL,
      allowPrivateWebhookUrls: allowPrivateWebhookUrls(config, logger),
      deliveryStalledAfterDays: config.DELIVERY_STALLED_AFTER_DAYS,
    },
    evidence: filesystemEvidenceStore(defaultEvidenceDirectory(config.DATA_DIR)),
  };
}

/** The e-mail worker's settings (SMTP_URL or DATA_DIR/mail, EMAIL_FROM, EMAIL_WORKER, DIGEST_POLL_MS). */
export function emailFrom(config: Config, logger: Logger) {
  return {
    transport: createMailTransport({ smtpUrl: config.SMTP_URL, dataDir: config.DATA_DIR, logger }),
    from: config.EMAIL_FROM,
    enabled: config.EMAIL_WORKER === "on",
    dashboardUrl: config.DASHBOARD_URL,
    digestPollMs: config.DIGEST_POLL_MS,
  };
}

/**
 * The service's parts wired from configuration: what the standalone server and the Remix mount share. The Remix app
 * adds its sales channel's side of the core's ports (`channel`: the Shopify app's payouts that gave up).
 */
export function createRuntime(
  config: Config,
  logger: Logger = pino({ level: config.LOG_LEVEL, base: { service: "protection-api" } }),
  channel: Pick<Services, "channelActions"> = {},
) {
  const db = openDatabase(config.DATABASE_URL);
  const encryption = loadEncryptionKey(config.ENCRYPTION_KEY, config.DATA_DIR);
  if (encryption.created)
    logger.warn(
      { file: encryption.source },
      "created a local encryption key (mode 0600); back it up, or set ENCRYPTION_KEY",
    );
  const services: Services = { ...servicesFrom(config, logger), ...channel };
  const limiter =
    config.RATE_LIMITS === "off"
      ? undefined
      : createLimiter({
          clock: services.clock,
          logger,
          redisUrl: config.REDIS_URL,
          keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
          redisCommandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
          redisRetryMs: config.REDIS_BREAKER_RETRY_MS,
          edge: config.EDGE_LIMITS === "on",
        });
  if (!limiter) logger.warn("RATE_LIMITS=off: every rate limit is disabled (for benchmarks only)");
  const rateLimits = limiter && { limiter, trustProxy: config.TRUST_PROXY };
  const email = emailFrom(config, logger);
  const api = createProtectionApi({
    db,
    services,
    encryptionKey: encryption.key,
    logger,
    rateLimits,
    webhooks: webhookWorkerOptions(config),
    email,
    periodic: {
      plan: periodicJobsPlan(config.PERIODIC_JOBS, "api"),
      role: "api",
      intervalMs: config.PERIODIC_JOBS_INTERVAL_MS,
    },
  });
  const core = createCore({
    db,
    services,
    sealer: createSealer(encryption.key),
    coverageLinks: coverageLinks(encryption.key),
    logger,
    rateLimits,
  });
  return {
    config,
    db,
    services,
    /** The use cases the app calls (server/core/): each owns its transaction. */
    core,
    /** The key secrets are sealed with (webhook signing secrets here; the app's stored shop keys). */
    encryptionKey: encryption.key,
    logger,
    api,
    /** The e-mail worker's transport and From, for what is sent at once (the claims team's sign-in links). */
    mail: { transport: email.transport, from: email.from },
    /** The rate limiter and how many proxies are trusted for the client address; undefined with RATE_LIMITS=off. */
    rateLimits,
    async close() {
      await api.stopBackgroundJobs(config.SHUTDOWN_GRACE_MS);
      // Once the e-mail worker has sent its last message: the SMTP pool's kept-open connections.
      email.transport.close?.();
      await limiter?.close();
      await db.close();
    },
  };
}

export type Runtime = ReturnType<typeof createRuntime>;
