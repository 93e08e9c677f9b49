import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../../test/support/databases.ts";
import { cryptoRandom } from "./ids.ts";
import { DomainError } from "./errors.ts";
import type { Services } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { createTestMerchant } from "./merchants.ts";
import { appendEvent, getEvent, listEvents } from "./events.ts";
import { listEventsAfter } from "../store/events.ts";

describe("the event outbox", () => {
  let t: TestDatabase;
  let now = Date.parse("2026-11-22T12:00:00.000Z");
  const services: Services = {
    clock: () => now,
    random: cryptoRandom,
    settings: { companyName: "Test Protection Ltd", portalUrl: "https://portal.example.test" },
  };
  let actor: Actor;
  let other: Actor;

  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    actor = {
      merchantId: (await t.db.transaction((tx) => createTestMerchant(tx, services, { name: "Outbox" }))).merchantId,
      mode: "test",
    };
    other = {
      merchantId: (await t.db.transaction((tx) => createTestMerchant(tx, services, { name: "Other" }))).merchantId,
      mode: "test",
    };
  });
  afterAll(() => t.drop());

  it("numbers events in the order they were written: the fan-out reads them in that order, the API lists them newest first", async () => {
    const written: string[] = [];
    for (const [i, type] of (["claim.created", "claim.updated", "order.merchant_refunded"] as const).entries()) {
      written.push(
        await t.db.transaction((tx) =>
          appendEvent(tx, services, i === 1 ? other : actor, type, { n: i, note: "Zoë ✓" }),
        ),
      );
      now += 1; // listings order by id, which sorts by creation time
    }
    const outbox = await listEventsAfter(t.db, 0, 10);
    assert.deepEqual(
      outbox.map((event) => event.id),
      written,
    );
    assert.deepEqual(
      outbox.map((event) => event.seq),
      [1, 2, 3],
    );
    assert.deepEqual(
      outbox.map((event) => event.merchantId),
      [actor.merchantId, other.merchantId, actor.merchantId],
    );
    assert.deepEqual(
      (await listEventsAfter(t.db, 2, 10)).map((event) => event.id),
      [written[2]],
    );

    const page = await listEvents(t.db, actor, { limit: 10 });
    assert.deepEqual(
      page.data.map((event) => event.id),
      [written[2], written[0]],
    );
    assert.deepEqual(
      (await listEvents(t.db, actor, { limit: 10, type: "claim.created" })).data.map((event) => event.id),
      [written[0]],
    );
  });

  it("shows an event as the API and webhooks do, to its own merchant only", async () => {
    const id = await t.db.transaction((tx) =>
      appendEvent(tx, services, actor, "claim.created", { id: "clm_1", amount: 1250 }),
    );
    assert.deepEqual(await getEvent(t.db, actor, id), {
      id,
      object: "event",
      type: "claim.created",
      created: Math.floor(now / 1000),
      livemode: false,
      data: { object: { id: "clm_1", amount: 1250 } },
    });
    await assert.rejects(
      getEvent(t.db, other, id),
      (error: unknown) => error instanceof DomainError && error.kind === "not_found",
    );
    await assert.rejects(
      getEvent(t.db, { ...actor, mode: "live" }, id),
      (error: unknown) => error instanceof DomainError && error.kind === "not_found",
    );
  });
});
