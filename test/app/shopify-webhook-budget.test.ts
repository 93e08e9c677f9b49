// Shopify wants an answer within 5 s. The receipt and the job commit first; when the job is slow, the answer goes
// out at the inline budget and the job finishes in the background under its lease — nothing is lost or run twice.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { createJobQueue } from "../../app/shopify/jobs.server.ts";
import { receiveWebhook } from "../../app/shopify/webhooks.server.ts";
import type { ShopifyDeps } from "../../app/shopify/deps.server.ts";

describe("Shopify webhooks: the inline budget", () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase("sqlite");
  });
  after(() => database?.drop());

  it("answers at the budget while a slow job runs on, then completes it once", async () => {
    const services = { clock: Date.now, random: cryptoRandom, settings: { companyName: "Test Ltd", portalUrl: "https://portal.example.test" } };
    const logger = pino({ level: "silent" });
    let release!: () => void;
    let runs = 0;
    const slowJob = new Promise<void>((resolve) => (release = resolve));
    const queue = createJobQueue({ db: database.db, services, logger, handlers: { "orders/create": async () => { runs++; await slowJob; } } });
    queue.start();
    const deps = { db: database.db, services, logger } as unknown as ShopifyDeps;
    const order = { id: 1, admin_graphql_api_id: "gid://shopify/Order/1", currency: "USD", subtotal_price: "10.00", line_items: [], note_attributes: [] };

    const started = performance.now();
    const outcome = await receiveWebhook(deps, queue, { shop: "s.myshopify.com", topic: "orders/create", webhookId: "w1", eventId: "e1", payload: order }, 100);
    const elapsed = performance.now() - started;
    assert.equal(outcome, "accepted");
    assert.ok(elapsed >= 90 && elapsed < 1_000, `answered after ${Math.round(elapsed)} ms`);
    const running = (await database.db.get<any>("SELECT * FROM shopify_jobs"))!;
    assert.equal(running.status, "pending");
    assert.ok(Number(running.locked_until) > Date.now(), "leased to the runner that is still on it");
    assert.equal(await queue.runDue(), 0, "the poller does not take a leased job");

    release();
    await queue.stop();
    const done = (await database.db.get<any>("SELECT * FROM shopify_jobs"))!;
    assert.equal(done.status, "done");
    assert.equal(runs, 1);
  });
});
