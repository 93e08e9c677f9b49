// The e-mail caps on a real SQLite file: each budget (welcome e-mails; what a buyer's portal session sends) caps per
// recipient and per merchant on its own, and the service's own notices are neither held back nor counted.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../../test/support/databases.ts";
import { EMAIL_CAPS, queueEmail, type EmailTemplate } from "./emails.ts";
import { cryptoRandom, newId } from "./ids.ts";
import type { Services } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";

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

  /** Queues an e-mail of the template for a new plan; returns its status and why it was suppressed. */
  async function queue(actor: Actor, recipientHash: string, template: EmailTemplate = "welcome_protected") {
    const planId = newId("plan", now, cryptoRandom);
    await database.db.transaction((tx) =>
      queueEmail(tx, services, actor, { template, planId, recipient: { sealed: "sealed", hash: recipientHash } }),
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

  it("one recipient gets at most 5 welcomes in 24 hours from all merchants and modes; the rest is suppressed, not counted, and the window slides", async () => {
    const { perRecipient } = EMAIL_CAPS.confirm;
    for (let i = 0; i < perRecipient.limit; i++)
      assert.equal((await queue(i % 2 === 0 ? shop : neighbour, "hash-ada"))!.status, "pending");
    assert.deepEqual(await queue(shop, "hash-ada"), { status: "suppressed", last_error: perRecipient.reason });
    assert.deepEqual(await queue(neighbour, "hash-ada"), { status: "suppressed", last_error: perRecipient.reason });
    assert.equal((await queue(shop, "hash-bob"))!.status, "pending", "another recipient is not affected");
    assert.equal((await queue(shop, "hash-ada", "claim_received"))!.status, "pending", "the portal's budget is not");
    now += perRecipient.windowMs;
    assert.equal((await queue(shop, "hash-ada"))!.status, "pending");
  });

  it("one merchant sends at most 500 welcomes an hour; its portal e-mails and the service's own notices still go", async () => {
    const { perMerchant } = EMAIL_CAPS.confirm;
    const busy: Actor = { merchantId: "mer_busy", mode: "live" };
    for (let i = 0; i < perMerchant.limit; i++) await queue(busy, `hash-${i}`);
    assert.deepEqual(await queue(busy, "hash-next"), { status: "suppressed", last_error: perMerchant.reason });
    assert.equal((await queue(shop, "hash-next"))!.status, "pending", "another merchant is not affected");
    for (const template of ["free_look_cancelled", "claim_received", "claim_decided", "claim_paid"] as const)
      assert.equal((await queue(busy, "hash-next", template))!.status, "pending", template);
  });

  it("the service's own notices pass every cap and count toward none", async () => {
    const { perRecipient } = EMAIL_CAPS.portal;
    const busy: Actor = { merchantId: "mer_notices", mode: "test" };
    for (let i = 0; i < 3 * perRecipient.limit; i++)
      for (const template of ["claim_information_needed", "claim_decided", "claim_paid"] as const)
        assert.equal((await queue(busy, "hash-claimant", template))!.status, "pending", template);
    for (let i = 0; i < perRecipient.limit; i++)
      assert.equal((await queue(busy, "hash-claimant", "claim_received"))!.status, "pending");
    assert.deepEqual(await queue(busy, "hash-claimant", "claim_received"), {
      status: "suppressed",
      last_error: perRecipient.reason,
    });
    assert.equal((await queue(busy, "hash-claimant", "claim_paid"))!.status, "pending");
  });
});
