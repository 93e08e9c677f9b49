import type { Logger } from "pino";
import type { Database } from "./store/database.ts";
import type { Services } from "./domain/context.ts";
import { createSealer } from "./secrets/sealer.ts";
import { createHttpApi } from "./http/app.ts";

export interface ProtectionApiOptions {
  db: Database;
  services: Services;
  encryptionKey: Buffer;
  logger: Logger;
  inFlightWaitMs?: number;
  afterSideEffects?: () => void;
}

export const IDEMPOTENCY_PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The protection API, ready to mount: `fetch(Request) => Promise<Response>` for every path under /api/v1,
 * plus the background job it owns (purging idempotency records past their 24 h). The standalone server
 * (server/main.ts) and the Remix app's /api/v1 splat route both use this.
 */
export function createProtectionApi(options: ProtectionApiOptions) {
  const http = createHttpApi({ ...options, sealer: createSealer(options.encryptionKey) });
  let purgeTimer: NodeJS.Timeout | undefined;
  return {
    fetch: (request: Request) => http.fetch(request),
    routes: http.routes,
    purgeExpiredIdempotencyKeys: http.purgeExpiredIdempotencyKeys,
    startBackgroundJobs() {
      purgeTimer = setInterval(() => {
        http.purgeExpiredIdempotencyKeys().catch((error) => options.logger.error({ err: error }, "idempotency purge failed"));
      }, IDEMPOTENCY_PURGE_INTERVAL_MS).unref();
    },
    stopBackgroundJobs() {
      clearInterval(purgeTimer);
    },
  };
}

export type ProtectionApi = ReturnType<typeof createProtectionApi>;
