import type { Logger } from "pino";
import type { Database } from "./store/database.ts";
import type { Services } from "./domain/context.ts";
import { createSealer } from "./secrets/sealer.ts";
import { createHttpApi } from "./http/app.ts";
import { coverageLinks } from "./email/coverage-link.ts";
import { purgeExpired } from "./workers/purges.ts";
import type { RateLimitOptions } from "./http/rate-limit.ts";
import { createBackgroundJobs, type BackgroundJobsOptions } from "./workers/background-jobs.ts";

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
  webhooks?: BackgroundJobsOptions["webhooks"];
  /** The e-mail worker's transport and From; unset: queued e-mails wait for a process that has them. */
  email?: BackgroundJobsOptions["email"];
  /** Which periodic jobs this process runs (PERIODIC_JOBS); default: those of an API process under `auto`. */
  periodic?: BackgroundJobsOptions["periodic"];
}

/**
 * The protection API, ready to mount: `fetch(Request) => Promise<Response>` for every path under /api/v1,
 * plus its background workers (webhook deliveries, e-mails, the idempotency purge). The standalone server
 * (server/main.ts) and the Remix app's /api/v1 splat route both use this.
 */
export function createProtectionApi(options: ProtectionApiOptions) {
  const sealer = createSealer(options.encryptionKey);
  const http = createHttpApi({ ...options, sealer, coverageLinks: coverageLinks(options.encryptionKey) });
  const background = createBackgroundJobs({ ...options, sealer });
  return {
    /** `env` is what @hono/node-server passes (the Node request, whose socket gives the client IP). */
    fetch: (request: Request, env?: unknown) => http.fetch(request, env),
    routes: http.routes,
    purgeExpiredIdempotencyKeys: http.purgeExpiredIdempotencyKeys,
    /** The periodic purge's task (server/workers/purges.ts); resolves to how many went. */
    purgeExpired: () => purgeExpired(options.db, options.services),
    /** The webhook delivery worker (started by startBackgroundJobs unless disabled; tests drive runOnce). */
    webhooks: background.webhooks,
    /** The e-mail worker, when configured (started by startBackgroundJobs unless disabled; tests drive runOnce). */
    email: background.email,
    startBackgroundJobs: background.start,
    /** Resolves when in-flight webhook deliveries and e-mail sends have finished or been released. */
    stopBackgroundJobs: background.stop,
  };
}

export type ProtectionApi = ReturnType<typeof createProtectionApi>;
