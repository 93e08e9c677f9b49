import { describe, it, beforeEach, afterEach } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { waitFor } from "../support/wait.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import { createTestMerchant } from "../../server/domain/merchants.ts";
import { checkEndpointUrl, createWebhookEndpoint } from "../../server/domain/webhook-endpoints.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { createWebhookWorker } from "../../server/webhooks/worker.ts";
import { createFanOut } from "../../server/webhooks/fanout.ts";
import { webhookWorkerOptions } from "../../server/webhooks/config.ts";
import { loadConfig } from "../../server/config.ts";
import { createRuntime } from "../../server/runtime.ts";
import { capturedLogger } from "../support/logger.ts";
import { writeEvents } from "../support/webhook-events.ts";

const services: Services = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Test", portalUrl: "https://portal.example.test", allowPrivateWebhookUrls: true },
};
const sealer = createSealer(randomBytes(32));
const logger = pino({ level: "silent" });

describe.each(DIALECTS)("webhook worker lifecycle (%s)", (dialect) => {
  // Each test gets its own database, endpoint and receiver: a worker delivers whatever is due in its database, and a
  // test's leftovers (the fan-out's pending deliveries, a lease another "worker" holds) would be the next one's.
  let database: TestDatabase;
  let receiver: Receiver;
  let actor: { merchantId: string; mode: "test" };
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    receiver = await startReceiver();
    const merchant = await database.db.transaction((tx) =>
      createTestMerchant(tx, services, { name: "Lifecycle Store" }),
    );
    actor = { merchantId: merchant.merchantId, mode: "test" };
    await database.db.transaction(async (tx) =>
      createWebhookEndpoint(tx, services, sealer, actor, {
        url: await checkEndpointUrl(services, actor, receiver.url),
        events: ["*"],
      }),
    );
  });
  afterEach(async () => {
    await receiver.close();
    await database.drop();
  });

  /** The test's one delivery. */
  const delivery = async () => {
    const rows = await database.db.all<{ status: string; attempts: number; locked_by: string | null }>(
      "SELECT status, attempts, locked_by FROM webhook_deliveries",
    );
    assert.equal(rows.length, 1, "one delivery");
    return rows[0];
  };

  it("stop: an in-flight delivery that finishes within the grace period is recorded", async () => {
    receiver.reply = () => new Promise((resolve) => setTimeout(resolve, 150, 200));
    const worker = createWebhookWorker({ db: database.db, sealer, logger, allowPrivateWebhookUrls: true, pollMs: 5 });
    worker.start();
    await writeEvents({ database, services }, actor, 1);
    await waitFor(() => receiver.received.length > 0, { intervalMs: 5, what: "the delivery request" });
    await worker.stop(5_000);
    assert.deepEqual({ ...(await delivery()) }, { status: "succeeded", attempts: 1, locked_by: null });
  });

  it("stop: an in-flight delivery still running when the grace period ends is aborted and released, not counted", async () => {
    receiver.reply = () => "hang";
    const worker = createWebhookWorker({ db: database.db, sealer, logger, allowPrivateWebhookUrls: true, pollMs: 5 });
    worker.start();
    await writeEvents({ database, services }, actor, 1);
    await waitFor(() => receiver.received.length > 0, { intervalMs: 5, what: "the delivery request" });
    await worker.stop(100);
    assert.deepEqual({ ...(await delivery()) }, { status: "pending", attempts: 0, locked_by: null });
    receiver.reply = () => 200;
    const next = createWebhookWorker({ db: database.db, sealer, logger, allowPrivateWebhookUrls: true });
    assert.equal(await next.runOnce(), 1, "the released delivery is due at once");
    assert.equal((await delivery()).status, "succeeded");
  });

  it("a lease taken over while the request runs: the heartbeat aborts it and the worker records nothing", async () => {
    receiver.reply = () => "hang";
    const captured = capturedLogger();
    const attempts: string[] = [];
    const worker = createWebhookWorker({
      db: database.db,
      sealer,
      logger: captured.logger,
      allowPrivateWebhookUrls: true,
      pollMs: 5,
      leaseMs: 300,
      onAttempt: (held) => attempts.push(held.id),
    });
    worker.start();
    await writeEvents({ database, services }, actor, 1);
    await waitFor(() => receiver.received.length > 0, { intervalMs: 5, what: "the delivery request" });
    // Another worker takes the delivery over (as after a stall longer than the lease).
    await database.db.transaction((tx) =>
      tx.run("UPDATE webhook_deliveries SET locked_by = 'wkr_other', locked_until = ? WHERE status = 'delivering'", [
        Date.now() + 60_000,
      ]),
    );
    await waitFor(() => captured.lines.some((line) => line.msg === "webhook lease taken over; attempt not recorded"), {
      what: "the heartbeat to find the lease lost",
    });
    await worker.stop(5_000);
    assert.deepEqual(attempts, [], "no outcome recorded as the worker's own");
    assert.deepEqual({ ...(await delivery()) }, { status: "delivering", attempts: 0, locked_by: "wkr_other" });
    const logged = await database.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.locked_by = 'wkr_other'",
    );
    assert.equal(Number(logged!.n), 0);

    // The new holder's lease runs out in turn: the next worker repeats the same event.
    await database.db.transaction((tx) =>
      tx.run("UPDATE webhook_deliveries SET locked_until = 0 WHERE locked_by = 'wkr_other'"),
    );
    receiver.reply = () => 200;
    const next = createWebhookWorker({ db: database.db, sealer, logger, allowPrivateWebhookUrls: true });
    assert.equal(await next.runOnce(), 1);
    assert.equal((await delivery()).status, "succeeded");
    const [held, repeat] = receiver.received;
    assert.equal(repeat.eventId, held.eventId);
  });

  it("fan-out waits at a gap in event sequence numbers, then skips it after the grace period", async () => {
    const fanOut = createFanOut(database.db, services, {
      batchSize: 100,
      gapGraceMs: 60_000,
      wallClock: () => wall,
    }).fanOut;
    let wall = 0;
    await fanOut();
    const [, missing] = await writeEvents({ database, services }, actor, 3);
    await database.db.transaction((tx) => tx.run("DELETE FROM events WHERE id = ?", [missing]));
    assert.equal(await fanOut(), 1, "up to the gap");
    wall += 59_999;
    assert.equal(await fanOut(), 0, "still waiting for the missing sequence number");
    wall += 1;
    assert.equal(await fanOut(), 1, "gap given up on");
    assert.equal(await fanOut(), 0);
  });
});

