import type { Logger } from "pino";
import type { Decision } from "./gcra.ts";
import { policyKey, type Identity, type LimitPolicy, type RateLimitRule } from "./policies.ts";
import { createMemoryStore } from "./memory-store.ts";
import { addressBucket } from "./address-bucket.ts";
import { createRedisStore } from "./redis-store.ts";
import { createStoreBreaker } from "./breaker.ts";
import type { LimitStore } from "./store.ts";

export interface LimiterOptions {
  clock: () => number;
  logger: Logger;
  /** Redis shared by every instance; unset: this process's memory. */
  redisUrl?: string;
  /** Prefix of the Redis keys (default `ratelimit:`). */
  keyPrefix?: string;
  /** How long a Redis command may take before it has failed (ms; default DEFAULT_COMMAND_TIMEOUT_MS). */
  redisCommandTimeoutMs?: number;
  /** While Redis is failing, how long before a PING tests it again (ms; default DEFAULT_RETRY_AFTER_MS). */
  redisRetryMs?: number;
  /** false drops the edge-WAF policies (EDGE_LIMITS=off). */
  edge?: boolean;
  /** Test seam: the stores to use instead of creating them. */
  stores?: { primary: LimitStore; fallback?: LimitStore };
}

/** One policy's part of a verdict (for the RateLimit headers). */
export interface PolicyState {
  policy: LimitPolicy;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
  admitted: boolean;
}

export interface Verdict {
  admitted: boolean;
  /** Milliseconds until a retry can succeed (0 when admitted). */
  retryAfterMs: number;
  /** The policies that applied, in rule order (a policy keyed by something the request lacks does not apply). */
  policies: PolicyState[];
}

/**
 * Decides requests against the rules of policies.ts. With REDIS_URL the state is in Redis (shared by every
 * instance); when Redis fails or does not answer, the decision is made in memory instead — the request is never
 * failed because of the limiter — and a circuit breaker (breaker.ts) keeps requests off Redis until it answers again.
 */
export function createLimiter(options: LimiterOptions) {
  const { clock, logger } = options;
  const memory = options.stores?.fallback ?? createMemoryStore();
  const primary =
    options.stores?.primary ??
    (options.redisUrl
      ? createRedisStore({
          url: options.redisUrl,
          prefix: options.keyPrefix,
          commandTimeoutMs: options.redisCommandTimeoutMs,
        })
      : memory);
  const breaker =
    primary === memory
      ? undefined
      : createStoreBreaker(primary, memory, { logger, retryAfterMs: options.redisRetryMs });
  const edge = options.edge ?? true;

  const decide = (keys: string[], rates: LimitPolicy[], now: number): Promise<Decision> =>
    (breaker ?? memory).decide(keys, rates, now);

  /** The policies of a rule that are in force here (edge ones only while edge limits are on). */
  const policiesOf = (rule: RateLimitRule): LimitPolicy[] => rule.policies.filter((policy) => edge || !policy.edge);

  return {
    policiesOf,
    async check(rule: RateLimitRule, identity: Identity): Promise<Verdict> {
      // Every per-IP limiter decides here: the client address counts by its bucket (an IPv6 client by its /64).
      const bucketed = identity.ip === undefined ? identity : { ...identity, ip: addressBucket(identity.ip) };
      const applied: { policy: LimitPolicy; key: string }[] = [];
      for (const policy of policiesOf(rule)) {
        const key = policyKey(policy, bucketed);
        if (key !== undefined) applied.push({ policy, key });
      }
      if (applied.length === 0) return { admitted: true, retryAfterMs: 0, policies: [] };
      const decision = await decide(
        applied.map((a) => a.key),
        applied.map((a) => a.policy),
        clock(),
      );
      return {
        admitted: decision.admitted,
        retryAfterMs: decision.retryAfterMs,
        policies: applied.map(({ policy }, i) => ({ policy, ...decision.outcomes[i] })),
      };
    },
    /** How many decisions fell back to memory since start. */
    fallbacks: () => breaker?.fallbacks() ?? 0,
    /** The Redis breaker's state (closed without Redis). */
    breakerState: () => breaker?.state() ?? "closed",
    stores: { primary, memory },
    async close() {
      await primary.close();
      if (primary !== memory) await memory.close();
    },
  };
}

export type Limiter = ReturnType<typeof createLimiter>;
