import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { keysDeep, outbox, type ApiClient } from "../support/protection-flows.ts";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { COVERED_REASONS } from "../../server/domain/disclosure.ts";
import { createProgram, DEFAULT_PROGRAM } from "../../server/domain/programs.ts";
import { createSealer } from "../../server/secrets/sealer.ts";

// The server-to-server surface (docs/api.md "Headless (server path)"): snake_case in and
// out, disclosure_text is the byte-string 'This is not insurance', confirm by quote id with no quote token.

const PHRASE = "This is not insurance";
const FULL_DISCLOSURE =
  "This is not insurance. This is a contractual refund guarantee provided by Test Protection Ltd.";

/** No key of the body, at any depth, has an uppercase letter. */
function assertSnakeCase(response: ApiResponse) {
  const camel = keysDeep(response.body).filter((key) => /[A-Z]/.test(key));
  assert.deepEqual(camel, [], `snake_case keys only: ${response.text}`);
}

describe.each(DIALECTS)("headless (%s)", (dialect) => {
  let t: TestApi;
  let secret: ApiClient;
  let widget: ApiClient;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
  });
  afterAll(() => t.close());

  const quoteBody = (fields: Record<string, unknown> = {}) => ({
    order_amount_cents: 12_999,
    order_id: `order-${crypto.randomUUID()}`,
    protection_program_id: t.merchant.programId,
    ...fields,
  });
  async function quote(fields: Record<string, unknown> = {}) {
    const response = await secret.post("/headless/quote", quoteBody(fields));
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  it("quote: snake_case in and out, disclosure_text exactly 'This is not insurance', disclosure the full two sentences, no token header", async () => {
    const body = quoteBody({ currency: "eur", customer_email: "buyer@example.test", product_category: "electronics" });
    const response = await secret.post("/headless/quote", body);
    assert.equal(response.status, 200, response.text);
    assertSnakeCase(response);
    assert.equal(response.headers.get("x-service-quote-token"), null);
    assert.deepEqual(
      { ...response.body, quote_id: undefined },
      {
        quote_id: undefined,
        status: "open",
        order_id: body.order_id,
        currency: "EUR",
        order_amount_cents: 12_999,
        fee_cents: 390,
        payer: "buyer",
        buyer_fee_cents: 390,
        merchant_fee_cents: 0,
        covered_amount_cents: 12_999,
        covered_reasons: [...COVERED_REASONS],
        disclosure_text: PHRASE,
        disclosure: FULL_DISCLOSURE,
        terms_url: "https://portal.example.test/terms",
        offer_wording: "standard",
        expires_at: new Date(t.clock.now + 30 * 60 * 1000).toISOString(),
        livemode: false,
      },
    );
    assert.ok(Buffer.from(response.body.disclosure_text, "utf8").equals(Buffer.from(PHRASE, "utf8")), "byte-equal");
    assert.match(response.body.quote_id, /^qt_[0-9a-z]{24}$/);
    const { customer_email_sealed: sealedEmail, ...row } = (await t.database.db.get<{
      product_category: string;
      customer_email_sealed: string;
      currency: string;
    }>("SELECT product_category, customer_email_sealed, currency FROM quotes WHERE id = ?", [response.body.quote_id]))!;
    assert.deepEqual(
      { ...row, customer_email: createSealer(t.encryptionKey).open(sealedEmail) },
      { product_category: "electronics", customer_email: "buyer@example.test", currency: "EUR" },
    );
  });

  it("quote: camelCase fields on the wire are refused with 400 (the SDKs translate them to snake_case)", async () => {
    const camelOnly = await assertChangesNothing(t.database.db, () =>
      secret.post("/headless/quote", {
        orderAmountCents: 12_999,
        orderId: "order-camel",
        protectionProgramId: t.merchant.programId,
      }),
    );
    assertError(camelOnly, { status: 400, code: "parameter_missing", param: "order_amount_cents" });
    assertSnakeCase(camelOnly);
    const extraCamel = await assertChangesNothing(t.database.db, () =>
      secret.post("/headless/quote", { ...quoteBody(), productCategory: "toys" }),
    );
    assertError(extraCamel, { status: 400, code: "parameter_unknown", param: "productCategory" });
  });

  for (const field of ["quote_id", "quoteId"]) {
    it(`confirm with ${field}: a plan with a reference number, snake_case, consent surface 'server'`, async () => {
      const quoted = await quote();
      const response = await secret.post("/headless/confirm", {
        [field]: quoted.quote_id,
        customer_email: "ada@example.com",
      });
      assert.equal(response.status, 200, response.text);
      assertSnakeCase(response);
      assert.match(response.body.reference_number, REFERENCE_NUMBER_PATTERN);
      assert.equal(response.body.status, "confirmed");
      assert.equal(response.body.order_id, quoted.order_id);
      assert.equal(response.body.fee_cents, 390);
      assert.equal(response.body.covered_amount_cents, 12_999);
      assert.equal(
        response.body.free_look_ends_at,
        new Date(t.clock.now + 48 * 3600 * 1000).toISOString(),
        "purchased now, 48 h free look",
      );
      assert.equal(
        response.body.coverage_url,
        `https://portal.example.test/coverage/${response.body.reference_number}`,
      );

      const purchase = await secret.get(`/purchases/${response.body.plan_id}`);
      assert.equal(purchase.body.consent.surface, "server");
      assert.equal(purchase.body.consent.quoteId, quoted.quote_id);
      assert.equal(purchase.body.consent.disclosureText, FULL_DISCLOSURE);
      const events = (await outbox(t.database.db, t.merchant.merchantId, "protection.confirmed")).filter(
        (e) => e.data.id === response.body.plan_id,
      );
      assert.equal(events.length, 1);
      const { consent, ...shown } = purchase.body;
      assert.deepEqual(
        events[0].data,
        shown,
        "the event carries the purchase as GET /purchases/{id} shows it (without the consent record)",
      );

      const again = await secret.post("/headless/confirm", { quote_id: quoted.quote_id });
      assertError(again, { status: 409, code: "quote_already_used", param: "quote_id" });
      assertSnakeCase(again);
    });
  }

  it("confirm and decline with both quote_id and quoteId, or neither, are 400 and change nothing", async () => {
    const quoted = await quote();
    const both = { quote_id: quoted.quote_id, quoteId: quoted.quote_id };
    for (const [path, bodies] of [
      ["/headless/confirm", [both, {}]],
      ["/headless/decline", [both, {}, { reason: "no id" }]],
    ] as const) {
      for (const body of bodies) {
        const response = await assertChangesNothing(t.database.db, () => secret.post(path, body));
        assertError(response, { status: 400, code: "parameter_invalid", param: "quote_id" });
      }
    }
    const row = await t.database.db.get<{ status: string }>("SELECT status FROM quotes WHERE id = ?", [
      quoted.quote_id,
    ]);
    assert.equal(row!.status, "open");
  });

  it("confirm of an unknown quote is 404 resource_missing naming quote_id", async () => {
    const response = await assertChangesNothing(
      t.database.db,
      () => secret.post("/headless/confirm", { quote_id: "qt_unknown" }),
      1,
    );
    assertError(response, { status: 404, code: "resource_missing", param: "quote_id" });
  });

  for (const [label, reason] of [
    ["with a reason", "customer said no"],
    ["without a reason", undefined],
  ] as const) {
    it(`decline ${label}: snake_case declined quote and an offer.declined event`, async () => {
      const quoted = await quote();
      const response = await secret.post(
        "/headless/decline",
        reason === undefined ? { quoteId: quoted.quote_id } : { quote_id: quoted.quote_id, reason },
      );
      assert.equal(response.status, 200, response.text);
      assertSnakeCase(response);
      assert.deepEqual(response.body, {
        quote_id: quoted.quote_id,
        status: "declined",
        reason: reason ?? null,
        declined_at: new Date(t.clock.now).toISOString(),
        livemode: false,
      });
      const row = await t.database.db.get<{ status: string; decline_reason: string | null }>(
        "SELECT status, decline_reason FROM quotes WHERE id = ?",
        [quoted.quote_id],
      );
      assert.deepEqual({ ...row }, { status: "declined", decline_reason: reason ?? null });
      const events = (await outbox(t.database.db, t.merchant.merchantId, "offer.declined")).filter(
        (e) => e.data.quoteId === quoted.quote_id,
      );
      assert.equal(events.length, 1);
    });
  }

  it("product_category is accepted and priced by the program", async () => {
    const quoted = await quote({ product_category: "furniture", order_amount_cents: 2_000 });
    assert.equal(quoted.fee_cents, 100, "minimum fee");
    assert.equal(quoted.disclosure_text, PHRASE);
  });

  it("a program limited to some product categories refuses others with 400 product_category_unsupported", async () => {
    const programId = await t.database.db.transaction((tx) =>
      createProgram(
        tx,
        t.services,
        { merchantId: t.merchant.merchantId, mode: "test" },
        { ...DEFAULT_PROGRAM, productCategories: ["electronics"] },
      ),
    );
    assert.equal((await quote({ protection_program_id: programId, product_category: "electronics" })).status, "open");
    const refused = await assertChangesNothing(
      t.database.db,
      () =>
        secret.post("/headless/quote", quoteBody({ protection_program_id: programId, product_category: "furniture" })),
      1,
    );
    assertError(refused, { status: 400, code: "product_category_unsupported", param: "product_category" });
    assertSnakeCase(refused);
  });

  it("every headless route refuses a widget key with 403 secret_key_required and changes nothing", async () => {
    const quoted = await quote();
    for (const [path, body] of [
      ["/headless/quote", quoteBody()],
      ["/headless/confirm", { quote_id: quoted.quote_id }],
      ["/headless/decline", { quote_id: quoted.quote_id }],
    ] as const) {
      const response = await assertChangesNothing(t.database.db, () => widget.post(path, body));
      assertError(response, { status: 403, code: "secret_key_required" });
      assertSnakeCase(response);
    }
  });
});
