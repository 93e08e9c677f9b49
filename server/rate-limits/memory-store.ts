import { decide } from "./gcra.ts";
import type { LimitStore } from "./store.ts";

/** How often (by the clock) expired keys are dropped. */
const SWEEP_INTERVAL_MS = 10_000;

/**
 * Limiter state in this process: one TAT per key. A decision is synchronous, so it is atomic across its keys
 * without a lock. Keys whose TAT has passed hold no information (an unseen key behaves the same) and are
 * swept every SWEEP_INTERVAL_MS, so memory stays bounded by the keys active in the last period.
 */
export function createMemoryStore(): LimitStore & { size(): number } {
  const tats = new Map<string, number>();
  let lastSweep = -Infinity;

  function sweep(now: number) {
    lastSweep = now;
    for (const [key, tat] of tats) if (tat <= now) tats.delete(key);
  }

  const read = (key: string, now: number) => {
    const tat = tats.get(key);
    return tat === undefined || tat <= now ? undefined : tat;
  };

  return {
    async decide(keys, rates, now) {
      if (now - lastSweep >= SWEEP_INTERVAL_MS) sweep(now);
      const decision = decide(
        keys.map((key) => read(key, now)),
        now,
        [...rates],
      );
      if (decision.admitted) keys.forEach((key, i) => tats.set(key, decision.outcomes[i].nextTat));
      return decision;
    },
    async states(keys, now) {
      return keys.map((key) => read(key, now));
    },
    async ping() {},
    async close() {
      tats.clear();
    },
    size: () => tats.size,
  };
}
