import type { Decision, Rate } from "./gcra.ts";

/** Where limiter state lives: the process (memory-store.ts) or Redis shared by every instance (redis-store.ts). */
export interface LimitStore {
  /** Decides `keys` (one rate each) together at `now`: stores new state for every key only if all admit. */
  decide(keys: readonly string[], rates: readonly Rate[], now: number): Promise<Decision>;
  /** The stored TAT of each key (undefined: unseen or expired). For tests and diagnostics. */
  states(keys: readonly string[], now: number): Promise<(number | undefined)[]>;
  /** Resolves when the store answers: the breaker's probe of a store that was failing (breaker.ts). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
