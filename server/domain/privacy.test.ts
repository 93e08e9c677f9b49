import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../../test/support/databases.ts";
import { createSealer } from "../secrets/sealer.ts";
import { createTestMerchant, type NewMerchant } from "./merchants.ts";
import { createQuote, type KeyedActor } from "./quotes.ts";
import { confirmQuote } from "./plans.ts";
import { appendEvent } from "./events.ts";
import { storeBuyerEmail } from "./buyer-emails.ts";
import { customerRecords, redactCustomer } from "./privacy.ts";
import { cryptoRandom } from "./ids.ts";
import type { Services } from "./context.ts";
import { insertClaimRow, insertTimelineRow } from "../../test/support/claim-rows.ts";

describe.each(DIALECTS)("a customer's personal data (%s)", (dialect) => {
  let database: TestDatabase;
  let merchant: NewMerchant;
  const sealer = createSealer(randomBytes(32));
  const services: Services = {
    clock: () => Date.parse("2026-11-22T12:00:00.000Z"),
    random: cryptoRandom,
    settings: { companyName: "Guarantor Inc.", portalUrl: "https://portal.example" },
  };
  const actor = () => ({ merchantId: merchant.merchantId, mode: "test" as const });
  const server = (): KeyedActor => ({ ...actor(), kind: "secret" });

  /** A confirmed plan whose quote named the address; its welcome e-mail is queued. */
  const protectedOrder = (orderId: string, email: string) =>
    database.db.transaction(async (tx) => {
      const { quote } = await createQuote(tx, services, server(), {
        orderAmountCents: 12_999,
        orderId,
        programId: merchant.programId,
        currency: "USD",
        customerEmail: storeBuyerEmail(sealer, email),
      });
      return (await confirmQuote(tx, services, server(), { surface: "server", quoteId: quote.quoteId })).planId;
    });
  const row = (sql: string, params: string[]) => database.db.get<Record<string, unknown>>(sql, params);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Shop" }));
  });
  afterAll(() => database.drop());

  it("finds the customer's plans by address (any case and spacing) or by order, and only theirs", async () => {
    const byAddress = await protectedOrder("order-a1", "Ada@Example.com");
    const byOrder = await protectedOrder("order-a2", "eve@example.com");
    await protectedOrder("order-b1", "bob@example.com");
    const records = await customerRecords(database.db, sealer, actor(), {
      email: "  ada@example.COM ",
      orderIds: ["order-a2"],
    });
    // Plans made in the same millisecond have no order between them: compare the sets.
    assert.deepEqual(records.purchases.map((purchase) => purchase.id).sort(), [byAddress, byOrder].sort());
    assert.deepEqual(records.claims, []);
    assert.deepEqual(await customerRecords(database.db, sealer, actor(), { email: null, orderIds: [] }), {
      purchases: [],
      claims: [],
      shopifyOrders: [],
      shipments: [],
      claimRisk: [],
    });
  });

  it("redacts the address everywhere it is kept and leaves the contract and other customers alone", async () => {
    const planId = await protectedOrder("order-c1", "carol@example.com");
    const otherPlanId = await protectedOrder("order-d1", "dave@example.com");
    await database.db.transaction((tx) =>
      appendEvent(tx, services, actor(), "protection.confirmed", {
        copies: ["Carol@Example.com", "dave@example.com"],
        note: "carol@example.com.",
      }),
    );

    const touched = await database.db.transaction((tx) =>
      redactCustomer(tx, sealer, actor(), { email: "carol@example.com", orderIds: [] }),
    );

    assert.equal(touched, 1);
    assert.deepEqual(
      await row("SELECT customer_email_sealed, customer_email_hash FROM quotes WHERE order_id = ?", ["order-c1"]),
      { customer_email_sealed: null, customer_email_hash: null },
    );
    const plan = (await row(
      "SELECT customer_email_sealed, customer_email_hash, fee_cents, reference_number, order_context FROM plans WHERE id = ?",
      [planId],
    ))!;
    assert.equal(plan.customer_email_sealed, null);
    assert.equal(plan.customer_email_hash, null);
    assert.equal(plan.fee_cents, 390, "the contract's record stays");
    assert.ok(plan.reference_number);
    assert.deepEqual(JSON.parse(String(plan.order_context)).participants, { mode: "unnamed" });
    assert.deepEqual(
      await row("SELECT recipient_sealed, recipient_hash, status FROM email_messages WHERE plan_id = ?", [planId]),
      {
        recipient_sealed: null,
        recipient_hash: null,
        status: "skipped",
      },
    );
    const event = (await row("SELECT data FROM events WHERE type = ? AND data LIKE ?", [
      "protection.confirmed",
      "%copies%",
    ]))!;
    assert.deepEqual(
      JSON.parse(String(event.data)),
      { copies: ["[redacted]", "dave@example.com"], note: "carol@example.com." },
      "only whole strings equal to the address",
    );

    const other = (await row("SELECT customer_email_hash FROM plans WHERE id = ?", [otherPlanId]))!;
    assert.ok(other.customer_email_hash, "another customer's plan keeps its address");
    assert.equal((await row("SELECT status FROM email_messages WHERE plan_id = ?", [otherPlanId]))!.status, "pending");
  });

  it("takes the buyer's claim messages, evidence and portal sessions out of their plans, and nobody else's words", async () => {
    const planId = await protectedOrder("order-f1", "frank@example.com");
    const at = services.clock();
    const claimId = await insertClaimRow(database.db, actor(), { planId, description: "My address is 1 Elm St", at });
    await insertTimelineRow(database.db, actor(), { claimId, actor: "buyer", kind: "message", text: "Call me", at });
    await insertTimelineRow(database.db, actor(), {
      claimId,
      actor: "claims_team",
      kind: "status_changed",
      status: "needs_information",
      text: "Please send a photo of the label.",
      at,
    });
    await database.db.run(
      `INSERT INTO claim_evidence (id, claim_id, entry_id, merchant_id, mode, sha256, content_type, byte_size, file_name, created_at)
       VALUES ('evd_redact_test', ?, 'cte_x', ?, 'test', ?, 'image/png', 10, 'porch.png', ?)`,
      [claimId, merchant.merchantId, "a".repeat(64), at],
    );
    await database.db.run(
      `INSERT INTO portal_sessions (id, token_hash, merchant_id, mode, plan_id, via, created_at, expires_at)
       VALUES ('pss_redact_test', ?, ?, 'test', ?, 'lookup', ?, ?)`,
      ["b".repeat(64), merchant.merchantId, planId, at, at + 60_000],
    );

    await database.db.transaction((tx) =>
      redactCustomer(tx, sealer, actor(), { email: "frank@example.com", orderIds: [] }),
    );

    const texts = await database.db.all<{ actor: string; text: string }>(
      "SELECT actor, text FROM claim_timeline WHERE claim_id = ? ORDER BY actor",
      [claimId],
    );
    assert.deepEqual(texts, [
      { actor: "buyer", text: "[redacted]" },
      { actor: "claims_team", text: "Please send a photo of the label." },
    ]);
    assert.equal((await row("SELECT description FROM claims WHERE id = ?", [claimId]))!.description, "[redacted]");
    assert.equal(await row("SELECT id FROM claim_evidence WHERE claim_id = ?", [claimId]), undefined);
    assert.equal(await row("SELECT id FROM portal_sessions WHERE plan_id = ?", [planId]), undefined);
  });

  it("finds and scrubs an address holding LIKE's wildcards (_ and %) literally, and no look-alike", async () => {
    const copies = (...addresses: string[]) =>
      database.db.transaction((tx) => appendEvent(tx, services, actor(), "protection.confirmed", { addresses }));
    const underscore = await copies("Erin_Lee@example.com");
    const percent = await copies("frank%50@example.com");
    const lookAlikes = await copies("erinxlee@example.com", "frank%5050@example.com");

    for (const email of ["erin_lee@example.com", "frank%50@example.com"]) {
      await database.db.transaction((tx) => redactCustomer(tx, sealer, actor(), { email, orderIds: [] }));
    }

    const addressesIn = async (eventId: string) =>
      JSON.parse(String((await row("SELECT data FROM events WHERE id = ?", [eventId]))!.data)).addresses;
    assert.deepEqual(await addressesIn(underscore), ["[redacted]"]);
    assert.deepEqual(await addressesIn(percent), ["[redacted]"]);
    assert.deepEqual(await addressesIn(lookAlikes), ["erinxlee@example.com", "frank%5050@example.com"]);
  });
});
