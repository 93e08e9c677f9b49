// docs/api.md "The buyer's address": every confirmed plan has a buyer the service can write to; a confirm without any
// address is refused (422 customer_email_required) and recorded for the dashboard; the store's order name rides on
// the quote to the plan; the merchant's server sets or corrects the address (POST /purchases/{id}/customer-email).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError, createQuote } from "../support/api-assertions.ts";
import { confirmBody, outbox, protectOrder, type ApiClient } from "../support/protection-flows.ts";
import { buyerEmailHash } from "../../server/domain/buyer-emails.ts";
import { createSealer, type Sealer } from "../../server/secrets/sealer.ts";
import { mintApiKey } from "../../server/domain/merchants.ts";
import type { HeadlessQuote } from "../../packages/sdk/src/responses.ts";

interface QuoteRow {
  status: string;
  customer_email_hash: string | null;
  confirm_refused_code: string | null;
  confirm_refused_at: number | string | null;
  order_name: string | null;
}

describe.each(DIALECTS)("the buyer's address (%s)", (dialect) => {
  let t: TestApi;
  let widget: ApiClient;
  let secret: ApiClient;
  let sealer: Sealer;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
    sealer = createSealer(t.encryptionKey);
  });
  afterAll(() => t.close());

  const quoteRow = (quoteId: string) =>
    t.database.db.get<QuoteRow>(
      "SELECT status, customer_email_hash, confirm_refused_code, confirm_refused_at, order_name FROM quotes WHERE id = ?",
      [quoteId],
    );
  const planOf = (planId: string) =>
    t.database.db.get<{ customer_email_hash: string | null; order_name: string | null }>(
      "SELECT customer_email_hash, order_name FROM plans WHERE id = ?",
      [planId],
    );
  const welcomesOf = (planId: string) =>
    t.database.db.all<{ recipient_hash: string; status: string }>(
      "SELECT recipient_hash, status FROM email_messages WHERE plan_id = ? AND template = 'welcome_protected' ORDER BY created_at, id",
      [planId],
    );
  const hashOf = (address: string) => buyerEmailHash(sealer, address);

  describe("a confirm without an address", () => {
    it("/offers/confirm: 422 customer_email_required naming customer_email; nothing created, the quote open with the refusal recorded; a retry with the address confirms", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId, { customer_email: undefined });
      const before = await quoteRow(quote.quoteId);
      const refused = await assertChangesNothing(
        t.database.db,
        () => widget.post("/offers/confirm", confirmBody(quote, token)),
        1,
      );
      assertError(refused, { status: 422, code: "customer_email_required", param: "customer_email" });
      assert.match(refused.body.error.message, /customer_email/, "tells the integrator what to pass");
      // The refused confirm changed nothing but the refusal's two columns.
      assert.deepEqual(await quoteRow(quote.quoteId), {
        ...before,
        confirm_refused_code: "customer_email_required",
        confirm_refused_at: (await quoteRow(quote.quoteId))!.confirm_refused_at,
      });
      assert.equal(Number((await quoteRow(quote.quoteId))!.confirm_refused_at), t.clock.now);
      assert.equal((await quoteRow(quote.quoteId))!.status, "open");
      assert.deepEqual(
        await outbox(t.database.db, t.merchant.merchantId, "protection.confirmed").then((e) =>
          e.filter((event) => event.data.quoteId === quote.quoteId),
        ),
        [],
      );

      const retried = await widget.post("/offers/confirm", {
        ...confirmBody(quote, token),
        customer_email: "Ada@Example.com",
      });
      assert.equal(retried.status, 200, retried.text);
      assert.equal((await planOf(retried.body.planId))!.customer_email_hash, hashOf("ada@example.com"));
      assert.deepEqual(await welcomesOf(retried.body.planId), [
        { recipient_hash: hashOf("ada@example.com"), status: "pending" },
      ]);
    });

    it("/headless/confirm: the same refusal; the same key replays it; a new key with the address confirms", async () => {
      const quoted = await secret.post<HeadlessQuote>("/headless/quote", {
        order_amount_cents: 5_000,
        order_id: `order-${crypto.randomUUID()}`,
        protection_program_id: t.merchant.programId,
      });
      assert.equal(quoted.status, 200, quoted.text);
      const key = crypto.randomUUID();
      const refused = await secret.post(
        "/headless/confirm",
        { quote_id: quoted.body.quote_id },
        { idempotencyKey: key },
      );
      assertError(refused, { status: 422, code: "customer_email_required", param: "customer_email" });
      const replay = await secret.post(
        "/headless/confirm",
        { quote_id: quoted.body.quote_id },
        { idempotencyKey: key },
      );
      assert.equal(replay.status, 422);
      assert.equal(replay.headers.get("idempotent-replayed"), "true");
      assert.equal((await quoteRow(quoted.body.quote_id))!.confirm_refused_code, "customer_email_required");

      const confirmed = await secret.post("/headless/confirm", {
        quote_id: quoted.body.quote_id,
        customer_email: "bo@example.com",
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      assert.equal((await planOf(confirmed.body.plan_id))!.customer_email_hash, hashOf("bo@example.com"));
      assert.equal((await quoteRow(quoted.body.quote_id))!.status, "confirmed");
    });
  });

  it("the OpenAPI document names customer_email_required on both confirms and documents customer_email and order_name", async () => {
    const document = (await apiClient(t.baseUrl).get("/openapi.json")).body;
    for (const path of ["/offers/confirm", "/headless/confirm"]) {
      const operation = document.paths[path].post;
      assert.match(operation.responses["422"].description, /customer_email_required/, path);
      assert.ok(operation.requestBody.content["application/json"].schema.properties.customer_email, path);
    }
    for (const path of ["/offers/quote", "/headless/quote"])
      assert.ok(document.paths[path].post.requestBody.content["application/json"].schema.properties.order_name, path);
    assert.ok(document.paths["/purchases/{purchaseId}/customer-email"].post);
  });

  it("the confirm's address wins over the quote's: the plan and its welcome e-mail take it", async () => {
    const { quote, token } = await createQuote(widget, t.merchant.programId, { customer_email: "typo@exmaple.com" });
    const confirmed = await widget.post("/offers/confirm", {
      ...confirmBody(quote, token),
      customer_email: "cy@example.com",
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal((await planOf(confirmed.body.planId))!.customer_email_hash, hashOf("cy@example.com"));
    assert.deepEqual(
      (await welcomesOf(confirmed.body.planId)).map((message) => message.recipient_hash),
      [hashOf("cy@example.com")],
    );
  });

  it("an invalid customer_email on confirm is 400 parameter_invalid and changes nothing", async () => {
    const { quote, token } = await createQuote(widget, t.merchant.programId);
    const response = await assertChangesNothing(t.database.db, () =>
      widget.post("/offers/confirm", { ...confirmBody(quote, token), customer_email: "not an address" }),
    );
    assertError(response, { status: 400, code: "parameter_invalid", param: "customer_email" });
  });

  describe("order_name", () => {
    it("is trimmed, kept on the quote and copied to the plan at confirm, on both surfaces", async () => {
      const { quote, confirmation } = await protectOrder(widget, t.merchant.programId, { order_name: "  #1001 " });
      assert.equal((await quoteRow(quote.quoteId))!.order_name, "#1001");
      assert.equal((await planOf(confirmation.planId))!.order_name, "#1001");
      const quoted = await secret.post<HeadlessQuote>("/headless/quote", {
        order_amount_cents: 5_000,
        order_id: `order-${crypto.randomUUID()}`,
        protection_program_id: t.merchant.programId,
        customer_email: "dee@example.com",
        order_name: "SO-77",
      });
      const confirmed = await secret.post("/headless/confirm", { quote_id: quoted.body.quote_id });
      assert.equal((await planOf(confirmed.body.plan_id))!.order_name, "SO-77");
    });

    it("is optional (null on the plan); longer than 64 characters, empty or with a control character it is 400 and changes nothing", async () => {
      const { confirmation } = await protectOrder(widget, t.merchant.programId);
      assert.equal((await planOf(confirmation.planId))!.order_name, null);
      for (const orderName of ["#".repeat(65), "   ", "#10\u000701"]) {
        const response = await assertChangesNothing(t.database.db, () =>
          widget.post("/offers/quote", {
            order_amount_cents: 5_000,
            order_id: `order-${crypto.randomUUID()}`,
            protection_program_id: t.merchant.programId,
            order_name: orderName,
          }),
        );
        assertError(response, { status: 400, code: "parameter_invalid", param: "order_name" });
      }
    });
  });

  describe("POST /purchases/{id}/customer-email", () => {
    const setAddress = (client: ApiClient, planId: string, address: string) =>
      client.post(`/purchases/${planId}/customer-email`, { customer_email: address });

    it("while the welcome e-mail waits: the plan takes the new address, the waiting welcome goes there instead, one protection.updated", async () => {
      const { confirmation } = await protectOrder(widget, t.merchant.programId, { customer_email: "old@example.com" });
      const response = await setAddress(secret, confirmation.planId, "New@Example.com");
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.id, confirmation.planId);
      assert.equal(response.body.object, "purchase");
      assert.ok(!response.text.toLowerCase().includes("new@example.com"), "the address is not echoed");
      assert.equal((await planOf(confirmation.planId))!.customer_email_hash, hashOf("new@example.com"));
      assert.deepEqual(await welcomesOf(confirmation.planId), [
        { recipient_hash: hashOf("new@example.com"), status: "pending" },
      ]);
      const updated = (await outbox(t.database.db, t.merchant.merchantId, "protection.updated")).filter(
        (event) => event.data.id === confirmation.planId,
      );
      assert.equal(updated.length, 1);
      assert.ok(!JSON.stringify(updated[0].data).toLowerCase().includes("new@example.com"));
    });

    it("is idempotent: the address the plan holds (in any case) changes nothing", async () => {
      const { confirmation } = await protectOrder(widget, t.merchant.programId, { customer_email: "same@example.com" });
      const before = await rowCounts(t.database.db);
      const response = await setAddress(secret, confirmation.planId, " SAME@example.com".trim());
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(await rowCounts(t.database.db), {
        ...before,
        idempotency_records: before.idempotency_records + 1,
      });
    });

    it("once the welcome went out (or is being sent), a new welcome is queued to the new address, once per address", async () => {
      for (const state of ["sent", "leased"] as const) {
        const { confirmation } = await protectOrder(widget, t.merchant.programId, {
          customer_email: `first-${state}@example.com`,
        });
        if (state === "sent")
          await t.database.db.run("UPDATE email_messages SET status = 'sent', sent_at = ? WHERE plan_id = ?", [
            t.clock.now,
            confirmation.planId,
          ]);
        else
          await t.database.db.run("UPDATE email_messages SET locked_until = ? WHERE plan_id = ?", [
            t.clock.now + 60_000,
            confirmation.planId,
          ]);
        const firstState = state === "sent" ? "sent" : "pending";
        assert.equal((await setAddress(secret, confirmation.planId, "second@example.com")).status, 200);
        // Both made on the test clock's same millisecond: compared without their order.
        const byHash = (rows: { recipient_hash: string; status: string }[]) =>
          [...rows].sort((a, b) => a.recipient_hash.localeCompare(b.recipient_hash));
        assert.deepEqual(
          byHash(await welcomesOf(confirmation.planId)),
          byHash([
            { recipient_hash: hashOf(`first-${state}@example.com`), status: firstState },
            { recipient_hash: hashOf("second@example.com"), status: "pending" },
          ]),
        );
        // Back and forth: the first address already had its welcome; the second is not sent twice.
        assert.equal((await setAddress(secret, confirmation.planId, `first-${state}@example.com`)).status, 200);
        assert.equal((await setAddress(secret, confirmation.planId, "second@example.com")).status, 200);
        assert.equal((await welcomesOf(confirmation.planId)).length, 2);
      }
    });

    it("a restricted key may call it; a publishable key is 403; an unknown or another merchant's purchase is 404; a bad address is 400; none changes anything", async () => {
      const { confirmation } = await protectOrder(widget, t.merchant.programId);
      const restrictedKey = await t.database.db.transaction((tx) =>
        mintApiKey(tx, t.services, { merchantId: t.merchant.merchantId, mode: "test" }, "restricted"),
      );
      const restricted = apiClient(t.baseUrl, restrictedKey.key);
      assert.equal((await setAddress(restricted, confirmation.planId, "rk@example.com")).status, 200);
      assert.equal((await planOf(confirmation.planId))!.customer_email_hash, hashOf("rk@example.com"));

      const other = await t.createMerchant("Other Shop");
      const otherSecret = apiClient(t.baseUrl, other.secretKey);
      const refusals: [() => Promise<Awaited<ReturnType<ApiClient["post"]>>>, number, string, string | undefined][] = [
        [() => setAddress(widget, confirmation.planId, "x@example.com"), 403, "secret_key_required", undefined],
        [() => setAddress(secret, "plan_unknown", "x@example.com"), 404, "resource_missing", "purchaseId"],
        [() => setAddress(otherSecret, confirmation.planId, "x@example.com"), 404, "resource_missing", "purchaseId"],
        [() => setAddress(secret, confirmation.planId, "no-at-sign"), 400, "parameter_invalid", "customer_email"],
      ];
      for (const [send, status, code, param] of refusals) {
        const before = await rowCounts(t.database.db);
        const response = await send();
        assertError(response, { status, code, param });
        const after = await rowCounts(t.database.db);
        assert.deepEqual({ ...after, idempotency_records: 0 }, { ...before, idempotency_records: 0 }, code);
      }
      assert.equal((await planOf(confirmation.planId))!.customer_email_hash, hashOf("rk@example.com"));
    });
  });
});
