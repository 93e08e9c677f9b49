import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { protectForBuyer, signIn, signedInBuyer } from "../support/portal.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { sha256Hex } from "../../server/domain/ids.ts";
import { lookUpPlan } from "../../server/domain/portal.ts";
import type { Queryable, SqlValue } from "../../server/store/database.ts";
import { redactCustomer } from "../../server/domain/privacy.ts";
import { coverageLinks, COVERAGE_LINK_LIFETIME_MS } from "../../server/email/coverage-link.ts";
import { COVERED_REASONS, reasonName } from "../../server/domain/disclosure.ts";
import { rulebookText } from "../../server/domain/rulebook-text.ts";
import { DENIAL_REASONS } from "../../server/domain/claim-decisions.ts";
import { EVIDENCE_CONTENT_TYPES, EVIDENCE_LIMITS } from "../../server/evidence/index.ts";

// docs/api.md "Buyer portal API": the sign-ins (e-mail + reference number, the welcome e-mail's coverage link), the portal
// session they open, the coverage summary and the public rulebook.

const SESSION_MS = 30 * 60 * 1000;

describe.each(DIALECTS)("buyer portal sessions (%s)", (dialect) => {
  let t: TestApi;
  let anyone: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    t = await startTestApi({ dialect, companyName: "Acme Guarantee Ltd." });
    anyone = apiClient(t.baseUrl);
  });
  afterAll(() => t.close());

  const lookup = (body: unknown, options = {}) =>
    anyone.post("/portal/lookup", body, { idempotencyKey: null, ...options });

  it("a matching e-mail and reference number open a 30-minute session with the coverage summary", async () => {
    const plan = await protectForBuyer(t, { email: "Buyer.One@Example.test" });
    const before = Number((await t.database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM portal_sessions"))!.n);
    const response = await lookup({ email: "Buyer.One@Example.test", referenceNumber: plan.referenceNumber });
    assert.equal(response.status, 200, response.text);
    const session = response.body;
    assert.equal(session.object, "portal_session");
    assert.match(session.portalToken, /^pps_[A-Za-z0-9_-]{43}$/);
    assert.equal(Date.parse(session.expiresAt), t.clock.now + SESSION_MS);
    assert.equal(response.headers.get("cache-control"), "no-store");
    const purchase = await apiClient(t.baseUrl, t.merchant.secretKey).get(`/purchases/${plan.planId}`);
    assert.deepEqual(session.plan, {
      object: "portal_plan",
      referenceNumber: plan.referenceNumber,
      status: "active",
      merchantName: "Test Store",
      orderId: purchase.body.orderId,
      orderName: null,
      currency: "USD",
      feeCents: purchase.body.feeCents,
      payer: "buyer",
      buyerFeeCents: purchase.body.feeCents,
      coveredAmountCents: purchase.body.coveredAmountCents,
      remainingCoveredCents: purchase.body.coveredAmountCents,
      purchasedAt: purchase.body.purchasedAt,
      freeLookEndsAt: purchase.body.freeLookEndsAt,
      cancellable: true,
      cancelledAt: null,
      feeRefund: null,
      claimWindowDays: 30,
      deliveredAt: null,
      deliveryClaimsUntil: null,
      coveredReasons: COVERED_REASONS.map((code) => ({ code, name: reasonName(code) })),
      disclosureText: "This is not insurance. This is a contractual refund guarantee provided by Acme Guarantee Ltd.",
      locale: null,
      livemode: false,
    });
    // Only the token's hash is stored, with the plan, the way in and the expiry.
    const rows = await t.database.db.all<Record<string, unknown>>("SELECT * FROM portal_sessions WHERE plan_id = ?", [
      plan.planId,
    ]);
    assert.equal(rows.length, 1);
    assert.equal(
      Number((await t.database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM portal_sessions"))!.n),
      before + 1,
    );
    assert.equal(rows[0].via, "lookup");
    assert.equal(Number(rows[0].expires_at), t.clock.now + SESSION_MS);
    assert.ok(!JSON.stringify(rows).includes(session.portalToken.slice(4)), "the token is not stored");

    const own = await apiClient(t.baseUrl, session.portalToken).get("/portal/plan");
    assert.equal(own.status, 200, own.text);
    assert.deepEqual(own.body, session.plan);
  });

  it("the e-mail matches whatever its case and surrounding space; the reference number too", async () => {
    const plan = await protectForBuyer(t, { email: "case.test@example.test" });
    for (const [email, referenceNumber] of [
      ["  CASE.Test@EXAMPLE.test\t", plan.referenceNumber],
      ["case.test@example.test", ` ${plan.referenceNumber.toLowerCase()} `],
    ]) {
      const response = await lookup({ email, referenceNumber });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.plan.referenceNumber, plan.referenceNumber);
    }
  });

  it("an unknown reference, another address and a redacted plan get the same 404 portal_lookup_failed, and nothing is written", async () => {
    const plan = await protectForBuyer(t);
    const redacted = await protectForBuyer(t);
    await t.database.db.transaction((tx) =>
      redactCustomer(
        tx,
        createSealer(t.encryptionKey),
        { merchantId: t.merchant.merchantId, mode: "test" },
        {
          email: redacted.email,
          orderIds: [],
        },
      ),
    );
    const other = await protectForBuyer(t);
    const failures = [
      { email: plan.email, referenceNumber: "CLM-2026-ZZZZZZZZ" },
      { email: "someone.else@example.test", referenceNumber: plan.referenceNumber },
      { email: other.email, referenceNumber: plan.referenceNumber },
      { email: redacted.email, referenceNumber: redacted.referenceNumber },
    ];
    const bodies = [];
    for (const body of failures) {
      const response = await assertChangesNothing(t.database.db, () => lookup(body));
      assertError(response, { status: 404, code: "portal_lookup_failed", param: null });
      const { request_id: _requestId, ...rest } = response.body.error;
      bodies.push(JSON.stringify(rest));
    }
    assert.equal(new Set(bodies).size, 1, "one answer for every mismatch");
  });

  it("a wrong address on a real reference does the work of an unknown reference: the same statements, none finding a row", async () => {
    const plan = await protectForBuyer(t);
    const sealer = createSealer(t.encryptionKey);
    async function traced(input: { email: string; referenceNumber: string }) {
      const statements: { sql: string; rows: number }[] = [];
      await t.database.db.transaction(async (tx) => {
        const record = <T>(sql: string, rows: T[]) => (statements.push({ sql, rows: rows.length }), rows);
        const recording: Queryable = {
          dialect: tx.dialect,
          all: async <T>(sql: string, params?: SqlValue[]) => record(sql, await tx.all<T>(sql, params)),
          get: async <T>(sql: string, params?: SqlValue[]) => {
            const row = await tx.get<T>(sql, params);
            record(sql, row === undefined ? [] : [row]);
            return row;
          },
          run: (sql, params) => tx.run(sql, params).then((changed) => (record(sql, []), changed)),
          runAtCommit: (sql, params) => tx.runAtCommit(sql, params).then(() => void record(sql, [])),
        };
        await assert.rejects(lookUpPlan(recording, t.services, sealer, input), { code: "portal_lookup_failed" });
      });
      return statements;
    }
    const wrongAddress = await traced({ email: "someone.else@example.test", referenceNumber: plan.referenceNumber });
    const unknownReference = await traced({ email: plan.email, referenceNumber: "CLM-2026-ZZZZZZZZ" });
    assert.deepEqual(wrongAddress, unknownReference);
    assert.ok(wrongAddress.length > 0 && wrongAddress.every((statement) => statement.rows === 0), "no row is read");
  });

  it("takes no Idempotency-Key and stores nothing: the same request twice opens two sessions", async () => {
    const plan = await protectForBuyer(t);
    const key = crypto.randomUUID();
    const first = await lookup({ email: plan.email, referenceNumber: plan.referenceNumber }, { idempotencyKey: key });
    const second = await lookup({ email: plan.email, referenceNumber: plan.referenceNumber }, { idempotencyKey: key });
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.notEqual(first.body.portalToken, second.body.portalToken, "a repeated key replays no token");
    assert.equal(second.headers.get("idempotent-replayed"), null);
    const stored = await t.database.db.all("SELECT key FROM idempotency_records WHERE key = ?", [key]);
    assert.deepEqual(stored, []);
  });

  it("bad bodies are 400 and write nothing", async () => {
    const plan = await protectForBuyer(t);
    for (const [body, param] of [
      [{ referenceNumber: plan.referenceNumber }, "email"],
      [{ email: "not-an-address", referenceNumber: plan.referenceNumber }, "email"],
      [{ email: plan.email }, "referenceNumber"],
      [{ email: plan.email, referenceNumber: plan.referenceNumber, extra: 1 }, "extra"],
    ] as const) {
      const response = await assertChangesNothing(t.database.db, () => lookup(body));
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.error.param, param);
    }
  });

  it("a session ends after 30 minutes: 401 portal_session_invalid, and the periodic purge deletes it", async () => {
    const buyer = await signedInBuyer(t);
    t.clock.advance(SESSION_MS - 1);
    assert.equal((await buyer.buyer.get("/portal/plan")).status, 200);
    t.clock.advance(1);
    assertError(await buyer.buyer.get("/portal/plan"), { status: 401, code: "portal_session_invalid", param: null });
    const purged = await t.api.purgeExpired();
    assert.ok(purged >= 1);
    const left = await t.database.db.all("SELECT id FROM portal_sessions WHERE expires_at <= ?", [t.clock.now]);
    assert.deepEqual(left, []);
    // A new sign-in works as before.
    assert.equal((await (await signIn(t, buyer)).buyer.get("/portal/plan")).status, 200);
  });

  it("sign-out ends the session on the server at once; the buyer's other sessions keep working", async () => {
    const buyer = await signedInBuyer(t);
    const other = await signIn(t, buyer);
    const signedOut = await buyer.buyer.post("/portal/sign-out", {});
    assert.equal(signedOut.status, 200, signedOut.text);
    assert.deepEqual(signedOut.body, { object: "portal_session", deleted: true });
    for (const request of [
      () => buyer.buyer.get("/portal/plan"),
      () => buyer.buyer.get("/claims"),
      () => buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber }),
      () => buyer.buyer.post("/portal/sign-out", {}),
    ])
      assertError(await assertChangesNothing(t.database.db, request), {
        status: 401,
        code: "portal_session_invalid",
        param: null,
      });
    assert.equal((await other.buyer.get("/portal/plan")).status, 200, "only the signed-out session ends");
    // The row is ended, not kept alive: the periodic purge removes it like an expired one.
    await t.api.purgeExpired();
    const left = await t.database.db.all("SELECT id FROM portal_sessions WHERE token_hash = ?", [
      sha256Hex(buyer.token),
    ]);
    assert.deepEqual(left, []);
  });

  it("a session opens only its own plan; merchant routes refuse it as an invalid key", async () => {
    const first = await signedInBuyer(t);
    const second = await signedInBuyer(t);
    assert.equal((await first.buyer.get("/portal/plan")).body.referenceNumber, first.referenceNumber);
    assert.equal((await second.buyer.get("/portal/plan")).body.referenceNumber, second.referenceNumber);
    assertError(await first.buyer.get("/purchases"), { status: 401, code: "api_key_invalid" });
    assertError(await first.buyer.get(`/purchases/${first.planId}`), { status: 401, code: "api_key_invalid" });
  });

  describe("the coverage link", () => {
    const links = () => coverageLinks(t.encryptionKey);
    const open = (body: unknown) => anyone.post("/portal/coverage-link", body, { idempotencyKey: null });

    it("the welcome e-mail's token opens a session like the look-up, for 180 days", async () => {
      const plan = await protectForBuyer(t);
      const token = links().tokenFor(plan.referenceNumber, t.clock.now);
      const response = await open({ referenceNumber: plan.referenceNumber, token });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.object, "portal_session");
      assert.equal(response.body.plan.referenceNumber, plan.referenceNumber);
      const [row] = await t.database.db.all<{ via: string }>("SELECT via FROM portal_sessions WHERE plan_id = ?", [
        plan.planId,
      ]);
      assert.equal(row.via, "coverage_link");
      assert.equal((await apiClient(t.baseUrl, response.body.portalToken).get("/portal/plan")).status, 200);

      const issuedAt = t.clock.now;
      t.clock.advance(COVERAGE_LINK_LIFETIME_MS - 1000);
      assert.equal((await open({ referenceNumber: plan.referenceNumber, token })).status, 200);
      t.clock.now = issuedAt + COVERAGE_LINK_LIFETIME_MS;
      const expired = await assertChangesNothing(t.database.db, () =>
        open({ referenceNumber: plan.referenceNumber, token }),
      );
      assertError(expired, { status: 404, code: "portal_lookup_failed", param: null });
    });

    it("a forged, old-style (no expiry) or another plan's token, and a redacted plan, are 404 portal_lookup_failed", async () => {
      const plan = await protectForBuyer(t);
      const other = await protectForBuyer(t);
      const redacted = await protectForBuyer(t);
      await t.database.db.transaction((tx) =>
        redactCustomer(
          tx,
          createSealer(t.encryptionKey),
          { merchantId: t.merchant.merchantId, mode: "test" },
          {
            email: redacted.email,
            orderIds: [],
          },
        ),
      );
      const good = links().tokenFor(plan.referenceNumber, t.clock.now);
      const [expiry, mac] = good.split(".");
      for (const body of [
        { referenceNumber: plan.referenceNumber, token: mac },
        { referenceNumber: plan.referenceNumber, token: `${Number(expiry) + 1}.${mac}` },
        { referenceNumber: plan.referenceNumber, token: links().tokenFor(other.referenceNumber, t.clock.now) },
        { referenceNumber: plan.referenceNumber, token: "forged" },
        { referenceNumber: "CLM-2026-ZZZZZZZZ", token: good },
        { referenceNumber: redacted.referenceNumber, token: links().tokenFor(redacted.referenceNumber, t.clock.now) },
      ]) {
        const response = await assertChangesNothing(t.database.db, () => open(body));
        assertError(response, { status: 404, code: "portal_lookup_failed", param: null });
      }
    });
  });

  it("GET /portal/reasons is the public rulebook, from the one list of reasons, to anyone", async () => {
    const response = await anyone.get("/portal/reasons");
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      object: "list",
      data: COVERED_REASONS.map((code) => ({
        code,
        name: rulebookText("en").reasonName(code),
        description: rulebookText("en").reasonDescription(code),
        // The reasons about the parcel as it arrived count their 30 days from the carrier's delivery.
        claimWindowFrom: [
          "stolen_after_delivery",
          "damaged_in_transit",
          "arrived_defective",
          "wrong_item_delivered",
          "missing_items",
        ].includes(code)
          ? "delivery"
          : "occurrence",
      })),
      denialReasons: DENIAL_REASONS.map(({ code, message }) => ({ code, message })),
      claimWindowDays: 30,
      freeLookHours: 48,
      payout: { shopifyBusinessDays: 1, merchantDays: 7, bankBusinessDays: "5–10" },
      evidence: {
        maxFiles: EVIDENCE_LIMITS.maxFiles,
        maxFileBytes: 10 * 1024 * 1024,
        contentTypes: [...EVIDENCE_CONTENT_TYPES],
        quotas: {
          claim: { maxFiles: 20, maxBytes: 50 * 1024 * 1024 },
          plan: { maxFiles: 40, maxBytes: 100 * 1024 * 1024 },
          session: { maxFiles: 20, maxBytes: 50 * 1024 * 1024 },
        },
      },
    });
    assert.equal(response.body.data.length, 12);
    for (const reason of response.body.data) assert.match(reason.description, /^[A-Z].*\.$/, "one sentence");
    assert.ok(response.body.denialReasons.length >= 7);
    for (const reason of response.body.denialReasons) assert.match(reason.message, /^[A-Z][^\n]*\.$/, "a sentence");
  });

  it("GET /portal/reasons answers in the buyer's language from Accept-Language, English otherwise", async () => {
    const english = await anyone.get("/portal/reasons");
    assert.equal(english.headers.get("content-language"), "en");
    assert.deepEqual(english.body.data[0], {
      code: "lost_in_transit",
      name: "Lost in transit",
      description: "The carrier lost the parcel before it reached you.",
      claimWindowFrom: "occurrence",
    });
    const french = await anyone.get("/portal/reasons", { headers: { "Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5" } });
    assert.equal(french.status, 200, french.text);
    assert.equal(french.headers.get("content-language"), "fr-CA");
    assert.match(french.headers.get("vary") ?? "", /Accept-Language/i);
    assert.deepEqual(french.body.data[0], {
      code: "lost_in_transit",
      name: "Perdu pendant le transport",
      description: "Le transporteur a perdu le colis avant qu’il ne vous parvienne.",
      claimWindowFrom: "occurrence",
    });
    assert.deepEqual(
      french.body.denialReasons.map((reason: { code: string }) => reason.code),
      DENIAL_REASONS.map((reason) => reason.code),
    );
    assert.match(french.body.denialReasons[0].message, /^La demande a été déposée plus de 30 jours après/);
    // Everything but the words is the same rulebook.
    const { data: _frenchData, denialReasons: _frenchDenials, ...frenchRest } = french.body;
    const { data: _englishData, denialReasons: _englishDenials, ...englishRest } = english.body;
    assert.deepEqual(frenchRest, englishRest);
    // A language the rulebook is not written in: English.
    const japanese = await anyone.get("/portal/reasons", { headers: { "Accept-Language": "ja-JP" } });
    assert.equal(japanese.headers.get("content-language"), "en");
    assert.deepEqual(japanese.body, english.body);
  });
});
