import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { watchEventLoop, type HeldLoop } from "../support/event-loop-guard.ts";
import { waitFor } from "../support/wait.ts";

/** Holds this thread synchronously, as a `spawnSync` or `rmSync` does, without spending CPU. */
const holdSynchronously = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe("the event-loop guard (test/support/event-loop-setup.ts fails a file held 30 s)", () => {
  it("reports a synchronous stretch longer than the limit, with how long it held the loop", async () => {
    const held: HeldLoop[] = [];
    const watch = watchEventLoop({ intervalMs: 20, limitMs: 200, onHeld: (gap) => held.push(gap) });
    try {
      await waitFor(() => watch.ticks() >= 2, { what: "the guard's first ticks" });
      holdSynchronously(400);
      await waitFor(() => held.length > 0, { what: "the held loop reported" });
      assert.equal(held.length, 1);
      assert.ok(held[0].heldMs >= 200 && held[0].heldMs < 2_000, `held ${held[0].heldMs} ms`);
    } finally {
      watch.stop();
    }
  });

  it("says nothing of a stretch under the limit", async () => {
    const held: HeldLoop[] = [];
    const watch = watchEventLoop({ intervalMs: 20, limitMs: 1_000, onHeld: (gap) => held.push(gap) });
    try {
      holdSynchronously(100);
      const after = watch.ticks();
      await waitFor(() => watch.ticks() >= after + 3, { what: "three ticks after the stretch" });
      assert.deepEqual(held, []);
    } finally {
      watch.stop();
    }
  });
});
