import { describe, it, afterAll, beforeAll } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import pino from "pino";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { staysFalseFor, waitFor } from "../support/wait.ts";
import { openDatabase } from "../../server/store/open.ts";
import type { Database } from "../../server/store/database.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import { createTestMerchant } from "../../server/domain/merchants.ts";
import { checkEndpointUrl, createWebhookEndpoint } from "../../server/domain/webhook-endpoints.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { createWebhookWorker } from "../../server/webhooks/worker.ts";
import { firstArrivals, writeEvents } from "../support/webhook-events.ts";

// Several workers on PostgreSQL (each with its own connection pool, as separate processes would have) share the
// queue: FOR UPDATE SKIP LOCKED and leases mean no delivery attempt is ever made twice, and each endpoint's events
// still arrive in order. The receiver always answers 200 at once, so any repeat would be a double delivery.

const ENDPOINTS = 8;
const EVENTS = 60;

describe("three webhook workers on PostgreSQL", () => {
  let database: TestDatabase;
  let receiver: Receiver;
  const pools: Database[] = [];
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    for (const pool of pools) await pool.close();
    await database.drop();
  });

  it("never deliver the same attempt twice, and keep each endpoint's order", async () => {
    const services: Services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test", portalUrl: "https://portal.example.test", allowPrivateWebhookUrls: true },
    };
    const sealer = createSealer(randomBytes(32));
    const merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Busy Store" }));
    const actor = { merchantId: merchant.merchantId, mode: "test" as const };
    for (let i = 0; i < ENDPOINTS; i++) {
      await database.db.transaction(async (tx) =>
        createWebhookEndpoint(tx, services, sealer, actor, {
          url: await checkEndpointUrl(services, actor, `${receiver.url}/${i}`),
          events: ["*"],
        }),
      );
    }
    const attemptsBy: Record<string, number> = {};
    const workers = ["a", "b", "c"].map((name) => {
      const db = openDatabase(database.url);
      pools.push(db);
      return createWebhookWorker({
        db,
        sealer,
        logger: pino({ level: "silent" }),
        workerId: name,
        pollMs: 5,
        batchSize: 3,
        gapGraceMs: 200,
        allowPrivateWebhookUrls: true,
        onAttempt: () => void (attemptsBy[name] = (attemptsBy[name] ?? 0) + 1),
      });
    });
    for (const worker of workers) worker.start();
    // Events keep arriving while the workers run, from concurrent writers.
    const batches = await Promise.all([0, 1, 2].map(() => writeEvents({ database, services }, actor, EVENTS / 3)));
    const ids = (await database.db.all<{ id: string }>("SELECT id FROM events ORDER BY seq")).map((row) => row.id);
    assert.equal(ids.length, batches.flat().length);

    await waitFor(() => receiver.received.length >= ENDPOINTS * EVENTS, { timeoutMs: 30_000, what: "every delivery" });
    await staysFalseFor(() => receiver.received.length > ENDPOINTS * EVENTS, 200, {
      what: "a second request for a delivery",
    });
    for (const worker of workers) await worker.stop();

    assert.equal(receiver.received.length, ENDPOINTS * EVENTS, "exactly one request per delivery");
    for (let i = 0; i < ENDPOINTS; i++) {
      const mine = receiver.received.filter((request) => request.path === `/hooks/${i}`);
      assert.deepEqual(firstArrivals(mine), ids, `endpoint ${i} in event order`);
    }
    const attempts = await database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_attempts");
    assert.equal(Number(attempts!.n), ENDPOINTS * EVENTS);
    assert.ok(Object.keys(attemptsBy).length >= 2, `the work was shared: ${JSON.stringify(attemptsBy)}`);
  });
});
