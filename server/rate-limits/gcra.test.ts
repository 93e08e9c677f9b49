import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { decide, gcra, type Rate } from "./gcra.ts";

/** Runs `count` requests of one key at `now`, returning the TAT after them and how many were admitted. */
function burst(rate: Rate, now: number, count: number, tat?: number) {
  let admitted = 0;
  for (let i = 0; i < count; i++) {
    const outcome = gcra(tat, now, rate);
    if (outcome.admitted) {
      admitted++;
      tat = outcome.nextTat;
    }
  }
  return { tat, admitted };
}

describe("GCRA", () => {
  const rate = { limit: 10, periodMs: 60_000 };

  it("admits a burst of exactly the limit, then rejects with the delay until one interval has passed", () => {
    const { tat, admitted } = burst(rate, 0, 10);
    assert.equal(admitted, 10);
    const rejected = gcra(tat, 0, rate);
    assert.equal(rejected.admitted, false);
    assert.equal(rejected.remaining, 0);
    assert.equal(rejected.retryAfterMs, 6_000);
    assert.equal(rejected.nextTat, tat, "a rejection leaves the state as it was");
    assert.equal(gcra(tat, 5_999, rate).admitted, false);
    assert.equal(gcra(tat, 6_000, rate).admitted, true);
  });

  it("counts remaining down and reports the time until the quota is whole", () => {
    const first = gcra(undefined, 1_000, rate);
    assert.deepEqual({ remaining: first.remaining, resetMs: first.resetMs }, { remaining: 9, resetMs: 6_000 });
    const { tat } = burst(rate, 1_000, 9, first.nextTat);
    const last = gcra(tat! - 6_000, 1_000, rate);
    assert.equal(last.remaining, 0);
    assert.equal(last.resetMs, 60_000);
  });

  it("recovers the whole quota after one period, not before", () => {
    const { tat } = burst(rate, 0, 10);
    assert.equal(burst(rate, 60_000, 11, tat).admitted, 10);
    assert.equal(burst(rate, 59_999, 11, tat).admitted, 9);
  });

  it("lets no 2x burst through around a window boundary (unlike a fixed window)", () => {
    const { tat } = burst(rate, 59_999, 10);
    assert.equal(burst(rate, 60_001, 10, tat).admitted, 0);
    // Over any 60 s span at most limit + (span / interval) requests get through.
    let state: number | undefined;
    let admitted = 0;
    for (let now = 0; now < 60_000; now += 500) {
      const outcome = gcra(state, now, rate);
      if (outcome.admitted) {
        admitted++;
        state = outcome.nextTat;
      }
    }
    assert.ok(admitted <= 10 + 9, `admitted ${admitted}`);
  });

  it("decides several keys together: all admit or nothing is consumed", () => {
    const small = { limit: 2, periodMs: 60_000 };
    const full = burst(small, 0, 2).tat;
    const decision = decide([undefined, full], 0, [rate, small]);
    assert.equal(decision.admitted, false);
    assert.equal(decision.outcomes[0].admitted, true, "the first key alone would admit");
    assert.equal(decision.retryAfterMs, 30_000);
    assert.equal(decide([undefined, undefined], 0, [rate, small]).admitted, true);
    assert.equal(decide([undefined, undefined], 0, [rate, small]).retryAfterMs, 0);
  });

  it("rounds an interval that is not a whole millisecond up (exact arithmetic, never over-admits)", () => {
    const odd = { limit: 7, periodMs: 1_000 };
    const { tat, admitted } = burst(odd, 0, 8);
    assert.equal(admitted, 7);
    const rejected = gcra(tat, 0, odd);
    assert.equal(rejected.retryAfterMs, 143);
    assert.ok(gcra(tat, 143, odd).admitted);
    assert.equal(gcra(tat, 142, odd).admitted, false);
  });
});
