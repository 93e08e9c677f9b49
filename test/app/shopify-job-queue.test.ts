// The job queue on its own. Shopify wants an answer within 5 s: the receipt and the job commit first; when the job is
// slow, the answer goes out at the inline budget and the job finishes in the background under its lease — nothing is
// lost or run twice. And what is kept: done jobs and receipts for a week, dead jobs until someone looks.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import pino from "pino";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { waitFor } from "../support/wait.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import {
  createJobQueue,
  enqueueJob,
  PermanentJobError,
  RETENTION_MS,
  type JobOutcome,
} from "../../app/shopify/jobs.server.ts";
import { receiveWebhook } from "../../app/shopify/webhooks.server.ts";

describe("Shopify job queue: the inline budget, retention", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(() => database?.drop());

  it("answers at the budget while a slow job runs on, then completes it once", async () => {
    // The one job and receipt in the tables: the other tests leave theirs, in whatever order they ran.
    await database.db.run("DELETE FROM shopify_jobs");
    await database.db.run("DELETE FROM shopify_webhook_receipts");
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test Ltd", portalUrl: "https://portal.example.test" },
    };
    const logger = pino({ level: "silent" });
    let release!: () => void;
    let runs = 0;
    const slowJob = new Promise<void>((resolve) => (release = resolve));
    const queue = createJobQueue({
      db: database.db,
      services,
      logger,
      handlers: {
        "orders/create": async () => {
          runs++;
          await slowJob;
        },
      },
    });
    queue.start();
    const deps = { db: database.db, services, logger, sealer: createSealer(Buffer.alloc(32, 1)) };
    const order = {
      id: 1,
      admin_graphql_api_id: "gid://shopify/Order/1",
      currency: "USD",
      subtotal_price: "10.00",
      line_items: [],
      note_attributes: [],
    };

    const started = performance.now();
    const outcome = await receiveWebhook(
      deps,
      queue,
      { shop: "s.myshopify.com", topic: "orders/create", webhookId: "w1", eventId: "e1", payload: order },
      100,
    );
    const elapsed = performance.now() - started;
    assert.equal(outcome, "accepted");
    assert.ok(elapsed >= 90 && elapsed < 1_000, `answered after ${Math.round(elapsed)} ms`);
    const running = (await database.db.get<{ status: string; locked_until: number | string | null }>(
      "SELECT * FROM shopify_jobs",
    ))!;
    assert.equal(running.status, "pending");
    assert.ok(Number(running.locked_until) > Date.now(), "leased to the runner that is still on it");
    assert.equal(await queue.runDue(), 0, "the poller does not take a leased job");

    release();
    await queue.stop();
    const done = (await database.db.get<{ status: string }>("SELECT * FROM shopify_jobs"))!;
    assert.equal(done.status, "done");
    assert.equal(runs, 1);
  });

  it("an outcome recorder writes each job's outcome in the transaction that records it on the job", async () => {
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test Ltd", portalUrl: "https://portal.example.test" },
    };
    const outcomes: [string, JobOutcome][] = [];
    let recorderFails = false;
    const queue = createJobQueue({
      db: database.db,
      services,
      logger: pino({ level: "silent" }),
      handlers: {
        "orders/cancelled": async (job) => {
          if ((job.payload as { id: string }).id === "bad") throw new PermanentJobError("refused");
        },
      },
      outcomeRecorders: {
        "orders/cancelled": async (tx, job, outcome) => {
          await tx.run("UPDATE shopify_jobs SET subject = ? WHERE id = ?", [`recorded:${outcome.status}`, job.id]);
          if (recorderFails) throw new Error("the recorder failed");
          outcomes.push([(job.payload as { id: string }).id, outcome]);
        },
      },
    });
    const job = (id: string) =>
      database.db.transaction((tx) =>
        enqueueJob(tx, services, { shop: "o.myshopify.com", kind: "orders/cancelled", payload: { id }, claimed: true }),
      );
    const row = async (jobId: string) =>
      (await database.db.get<{ status: string; attempts: number | string; subject: string | null }>(
        "SELECT status, attempts, subject FROM shopify_jobs WHERE id = ?",
        [jobId],
      ))!;
    const good = await job("good");
    const bad = await job("bad");
    await queue.run(good);
    await queue.run(bad);
    assert.deepEqual(outcomes, [
      ["good", { status: "done", attempts: 1, lastError: null }],
      ["bad", { status: "dead", attempts: 1, lastError: "refused" }],
    ]);
    assert.deepEqual({ ...(await row(bad.id)) }, { status: "dead", attempts: 1, subject: "recorded:dead" });

    // A recorder that fails takes the job's bookkeeping back with it: the job stays as it was (its lease runs out).
    recorderFails = true;
    const unrecorded = await job("bad");
    await queue.run(unrecorded).catch(() => undefined);
    assert.deepEqual({ ...(await row(unrecorded.id)) }, { status: "pending", attempts: 0, subject: null });
    await queue.stop();
  });

  it("purges done jobs and receipts past the retention; keeps newer ones, pending and dead jobs", async () => {
    const now = Date.now();
    const services = {
      clock: () => now,
      random: cryptoRandom,
      settings: { companyName: "Test Ltd", portalUrl: "https://portal.example.test" },
    };
    const queue = createJobQueue({ db: database.db, services, logger: pino({ level: "silent" }), handlers: {} });
    await database.db.run("DELETE FROM shopify_jobs");
    await database.db.run("DELETE FROM shopify_webhook_receipts");
    const old = now - RETENTION_MS - 1;
    const job = async (status: string, updatedAt: number) => {
      const { id } = await enqueueJob(database.db, services, {
        shop: "s.myshopify.com",
        kind: "write_reference",
        payload: {},
      });
      await database.db.run("UPDATE shopify_jobs SET status = ?, updated_at = ? WHERE id = ?", [status, updatedAt, id]);
      return id;
    };
    const kept = [await job("done", now), await job("pending", old), await job("dead", old)];
    await job("done", old);
    for (const [id, receivedAt] of [
      ["old", old],
      ["new", now],
    ] as const) {
      await database.db.run(
        "INSERT INTO shopify_webhook_receipts (webhook_id, shop, topic, received_at) VALUES (?, 's.myshopify.com', 'orders/create', ?)",
        [id, receivedAt],
      );
    }
    assert.equal(await queue.purgeExpired(), 2);
    assert.deepEqual(
      (await database.db.all<{ id: string }>("SELECT id FROM shopify_jobs ORDER BY id")).map((row) => row.id),
      [...kept].sort(),
    );
    assert.deepEqual(await database.db.all("SELECT webhook_id FROM shopify_webhook_receipts"), [{ webhook_id: "new" }]);
  });
});

