import type { Logger } from "pino";
import { CircuitState, ConsecutiveBreaker, circuitBreaker, handleAll } from "cockatiel";
import type { Decision, Rate } from "./gcra.ts";
import type { LimitStore } from "./store.ts";

// A circuit breaker between the limiter and Redis (docs/operations.md "Redis and the rate limiter"). Closed: every
// decision asks Redis; a failed or timed-out one is decided in memory. FAILURES_TO_OPEN failures in a row open it:
// from then on no request waits on Redis, this process's memory decides. After retryAfterMs, the next request starts
// one PING in the background (and is itself decided in memory); the PING answering closes the breaker, failing
// reopens it for another retryAfterMs. One line is logged when it opens and one when it closes, whatever happens in
// between.
//
// cockatiel (small, no dependencies, maintained) counts the failures and times the half-open state. Two things are
// ours: cockatiel holds the calls that arrive while its half-open call runs until that call ends — a hung Redis would
// hold them for a command timeout — so while the breaker is not closed we decide in memory without calling it; and
// its half-open call is our PING, never a request's own decision.

/** Failures in a row (errors or command timeouts) that open the breaker. */
export const FAILURES_TO_OPEN = 3;
/** How long the breaker stays open before a PING tests Redis again (REDIS_BREAKER_RETRY_MS). */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

export type BreakerState = "closed" | "open" | "half-open";

const STATE_NAMES: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: "closed",
  [CircuitState.Open]: "open",
  [CircuitState.HalfOpen]: "half-open",
  [CircuitState.Isolated]: "open",
};

export interface BreakerOptions {
  logger: Logger;
  retryAfterMs?: number;
}

/** Decisions on `shared` (Redis) while it answers, on `fallback` (this process's memory) while it does not. */
export function createStoreBreaker(shared: LimitStore, fallback: LimitStore, options: BreakerOptions) {
  const { logger } = options;
  const breaker = circuitBreaker(handleAll, {
    halfOpenAfter: options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS,
    breaker: new ConsecutiveBreaker(FAILURES_TO_OPEN),
  });
  let fallbacks = 0;
  let outage: { since: number; fallbacksBefore: number } | undefined;

  breaker.onBreak((reason) => {
    if (outage) return; // a failed probe: the same outage
    outage = { since: Date.now(), fallbacksBefore: fallbacks };
    const err = "error" in reason ? reason.error : undefined;
    logger.warn(
      { err },
      "rate limiter: Redis unavailable (failing or not answering), deciding in memory until it answers",
    );
  });
  breaker.onReset(() => {
    const { since, fallbacksBefore } = outage!;
    outage = undefined;
    logger.info(
      { outageMs: Date.now() - since, decidedInMemory: fallbacks - fallbacksBefore },
      "rate limiter: Redis answers again, deciding there",
    );
  });

  /** While open: one PING once retryAfterMs has passed (before that cockatiel refuses it at once); never awaited. */
  function probe() {
    if (breaker.state === CircuitState.Open) breaker.execute(() => shared.ping()).catch(() => {});
  }

  return {
    async decide(keys: readonly string[], rates: readonly Rate[], now: number): Promise<Decision> {
      if (breaker.state === CircuitState.Closed) {
        try {
          return await breaker.execute(() => shared.decide(keys, rates, now));
        } catch {
          // Counted by the breaker (it may have opened); this request is decided in memory.
        }
      } else probe();
      fallbacks++;
      return fallback.decide(keys, rates, now);
    },
    state: (): BreakerState => STATE_NAMES[breaker.state],
    /** How many decisions were made in memory because Redis failed or the breaker was open. */
    fallbacks: () => fallbacks,
  };
}

export type StoreBreaker = ReturnType<typeof createStoreBreaker>;
