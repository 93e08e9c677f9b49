import { describe, it, beforeEach, afterEach } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "../../test/support/databases.ts";
import { createSealer } from "../secrets/sealer.ts";
import { cryptoRandom } from "../domain/ids.ts";
import type { Services } from "../domain/context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { createTestMerchant } from "../domain/merchants.ts";
import { appendEvent } from "../domain/events.ts";
import { createWebhookEndpoint, type CheckedUrl } from "../domain/webhook-endpoints.ts";
import { findEndpoint } from "../store/webhook-endpoints.ts";
import type { Database } from "../store/database.ts";
import { createFanOut } from "./fanout.ts";
import { claimDeliveries, completeDeliveries, type AttemptResult, type ClaimedDelivery } from "./queue.ts";

// What an attempt's result does to its delivery and its endpoint, on real databases without HTTP.
describe.each(["sqlite", "postgres"] as const)("the webhook delivery queue (%s)", (dialect) => {
  const policy = { retrySchedule: [5_000, 60_000], failingAfterMs: 3_600_000 };
  const leaseMs = 60_000;
  const services: Services = {
    clock: () => now,
    random: cryptoRandom,
    settings: { companyName: "Test Protection Ltd", portalUrl: "https://portal.example.test" },
  };
  const sealer = createSealer(randomBytes(32));
  let now: number;
  let t: TestDatabase;
  let actor: Actor;

  beforeEach(async () => {
    now = Date.parse("2026-11-22T12:00:00.000Z");
    t = await createTestDatabase(dialect);
    actor = {
      merchantId: (await t.db.transaction((tx) => createTestMerchant(tx, services, { name: "Queue" }))).merchantId,
      mode: "test",
    };
  });
  afterEach(() => t.drop());

  /** Endpoints subscribed to everything, then `events` events fanned out to them. */
  async function deliveriesTo(endpoints: number, events = 1): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < endpoints; i++) {
      const url = `https://hooks.example.test/${i}` as CheckedUrl;
      ids.push(
        (await t.db.transaction((tx) => createWebhookEndpoint(tx, services, sealer, actor, { url, events: ["*"] }))).id,
      );
    }
    for (let i = 1; i <= events; i++)
      await t.db.transaction((tx) => appendEvent(tx, services, actor, "claim.created", { id: `clm_${i}` }));
    assert.equal(await createFanOut(t.db, services, { batchSize: 10, gapGraceMs: 0 }).fanOut(), events);
    return ids;
  }

  const claim = (workerId = "wkr_a") => claimDeliveries(t.db, { workerId, now, limit: 10, leaseMs });
  const answer = (statusCode: number | null): AttemptResult => ({
    statusCode,
    error: statusCode === null ? "ECONNREFUSED" : null,
    durationMs: 12,
  });
  const complete = async (delivery: ClaimedDelivery, result: AttemptResult, workerId = "wkr_a") =>
    (await completeDeliveries(t.db, cryptoRandom, workerId, [{ delivery, result, now }], policy)).outcomes[0];
  const endpoint = async (id: string) => (await findEndpoint(t.db, actor, id))!;

  it("a failure is retried on the schedule and starts the endpoint's failing run; a 2xx succeeds and ends it", async () => {
    const [endpointId] = await deliveriesTo(1);
    const [first] = await claim();
    assert.equal(first.attempts, 0);
    assert.equal(await complete(first, answer(500)), "retry");
    const failingSince = now;
    assert.equal((await endpoint(endpointId)).failingSince, failingSince);

    now += 4_999;
    assert.deepEqual(await claim(), [], "not due before the first wait of the schedule");
    now += 1;
    const [second] = await claim();
    assert.equal(second.attempts, 1);
    assert.equal(await complete(second, answer(null)), "retry");
    assert.equal((await endpoint(endpointId)).failingSince, failingSince, "the run began at its first failure");

    now += 60_000;
    const [third] = await claim();
    assert.equal(await complete(third, answer(204)), "succeeded");
    assert.equal((await endpoint(endpointId)).failingSince, null);
    now += 3_600_000;
    assert.deepEqual(await claim(), [], "delivered once");
  });

  it("gives up once the endpoint has been failing for failingAfterMs and marks it failing; a 410 disables it at once", async () => {
    const [failing, gone] = await deliveriesTo(2);
    const byEndpoint = async () => new Map((await claim()).map((delivery) => [delivery.endpoint.id, delivery]));
    const first = await byEndpoint();
    assert.equal(await complete(first.get(failing)!, answer(503)), "retry");
    assert.equal(await complete(first.get(gone)!, answer(410)), "endpoint_disabled");
    assert.equal((await endpoint(gone)).status, "disabled");

    now += policy.failingAfterMs;
    const later = await byEndpoint();
    assert.deepEqual([...later.keys()], [failing], "a disabled endpoint's deliveries are not claimed");
    assert.equal(await complete(later.get(failing)!, answer(503)), "gave_up");
    assert.equal((await endpoint(failing)).status, "failing");
    now += 3_600_000;
    assert.deepEqual(await claim(), []);
  });

  it("a lease that ran out goes to another worker; the first worker's late result is not recorded (lost_lease)", async () => {
    await deliveriesTo(1);
    const [held] = await claim("wkr_a");
    assert.deepEqual(await claim("wkr_b"), [], "leased");
    now += leaseMs;
    const [taken] = await claim("wkr_b");
    assert.equal(taken.id, held.id);
    assert.equal(await complete(held, answer(200), "wkr_a"), "lost_lease");
    assert.equal(await complete(held, answer(500), "wkr_a"), "lost_lease");
    assert.equal(await complete(taken, answer(200), "wkr_b"), "succeeded");
  });

  it("a group's transaction claims each endpoint's next event as the group left it: head moved on, failing run over", async () => {
    await deliveriesTo(1, 2);
    const [first] = await claim();
    assert.equal(await complete(first, answer(500)), "retry");
    now += 5_000;
    const [again] = await claim();
    assert.equal(again.id, first.id);
    assert.notEqual(again.endpoint.failingSince, null);

    const next = { workerId: "wkr_a", now, limit: 10, leaseMs };
    const group = [{ delivery: again, result: answer(200), now }];
    // The group commit does not wait for the disk (at-least-once delivery redoes what a crash loses).
    const options: unknown[] = [];
    const db: Database = {
      ...t.db,
      transaction: (work, given) => (options.push(given), t.db.transaction(work, given)),
    };
    const { outcomes, claimed } = await completeDeliveries(db, cryptoRandom, "wkr_a", group, policy, next);
    assert.deepEqual(options, [{ asyncCommit: true }]);
    assert.deepEqual(outcomes, ["succeeded"]);
    assert.equal(claimed.length, 1, "the endpoint's second event, claimed in the same transaction");
    assert.notEqual(claimed[0].id, first.id);
    assert.deepEqual(claimed[0].event.data, { id: "clm_2" });
    assert.equal(claimed[0].endpoint.failingSince, null, "read after the 2xx ended the failing run");
  });
});