describe("Shopify job queue on PostgreSQL: two app instances", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(() => database?.drop());

  it("claim with SKIP LOCKED: 200 jobs polled by two queues on two pools each run exactly once", async () => {
    const { openDatabase } = await import("../../server/store/open.ts");
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test Ltd", portalUrl: "https://portal.example.test" },
    };
    const runs = new Map<string, string[]>();
    const instances = ["a", "b"].map((name) => {
      const db = openDatabase(database.url);
      const queue = createJobQueue({
        db,
        services,
        logger: pino({ level: "silent" }),
        pollMs: 5,
        batchSize: 7,
        handlers: {
          write_reference: async (job) => {
            runs.set(job.id, [...(runs.get(job.id) ?? []), name]);
            await new Promise((resolve) => setTimeout(resolve, 2));
          },
        },
      });
      return { db, queue };
    });
    for (let i = 0; i < 200; i++)
      await enqueueJob(database.db, services, { shop: "s.myshopify.com", kind: "write_reference", payload: { i } });
    for (const { queue } of instances) queue.start();
    await waitFor(
      async () =>
        Number(
          (await database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM shopify_jobs WHERE status <> 'done'"))!.n,
        ) === 0,
      {
        timeoutMs: 20_000,
        what: "all jobs done",
      },
    );
    for (const { queue, db } of instances) {
      await queue.stop();
      await db.close();
    }
    assert.equal(runs.size, 200);
    assert.deepEqual(
      [...runs.values()].filter((by) => by.length !== 1),
      [],
      "no job ran twice",
    );
    const byInstance = [...runs.values()].flat();
    assert.ok(byInstance.includes("a") && byInstance.includes("b"), "both instances took work");
  });
});
