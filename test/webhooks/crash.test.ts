import { describe, it, afterAll, beforeAll } from "vitest";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { waitFor } from "../support/wait.ts";
import {
  assertSigned,
  firstArrivals,
  loopbackWebhookMerchant,
  startWorkerProcess,
  writeEvents,
} from "../support/webhook-events.ts";

// The worker as its own process (`npm run worker`), killed with SIGKILL in the middle of a batch — while the
// receiver holds a request it has already read — then started again: no event is lost, every endpoint still gets
// its events in order, and a duplicate is only ever a repeat of the same event.

const ENDPOINTS = 3;
const EVENTS = 40;

const startWorker = (database: TestDatabase, key: Buffer) =>
  startWorkerProcess(database.url, key, {
    env: { LOG_LEVEL: "silent", WEBHOOK_LEASE_MS: "1500", WEBHOOK_TIMEOUT_MS: "1000", SHUTDOWN_GRACE_MS: "2000" },
  });

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );

// The two databases' runs at the same time: each waits on worker processes and leases, and bounds no time.
describe.concurrent.each(DIALECTS)("webhook worker process killed mid-batch (%s)", (dialect) => {
  let database: TestDatabase;
  const receivers: Receiver[] = [];
  beforeAll(async () => (database = await createTestDatabase(dialect)));
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await database.drop();
  });

  it("SIGKILL then restart: every event arrives in order per endpoint; duplicates only repeat the same event", async () => {
    const { services, key, actor, addEndpoint } = await loopbackWebhookMerchant(database.db, "Crash Store");
    const secrets: string[] = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      const receiver = await startReceiver();
      receiver.reply = () => new Promise((resolve) => setTimeout(resolve, 5, 200));
      receivers.push(receiver);
      secrets.push((await addEndpoint(receiver.url)).secret);
    }
    const ids = await writeEvents({ database, services }, actor, EVENTS);
    const total = () => receivers.reduce((sum, receiver) => sum + receiver.received.length, 0);

    let worker = startWorker(database, key);
    let killedAt = -1;
    // Kill the worker while the first receiver holds a request it has read but not answered.
    receivers[0].reply = (_request, index) => {
      if (index === 10 && killedAt < 0) {
        killedAt = total();
        worker.kill("SIGKILL");
      }
      return new Promise((resolve) => setTimeout(resolve, 5, 200));
    };
    const first = exited(worker);
    await waitFor(() => killedAt >= 0, { timeoutMs: 30_000, what: "the kill" });
    assert.equal((await first).signal, "SIGKILL");
    const pending = await database.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status <> 'succeeded'",
    );
    assert.ok(Number(pending!.n) > 0, "work was left when the worker died");

    worker = startWorker(database, key);
    const second = exited(worker);
    await waitFor(() => receivers.every((receiver) => firstArrivals(receiver.received).length === EVENTS), {
      timeoutMs: 60_000,
      what: "every event at every endpoint",
    });
    worker.kill("SIGTERM");
    assert.deepEqual(await second, { code: 0, signal: null }, "graceful exit on SIGTERM");

    for (const [i, receiver] of receivers.entries()) {
      assert.deepEqual(firstArrivals(receiver.received), ids, `endpoint ${i}: all events, in order`);
      await assertSigned(receiver.received, secrets[i], Date.now());
      const bodies = new Map<string, string>();
      for (const request of receiver.received) {
        const seen = bodies.get(request.eventId);
        if (seen !== undefined) assert.equal(request.body, seen, "a duplicate repeats the same event");
        bodies.set(request.eventId, request.body);
      }
    }
    assert.ok(receivers[0].received.length > EVENTS, "the request in flight at the kill was delivered again");
    const open = await database.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status <> 'succeeded'",
    );
    assert.equal(Number(open!.n), 0);
  });
});
