import { afterEach, beforeEach, describe, it, vi } from "vitest";
import assert from "node:assert/strict";
import { createStoreBreaker, FAILURES_TO_OPEN } from "./breaker.ts";
import { createMemoryStore } from "./memory-store.ts";
import type { LimitStore } from "./store.ts";
import { capturedLogger } from "../../test/support/logger.ts";

// The breaker's states on a fake clock (vitest's fake Date: cockatiel times the open state with Date.now) and a
// scripted shared store: it answers or fails decisions as told, and each PING waits until the test settles it.
const RETRY_AFTER_MS = 1_000;
const NOW = Date.parse("2026-11-27T12:00:00.000Z");
const RATE = [{ limit: 1_000, periodMs: 60_000 }];

function scriptedShared() {
  const state = createMemoryStore();
  const pings: { answer: () => void; fail: () => void }[] = [];
  const script = { failing: false, decisions: 0, pings };
  const store: LimitStore = {
    async decide(keys, rates, now) {
      script.decisions++;
      if (script.failing) throw new Error("Command timed out");
      return state.decide(keys, rates, now);
    },
    states: (keys, now) => state.states(keys, now),
    ping: () =>
      new Promise<void>((resolve, reject) =>
        pings.push({ answer: resolve, fail: () => reject(new Error("timed out")) }),
      ),
    close: () => state.close(),
  };
  return { store, script };
}

describe("the Redis breaker", () => {
  let shared: ReturnType<typeof scriptedShared>;
  let captured: ReturnType<typeof capturedLogger>;
  let breaker: ReturnType<typeof createStoreBreaker>;
  const decide = () => breaker.decide(["key"], RATE, Date.now());
  const logged = (text: string) => captured.lines.filter((line) => String(line.msg).includes(text));
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
  /** Lets the settled PING's callbacks run. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  async function open() {
    shared.script.failing = true;
    for (let i = 0; i < FAILURES_TO_OPEN; i++) await decide();
    assert.equal(breaker.state(), "open");
  }

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    shared = scriptedShared();
    captured = capturedLogger("info");
    breaker = createStoreBreaker(shared.store, createMemoryStore(), {
      logger: captured.logger,
      retryAfterMs: RETRY_AFTER_MS,
    });
  });
  afterEach(() => vi.useRealTimers());

  it("closed: decides on the shared store; a failure short of the threshold is decided in memory, a success resets the count", async () => {
    assert.equal((await decide()).admitted, true);
    shared.script.failing = true;
    for (let i = 1; i < FAILURES_TO_OPEN; i++) assert.equal((await decide()).admitted, true, "never fails a request");
    assert.equal(breaker.fallbacks(), FAILURES_TO_OPEN - 1);
    shared.script.failing = false;
    await decide();
    shared.script.failing = true;
    for (let i = 1; i < FAILURES_TO_OPEN; i++) await decide();
    assert.equal(breaker.state(), "closed", "the success started the count again");
    assert.equal(shared.script.decisions, 2 * FAILURES_TO_OPEN);
    assert.equal(logged("Redis").length, 0);
  });

  it(`opens after ${FAILURES_TO_OPEN} failures in a row, logs it once, and then never asks the shared store until the retry time`, async () => {
    await open();
    const [warning] = logged("Redis unavailable");
    assert.equal(warning.level, 40);
    assert.match(JSON.stringify(warning.err), /Command timed out/);
    shared.script.failing = false;
    for (let i = 0; i < 100; i++) assert.equal((await decide()).admitted, true);
    advance(RETRY_AFTER_MS - 1);
    await decide();
    assert.equal(shared.script.decisions, FAILURES_TO_OPEN, "no decision went to the shared store");
    assert.equal(shared.script.pings.length, 0, "no probe before the retry time");
    assert.equal(breaker.fallbacks(), FAILURES_TO_OPEN + 101);
    assert.equal(logged("Redis").length, 1);
  });

  it("half-open: the first request after the retry time starts one PING and does not wait for it; the others neither wait nor probe", async () => {
    await open();
    advance(RETRY_AFTER_MS);
    await decide(); // resolves while its PING is still unanswered
    assert.equal(breaker.state(), "half-open");
    assert.equal(shared.script.pings.length, 1);
    await Promise.all(Array.from({ length: 50 }, decide));
    assert.equal(shared.script.pings.length, 1, "no thundering herd: one probe at a time");
    assert.equal(shared.script.decisions, FAILURES_TO_OPEN);
  });

  it("a failed probe reopens it for another retry time, and logs nothing more", async () => {
    await open();
    advance(RETRY_AFTER_MS);
    await decide();
    shared.script.pings[0].fail();
    await settle();
    assert.equal(breaker.state(), "open");
    advance(RETRY_AFTER_MS - 1);
    await decide();
    assert.equal(shared.script.pings.length, 1);
    advance(1);
    await decide();
    assert.equal(shared.script.pings.length, 2, "the next probe, one retry time after the failed one");
    assert.equal(logged("Redis").length, 1);
  });

  it("a probe that answers closes it: logged once, and the next request is decided on the shared store", async () => {
    await open();
    for (let i = 0; i < 5; i++) await decide();
    advance(RETRY_AFTER_MS);
    await decide();
    shared.script.failing = false;
    shared.script.pings[0].answer();
    await settle();
    assert.equal(breaker.state(), "closed");
    const [back] = logged("Redis answers again");
    assert.equal(back.level, 30);
    assert.equal(back.outageMs, RETRY_AFTER_MS);
    assert.equal(back.decidedInMemory, 1 + 5 + 1, "the request whose failure opened it, 5, the one that probed");
    await decide();
    assert.equal(shared.script.decisions, FAILURES_TO_OPEN + 1);
    // A later outage is logged again, once.
    await open();
    assert.equal(logged("Redis unavailable").length, 2);
  });
});
