import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../../test/support/databases.ts";
import { EMAIL_CAPS, queueEmail } from "./emails.ts";
import { cryptoRandom, newId } from "./ids.ts";
import type { Actor, Services } from "./context.ts";

describe("e-mail caps (sqlite)", () => {
  let database: TestDatabase;
  let now = Date.parse("2026-11-22T12:00:00.000Z");
  const services: Services = {
    clock: () => now,
    random: cryptoRandom,
    settings: { companyName: "Guarantor Inc.", portalUrl: "https://portal.example" },
  };
  const shop: Actor = { merchantId: "mer_shop", mode: "test" };
  const neighbour: Actor = { merchantId: "mer_neighbour", mode: "live" };

  /** Queues a welcome e-mail for a new plan; returns its status and why it was suppressed. */
  async function queue(actor: Actor, recipientHash: string) {
    const planId = newId("plan", now, cryptoRandom);
    await database.db.transaction((tx) =>
      queueEmail(tx, services, actor, {
        template: "welcome_protected",
        planId,
        recipient: { sealed: "sealed", hash: recipientHash },
      }),
    );
    return database.db.get<{ status: string; last_error: string | null }>(
      "SELECT status, last_error FROM email_messages WHERE plan_id = ?",
      [planId],
    );
  }

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(() => database.drop());

  it("one recipient gets at most 5 in 24 hours from all merchants and modes; the rest is suppressed, not counted, and the window slides", async () => {
    const { perRecipient } = EMAIL_CAPS;
    for (let i = 0; i < perRecipient.limit; i++)
      assert.equal((await queue(i % 2 === 0 ? shop : neighbour, "hash-ada"))!.status, "pending");
    assert.deepEqual(await queue(shop, "hash-ada"), { status: "suppressed", last_error: perRecipient.reason });
    assert.deepEqual(await queue(neighbour, "hash-ada"), { status: "suppressed", last_error: perRecipient.reason });
    assert.equal((await queue(shop, "hash-bob"))!.status, "pending", "another recipient is not affected");
    now += perRecipient.windowMs;
    assert.equal((await queue(shop, "hash-ada"))!.status, "pending");
  });

  it("one merchant sends at most 500 an hour", async () => {
    const { perMerchant } = EMAIL_CAPS;
    const busy: Actor = { merchantId: "mer_busy", mode: "live" };
    for (let i = 0; i < perMerchant.limit; i++) await queue(busy, `hash-${i}`);
    assert.deepEqual(await queue(busy, "hash-next"), { status: "suppressed", last_error: perMerchant.reason });
    assert.equal((await queue(shop, "hash-next"))!.status, "pending", "another merchant is not affected");
  });
});
