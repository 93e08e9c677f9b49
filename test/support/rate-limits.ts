// Shared by the rate-limit tests: the backends the same suite runs against, with a random Redis key prefix that
// is deleted afterwards.
import { randomBytes } from "node:crypto";
import pino from "pino";
import { Redis } from "ioredis";
import { createLimiter, type Limiter, type LimiterOptions } from "../../server/rate-limits/limiter.ts";
import { startTestApi, type TestApi } from "./api-server.ts";

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
export type Backend = "memory" | "redis";
export const BACKENDS: Backend[] = ["memory", "redis"];

export const randomPrefix = () => `test-ratelimit:${randomBytes(6).toString("hex")}:`;

/** Deletes every key under a prefix. */
export async function deleteKeys(prefix: string, url = TEST_REDIS_URL) {
  const redis = new Redis(url);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

/** Limiters of one backend on one clock; `close()` closes them and deletes their Redis keys. */
export function limiterFactory(backend: Backend) {
  const prefix = randomPrefix();
  const made: Limiter[] = [];
  return {
    prefix,
    make(options: Partial<LimiterOptions> & Pick<LimiterOptions, "clock">): Limiter {
      const limiter = createLimiter({
        logger: pino({ level: "silent" }),
        // These limiters count: a command past the production 100 ms timeout (250 at once on a loaded CI machine) would
        // fall back to memory and miscount. The timeout and its fallback have their own tests, which pass their own.
        ...(backend === "redis" ? { redisUrl: TEST_REDIS_URL, keyPrefix: prefix, redisCommandTimeoutMs: 5_000 } : {}),
        ...options,
      });
      made.push(limiter);
      return limiter;
    },
    async close() {
      await Promise.all(made.map((limiter) => limiter.close()));
      if (backend === "redis") await deleteKeys(prefix);
    },
  };
}

/**
 * A test API on SQLite whose limits run on `backend` and trust one proxy hop (each test picks its client address with
 * X-Forwarded-For); `close()` also deletes its Redis keys.
 */
export async function startRateLimitedApi(backend: Backend): Promise<TestApi> {
  const prefix = randomPrefix();
  const api = await startTestApi({
    dialect: "sqlite",
    // 5 s per Redis command, as limiterFactory's: these tests count requests, not timeouts.
    rateLimits: {
      trustProxy: 1,
      ...(backend === "redis" ? { redisUrl: TEST_REDIS_URL, keyPrefix: prefix, redisCommandTimeoutMs: 5_000 } : {}),
    },
  });
  return {
    ...api,
    async close() {
      await api.close();
      if (backend === "redis") await deleteKeys(prefix);
    },
  };
}
