import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { protectOrder } from "../support/protection-flows.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { redactCustomer } from "../../server/domain/privacy.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";

// docs/api.md "Buyer portal API": the look-up also takes the buyer's address with the store's order number (the order
// name buyers know, "#1001", whatever its "#", spaces or case) or the order id; every mismatch is the one 404
// portal_lookup_failed; several matching plans give the newest.

describe.each(DIALECTS)("portal look-up by order number (%s)", (dialect) => {
  let t: TestApi;
  let anyone: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    anyone = apiClient(t.baseUrl);
  });
  afterAll(() => t.close());

  const lookup = (body: unknown) => anyone.post("/portal/lookup", body, { idempotencyKey: null });

  /** A plan bought with this address; the store's order name, when given, as the plan records it. */
  async function plan(
    options: { email?: string; orderId?: string; orderName?: string | null; merchant?: NewMerchant } = {},
  ) {
    const merchant = options.merchant ?? t.merchant;
    const email = options.email ?? `buyer-${randomUUID()}@example.test`;
    const orderId = options.orderId ?? `order-${randomUUID()}`;
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, merchant.publishableKey), merchant.programId, {
      customer_email: email,
      order_id: orderId,
    });
    if (options.orderName !== undefined)
      await t.database.db.run("UPDATE plans SET order_name = ? WHERE id = ?", [options.orderName, confirmation.planId]);
    return { email, orderId, referenceNumber: confirmation.referenceNumber as string };
  }

  it("the store's order name, as a buyer types it, opens the plan; the plan names the order", async () => {
    const bought = await plan({ email: "order.buyer@example.test", orderName: "#SO-1001a" });
    for (const typed of ["#SO-1001a", "so-1001A", " # SO-1001A ", "SO - 1001a"]) {
      const response = await lookup({ email: " Order.Buyer@example.test", orderNumber: typed });
      assert.equal(response.status, 200, `${typed}: ${response.text}`);
      assert.equal(response.body.plan.referenceNumber, bought.referenceNumber);
      assert.equal(response.body.plan.orderName, "#SO-1001a");
    }
  });

  it("the order name the store sent with the quote (order_name) is the plan's: the buyer finds it by it", async () => {
    const email = `quoted-${randomUUID()}@example.test`;
    const orderName = `#Q${Date.now() % 100_000}`;
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, t.merchant.publishableKey), t.merchant.programId, {
      customer_email: email,
      order_name: orderName,
    });
    const response = await lookup({ email, orderNumber: orderName.slice(1).toLowerCase() });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.plan.referenceNumber, confirmation.referenceNumber);
    assert.equal(response.body.plan.orderName, orderName);
  });

  it("the order id opens the plan too, with or without a leading #", async () => {
    const bought = await plan({ orderId: "100245", orderName: null });
    for (const typed of ["100245", "#100245", " 100245 "]) {
      const response = await lookup({ email: bought.email, orderNumber: typed });
      assert.equal(response.status, 200, `${typed}: ${response.text}`);
      assert.equal(response.body.plan.referenceNumber, bought.referenceNumber);
      assert.equal(response.body.plan.orderName, null);
    }
  });

  it("the same address and order id at two stores: the newest purchase, every time, whichever store it is", async () => {
    const other = await t.createMerchant("Second Store");
    for (const [first, second] of [
      [t.merchant, other],
      [other, t.merchant],
    ]) {
      const email = `two-stores-${randomUUID()}@example.test`;
      const orderId = `shared-${randomUUID()}`;
      await plan({ email, orderId, merchant: first });
      t.clock.advance(60_000);
      const newer = await plan({ email, orderId, merchant: second });
      for (let i = 0; i < 2; i++) {
        const response = await lookup({ email, orderNumber: orderId });
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body.plan.referenceNumber, newer.referenceNumber);
      }
    }
  });

  it("every mismatch is the one 404 portal_lookup_failed of the reference look-up, and writes nothing", async () => {
    const bought = await plan({ orderName: "#2001" });
    const another = await plan({ orderName: "#2002" });
    const redacted = await plan({ orderName: "#2003" });
    await t.database.db.transaction((tx) =>
      redactCustomer(
        tx,
        createSealer(t.encryptionKey),
        { merchantId: t.merchant.merchantId, mode: "test" },
        { email: redacted.email, orderIds: [] },
      ),
    );
    const failures = [
      { email: bought.email, referenceNumber: "CLM-2026-ZZZZZZZZ" },
      { email: bought.email, orderNumber: "#2999" },
      { email: bought.email, orderNumber: "#2002" },
      { email: bought.email, orderNumber: another.orderId },
      { email: "someone.else@example.test", orderNumber: "#2001" },
      { email: "someone.else@example.test", orderNumber: bought.orderId },
      { email: redacted.email, orderNumber: "#2003" },
      { email: bought.email, orderNumber: "#" },
      { email: bought.email, orderNumber: "2001%" },
      { email: bought.email, orderNumber: bought.referenceNumber },
    ];
    const bodies = new Set<string>();
    for (const body of failures) {
      const response = await assertChangesNothing(t.database.db, () => lookup(body));
      assertError(response, { status: 404, code: "portal_lookup_failed", param: null });
      const { request_id: _requestId, ...rest } = response.body.error;
      bodies.add(JSON.stringify(rest));
    }
    assert.equal(bodies.size, 1, `one answer for every mismatch: ${[...bodies].join(" | ")}`);
  });

  it("a body with both or neither of referenceNumber and orderNumber is 400 and writes nothing", async () => {
    const bought = await plan({ orderName: "#3001" });
    for (const body of [
      { email: bought.email },
      { email: bought.email, referenceNumber: bought.referenceNumber, orderNumber: "#3001" },
      { email: bought.email, orderNumber: "" },
      { email: bought.email, orderNumber: "x".repeat(256) },
    ]) {
      const response = await assertChangesNothing(t.database.db, () => lookup(body));
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
    }
  });
});
