// GCRA (the generic cell rate algorithm): a limit of `limit` requests per `periodMs` admits one request every
// periodMs/limit on average and bursts of up to `limit`. Each key stores one number, its theoretical arrival time
// (TAT). Unlike a fixed window there is no boundary where a 2× burst gets through: after a full burst the next
// request is admitted exactly one interval later, and `limit` requests again only after a whole period.
//
// Pure functions of (state, now, rate): the memory store runs them directly, the Redis store's Lua script
// (redis-store.ts) repeats the same arithmetic in the same order and hands back the states it read, from which
// `decide` recomputes the outcome, so both backends report identical decisions.

export interface Rate {
  limit: number;
  periodMs: number;
}

export interface KeyOutcome {
  admitted: boolean;
  /** The TAT to store when the whole decision admits (unchanged when this key rejects). */
  nextTat: number;
  /** Requests this key still admits right now (after this one, when admitted). */
  remaining: number;
  /** Milliseconds until this key is back to its full quota. */
  resetMs: number;
  /** Milliseconds until this key admits one request (0 when it admits now). */
  retryAfterMs: number;
}

export interface Decision {
  admitted: boolean;
  outcomes: KeyOutcome[];
  /** Milliseconds until every key of the decision admits again (0 when admitted). */
  retryAfterMs: number;
}

/**
 * The emission interval in whole milliseconds, rounded up, and the window it implies (`limit` intervals). Whole
 * numbers keep the arithmetic exact (no float drift letting one request too few or too many through); every
 * limit of the spec divides evenly, so for them the window is exactly the period.
 */
export function schedule(rate: Rate): { interval: number; window: number } {
  const interval = Math.ceil(rate.periodMs / rate.limit);
  return { interval, window: interval * rate.limit };
}

/** One key's verdict. `tat` is the stored TAT, or undefined for an unseen (or expired) key. */
export function gcra(tat: number | undefined, now: number, rate: Rate): KeyOutcome {
  const { interval, window } = schedule(rate);
  const base = tat === undefined || tat < now ? now : tat;
  const next = base + interval;
  const allowAt = next - window;
  if (now < allowAt)
    return { admitted: false, nextTat: base, remaining: 0, resetMs: base - now, retryAfterMs: allowAt - now };
  return {
    admitted: true,
    nextTat: next,
    remaining: Math.floor((now - allowAt) / interval),
    resetMs: next - now,
    retryAfterMs: 0,
  };
}

/** Several keys decided together: admitted only if every key admits; a rejection consumes nothing from any key. */
export function decide(tats: (number | undefined)[], now: number, rates: Rate[]): Decision {
  const outcomes = rates.map((rate, i) => gcra(tats[i], now, rate));
  const admitted = outcomes.every((outcome) => outcome.admitted);
  return { admitted, outcomes, retryAfterMs: Math.max(0, ...outcomes.map((outcome) => outcome.retryAfterMs)) };
}
