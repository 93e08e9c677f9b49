// What the use cases need from the runtime (server/runtime.ts builds it once per process): the database, time and
// chance and settings, the sealer for stored secrets, the coverage links' key, the rate limiter, the log.
import type { Logger } from "pino";
import type { Database } from "../store/database.ts";
import type { Services } from "../domain/context.ts";
import type { Sealer } from "../secrets/sealer.ts";
import type { CoverageLinks } from "../email/coverage-link.ts";
import type { RateLimitOptions } from "../http/rate-limit.ts";

export interface CoreDeps {
  db: Database;
  services: Services;
  sealer: Sealer;
  coverageLinks: CoverageLinks;
  logger: Logger;
  /** The limiter and TRUST_PROXY; undefined with RATE_LIMITS=off. */
  rateLimits?: RateLimitOptions;
}