describe("webhook worker configuration", () => {
  it("WEBHOOK_WORKER=off leaves the API without a worker; the lease defaults to the timeout, at least 3 s; WORKER_ID", () => {
    const env = { DATABASE_URL: "file:/tmp/x.sqlite" } as unknown as NodeJS.ProcessEnv;
    assert.deepEqual(webhookWorkerOptions(loadConfig(env)), {
      enabled: true,
      timeoutMs: 10_000,
      leaseMs: 10_000,
      pollMs: 50,
      batchSize: 100,
      stableId: undefined,
    });
    const off = webhookWorkerOptions(loadConfig({ ...env, WEBHOOK_WORKER: "off", WEBHOOK_TIMEOUT_MS: "20000" }));
    assert.equal(off.enabled, false);
    assert.equal(off.leaseMs, 20_000);
    assert.equal(webhookWorkerOptions(loadConfig({ ...env, WEBHOOK_TIMEOUT_MS: "1000" })).leaseMs, 3_000);
    assert.equal(webhookWorkerOptions(loadConfig({ ...env, WORKER_ID: "worker-0" })).stableId, "worker-0");
    assert.throws(() => loadConfig({ ...env, WORKER_ID: "a/b" }), /WORKER_ID/);
  });

  it("WEBHOOK_ALLOW_PRIVATE_URLS is off by default; on reaches the endpoint checks and is logged as a warning at start", async () => {
    assert.equal(loadConfig({} as NodeJS.ProcessEnv).WEBHOOK_ALLOW_PRIVATE_URLS, "off");
    assert.throws(
      () => loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "yes" } as unknown as NodeJS.ProcessEnv),
      /WEBHOOK_ALLOW_PRIVATE_URLS/,
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-webhook-config-"));
    const env = {
      DATABASE_URL: `file:${path.join(dir, "db.sqlite")}`,
      DATA_DIR: dir,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    };
    try {
      for (const [setting, allowed] of [
        ["on", true],
        ["off", false],
      ] as const) {
        const { logger, lines } = capturedLogger();
        const runtime = createRuntime(
          loadConfig({ ...env, WEBHOOK_ALLOW_PRIVATE_URLS: setting } as unknown as NodeJS.ProcessEnv),
          logger,
        );
        await runtime.close();
        assert.equal(runtime.services.settings.allowPrivateWebhookUrls, allowed, setting);
        assert.equal(
          lines.some((line) => line.level === 40 && String(line.msg).startsWith("WEBHOOK_ALLOW_PRIVATE_URLS=on")),
          allowed,
          setting,
        );
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
