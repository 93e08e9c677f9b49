import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { createPeriodicWorker, createWorker, workerGroup } from "./worker.ts";
import { recordFailedAttempt } from "./failure-recorder.ts";
import { delayAfterFailure } from "./retry-policy.ts";
import { workersToRun } from "./only-option.ts";
import { capturedLogger } from "../../test/support/logger.ts";
import { waitFor } from "../../test/support/wait.ts";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("worker runtime", () => {
  it("start runs rounds back to back while they say more is due, then waits; wake ends the wait; runOnce is the body's", async () => {
    const { logger } = capturedLogger();
    let rounds = 0;
    const worker = createWorker({
      name: "test",
      logger,
      pollMs: 60_000,
      round: async () => ++rounds < 3,
      runOnce: async () => 7,
    });
    assert.equal(await worker.runOnce(), 7);
    assert.equal(rounds, 0, "runOnce does not start the loop");
    worker.start();
    worker.start();
    await waitFor(() => rounds === 3, { timeoutMs: 5_000, intervalMs: 2, what: "three rounds" });
    assert.equal(worker.running, true);
    worker.wake();
    await waitFor(() => rounds === 4, { timeoutMs: 5_000, intervalMs: 2, what: "a round on wake" });
    await worker.stop(); // ends the 60 s wait at once
    assert.equal(worker.running, false);
  });

  it("stop waits for the work in flight when it finishes within the grace period", async () => {
    const { logger } = capturedLogger();
    const work = deferred();
    let finished = false;
    let aborted = false;
    const worker = createWorker({
      name: "test",
      logger,
      pollMs: 5,
      round: async () => false,
      runOnce: async () => 0,
      settle: () => work.promise.then(() => (finished = true)),
      abort: () => (aborted = true),
    });
    worker.start();
    const stopping = worker.stop(5_000);
    setTimeout(work.resolve, 20);
    await stopping;
    assert.equal(finished, true, "resolved only after the work finished");
    assert.equal(aborted, false);
  });

  it("stop aborts the work in flight when the grace period ends, then waits for it to let go", async () => {
    const { logger } = capturedLogger();
    const work = deferred();
    let released = false;
    const worker = createWorker({
      name: "test",
      logger,
      pollMs: 5,
      round: async () => false,
      runOnce: async () => 0,
      settle: () => work.promise.then(() => (released = true)),
      abort: () => work.resolve(),
    });
    worker.start();
    await worker.stop(10);
    assert.equal(released, true);
  });

  it("a failed round is recorded once, in one shape, and the loop tries again on the next poll", async () => {
    const { logger, lines } = capturedLogger();
    let rounds = 0;
    const worker = createWorker({
      name: "test",
      logger,
      pollMs: 5,
      runOnce: async () => 0,
      round: async () => {
        if (++rounds === 1) throw new Error("database unavailable");
        return false;
      },
    });
    worker.start();
    await waitFor(() => rounds >= 2, { timeoutMs: 5_000, intervalMs: 2, what: "the next round" });
    await worker.stop();
    const errors = lines.filter((line) => line.level === 50);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].worker, "test");
    assert.equal(errors[0].msg, "test round failed; retrying on the next poll");
    assert.equal((errors[0].err as { message: string }).message, "database unavailable");
  });

  it("a periodic worker runs its task at start; a group starts and stops its workers together", async () => {
    const { logger } = capturedLogger();
    let runs = 0;
    const purge = createPeriodicWorker({ name: "purge", logger, everyMs: 60_000, task: async () => ++runs });
    const group = workerGroup([purge]);
    group.start();
    await waitFor(() => runs === 1, { timeoutMs: 5_000, intervalMs: 2, what: "the run at start" });
    await group.stop(0);
    assert.equal(await purge.runOnce(), 2);
  });
});

describe("failed attempts and the retry policy", () => {
  const policy = { delaysMs: [1_000, 5_000], afterLast: "give-up" } as const;

  it("waits the policy's delay after each failure; gives up past the last one, or repeats it", () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((failures) => delayAfterFailure(policy, failures)),
      [1_000, 1_000, 5_000, undefined],
    );
    assert.deepEqual(
      [2, 3, 9].map((failures) => delayAfterFailure({ ...policy, afterLast: "repeat" }, failures)),
      [5_000, 5_000, 5_000],
    );
  });

  it("records an attempt in one log shape: retried, given up, or given up at once when permanent", () => {
    const { logger, lines } = capturedLogger();
    const failed = { item: "job", fields: { jobId: "job_1" }, policy, error: new Error("refused for ada@example.com") };
    assert.equal(recordFailedAttempt(logger, { ...failed, attempts: 1 }).retryInMs, 1_000);
    assert.equal(recordFailedAttempt(logger, { ...failed, attempts: 3 }).retryInMs, undefined);
    assert.equal(recordFailedAttempt(logger, { ...failed, attempts: 1, permanent: true }).retryInMs, undefined);
    assert.deepEqual(
      lines.map(({ level, msg, jobId, attempts, err }) => ({ level, msg, jobId, attempts, err })),
      [
        { level: 40, msg: "job failed; retrying", jobId: "job_1", attempts: 1, err: "refused for ada@example.com" },
        { level: 40, msg: "job failed for good", jobId: "job_1", attempts: 3, err: "refused for ada@example.com" },
        { level: 40, msg: "job failed for good", jobId: "job_1", attempts: 1, err: "refused for ada@example.com" },
      ],
    );
  });

  it("redacts the error text for the log and the row; the row keeps at most 2 000 characters", () => {
    const { logger, lines } = capturedLogger();
    const error = new Error(`550 <ada@example.com>: ${"x".repeat(3_000)}`);
    const { lastError } = recordFailedAttempt(logger, {
      item: "e-mail",
      fields: {},
      attempts: 1,
      error,
      policy,
      redact: (text) => text.replace(/\S+@\S+/g, "[address]"),
    });
    assert.equal(lastError.length, 2_000);
    assert.ok(lastError.startsWith("550 [address] x"));
    assert.ok(!JSON.stringify(lines).includes("ada@example.com"));
  });
});

describe("npm run worker -- --only", () => {
  it("runs every server worker by default, or the listed ones; refuses a name it does not know", () => {
    assert.deepEqual([...workersToRun([])], ["webhooks", "email", "purges", "settlements"]);
    assert.deepEqual([...workersToRun(["--only", "webhooks,email"])], ["webhooks", "email"]);
    assert.deepEqual([...workersToRun(["--only=email"])], ["email"]);
    assert.throws(
      () => workersToRun(["--only", "email,mail"]),
      /--only takes a comma-separated list of webhooks, email, purges, settlements; got 'email,mail'/,
    );
    assert.throws(() => workersToRun(["--all"]), /Unknown option/);
  });
});
