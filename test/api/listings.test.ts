import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { assertError, createQuote } from "../support/api-assertions.ts";
import { protectOrder, protectOrderHeadless, type ApiClient } from "../support/protection-flows.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";
import type { Claim, Event, List, Purchase } from "../../packages/sdk/src/responses.ts";
import { submitClaim } from "../../server/domain/claims.ts";
import { COVERED_REASONS, FREE_LOOK_MS } from "../../server/domain/disclosure.ts";

// The read side: GET /purchases, /purchases/{id}, /merchant/claims, /merchants/{id}/claims, /merchants/{id}/metrics,
// /events, /events/{id}. Each area gets its own merchant so the expected lists are exact.

const FULL_DISCLOSURE =
  "This is not insurance. This is a contractual refund guarantee provided by Test Protection Ltd.";
const SECOND = 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const query = (params: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

/** Follows next_cursor from the first page to the last; returns every page (of items these tests tell apart by id). */
async function allPages<Item extends { id: string }>(
  client: ApiClient,
  path: string,
  params: Record<string, string | number>,
) {
  const pages: List<Item>[] = [];
  let cursor: string | null = null;
  do {
    const response: ApiResponse<List<Item>> = await client.get(
      path + query(cursor ? { ...params, starting_after: cursor } : params),
    );
    assert.equal(response.status, 200, response.text);
    pages.push(response.body);
    cursor = response.body.next_cursor;
  } while (cursor);
  return pages;
}

describe.each(DIALECTS)("listings (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  /** A merchant of its own with a widget and a secret client. */
  async function newMerchant(name: string) {
    const merchant = await t.createMerchant(name);
    return {
      merchant,
      widget: apiClient(t.baseUrl, merchant.publishableKey),
      secret: apiClient(t.baseUrl, merchant.secretKey),
    };
  }

  describe("GET /purchases and /purchases/{id}", () => {
    let m: NewMerchant;
    let widget: ApiClient;
    let secret: ApiClient;
    /** Five purchases one second apart, oldest first: [widget, api, server, widget, api] surfaces. */
    const made: {
      planId: string;
      orderId: string;
      quoteId: string;
      surface: string;
      createdAt: number;
      feeCents: number;
      coveredAmountCents: number;
    }[] = [];
    beforeAll(async () => {
      ({ merchant: m, widget, secret } = await newMerchant("Purchases Store"));
      for (let i = 0; i < 5; i++) {
        t.clock.advance(SECOND);
        const amount = 10_000 + i * 1_000;
        if (i % 3 === 2) {
          const { quote, confirmation } = await protectOrderHeadless(secret, m.programId, {
            order_amount_cents: amount,
          });
          made.push({
            planId: confirmation.plan_id,
            orderId: quote.order_id,
            quoteId: quote.quote_id,
            surface: "server",
            createdAt: t.clock.now,
            feeCents: quote.fee_cents,
            coveredAmountCents: quote.covered_amount_cents,
          });
        } else {
          const client = i % 3 === 0 ? widget : secret;
          const { quote, confirmation } = await protectOrder(client, m.programId, { order_amount_cents: amount });
          made.push({
            planId: confirmation.planId,
            orderId: quote.orderId,
            quoteId: quote.quoteId,
            surface: i % 3 === 0 ? "widget" : "api",
            createdAt: t.clock.now,
            feeCents: quote.feeCents,
            coveredAmountCents: quote.coveredAmountCents,
          });
        }
      }
      // Another merchant's purchase must never show up.
      const neighbour = await newMerchant("Purchases Neighbour");
      await protectOrder(neighbour.widget, neighbour.merchant.programId);
    });
    const newestFirst = () => made.map((p) => p.planId).reverse();

    it("lists the merchant's purchases newest first as {object:list, data, has_more:false, next_cursor:null}", async () => {
      const response = await secret.get<List<Purchase>>("/purchases");
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(Object.keys(response.body).sort(), ["data", "has_more", "next_cursor", "object"]);
      assert.equal(response.body.object, "list");
      assert.equal(response.body.has_more, false);
      assert.equal(response.body.next_cursor, null);
      assert.deepEqual(
        response.body.data.map((p) => p.id),
        newestFirst(),
      );
      const newest = response.body.data[0];
      const expected = made[4];
      assert.deepEqual(
        { ...newest, referenceNumber: undefined },
        {
          id: expected.planId,
          object: "purchase",
          referenceNumber: undefined,
          status: "active",
          orderId: expected.orderId,
          orderStatus: "protected",
          quoteId: expected.quoteId,
          currency: "USD",
          customerLocale: null,
          customerTimeZone: null,
          feeCents: expected.feeCents,
          payer: "buyer",
          buyerFeeCents: expected.feeCents,
          merchantFeeCents: 0,
          coveredAmountCents: expected.coveredAmountCents,
          // protectOrder's order_context: purchased a minute before the quote; the free look runs 48 h from then.
          purchasedAt: iso(expected.createdAt - 60 * SECOND),
          freeLookEndsAt: iso(expected.createdAt - 60 * SECOND + FREE_LOOK_MS),
          createdAt: iso(expected.createdAt),
          voidedAt: null,
          voidReason: null,
          cancelledAt: null,
          feeRefund: null,
          livemode: false,
        },
      );
    });

    it("pages with limit and starting_after; has_more and next_cursor say whether and where to continue", async () => {
      const pages = await allPages<Purchase>(secret, "/purchases", { limit: 2 });
      assert.deepEqual(
        pages.map((p) => p.data.length),
        [2, 2, 1],
      );
      assert.deepEqual(
        pages.map((p) => p.has_more),
        [true, true, false],
      );
      assert.deepEqual(
        pages.map((p) => p.next_cursor),
        [newestFirst()[1], newestFirst()[3], null],
      );
      assert.deepEqual(
        pages.flatMap((p) => p.data.map((d) => d.id)),
        newestFirst(),
      );

      const exact = await secret.get(`/purchases${query({ limit: 5 })}`);
      assert.equal(exact.body.has_more, false, "a page that ends exactly at the last item has no more");
      assert.equal(exact.body.next_cursor, null);
      const afterLast = await secret.get(`/purchases${query({ starting_after: made[0].planId })}`);
      assert.deepEqual(afterLast.body.data, []);
    });

    it("filters by status, order_id and created_gte/created_lt (ISO 8601, any offset)", async () => {
      const voided = await secret.post("/offers/void", { planId: made[1].planId });
      assert.equal(voided.status, 200, voided.text);
      const ids = async (params: Record<string, string | number>) => {
        const response = await secret.get<List<Purchase>>(`/purchases${query(params)}`);
        assert.equal(response.status, 200, response.text);
        return response.body.data.map((p) => p.id);
      };
      assert.deepEqual(await ids({ status: "voided" }), [made[1].planId]);
      assert.deepEqual(
        await ids({ status: "active" }),
        newestFirst().filter((id) => id !== made[1].planId),
      );
      assert.deepEqual(await ids({ status: "cancelled" }), []);
      assert.deepEqual(await ids({ order_id: made[2].orderId }), [made[2].planId]);
      assert.deepEqual(await ids({ order_id: "order-nobody-has" }), []);
      assert.deepEqual(await ids({ created_gte: iso(made[1].createdAt), created_lt: iso(made[3].createdAt) }), [
        made[2].planId,
        made[1].planId,
      ]);
      // The same instant written with a +02:00 offset.
      const gteWithOffset = new Date(made[3].createdAt + 2 * 3600 * SECOND).toISOString().replace("Z", "+02:00");
      assert.deepEqual(await ids({ created_gte: gteWithOffset }), [made[4].planId, made[3].planId]);
      assert.deepEqual(await ids({ status: "active", created_lt: iso(made[2].createdAt) }), [made[0].planId]);
      assert.deepEqual(await ids({ status: "active", limit: 1, starting_after: made[3].planId }), [made[2].planId]);
    });

    it("rejects bad query parameters with 400", async () => {
      for (const [params, code, param] of [
        [{ limit: 0 }, "parameter_invalid", "limit"],
        [{ limit: 101 }, "parameter_invalid", "limit"],
        [{ limit: "ten" }, "parameter_invalid", "limit"],
        [{ status: "expired" }, "parameter_invalid", "status"],
        [{ created_gte: "yesterday" }, "parameter_invalid", "created_gte"],
        [{ created_lt: "2026-11-22" }, "parameter_invalid", "created_lt"],
        [{ sort: "asc" }, "parameter_unknown", "sort"],
      ] as const) {
        assertError(await secret.get(`/purchases${query(params)}`), { status: 400, code, param });
      }
    });

    it("GET /purchases/{id} includes the consent record: quote, surface, the full disclosure, amounts, currency, acceptance time", async () => {
      for (const expected of made) {
        const response = await secret.get(`/purchases/${expected.planId}`);
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body.id, expected.planId);
        const { consent } = response.body;
        assert.deepEqual(
          {
            quoteId: consent.quoteId,
            surface: consent.surface,
            disclosureText: consent.disclosureText,
            feeCents: consent.feeCents,
            coveredAmountCents: consent.coveredAmountCents,
            currency: consent.currency,
            acceptedAt: consent.acceptedAt,
          },
          {
            quoteId: expected.quoteId,
            surface: expected.surface,
            disclosureText: FULL_DISCLOSURE,
            feeCents: expected.feeCents,
            coveredAmountCents: expected.coveredAmountCents,
            currency: "USD",
            acceptedAt: iso(expected.createdAt),
          },
        );
        assert.deepEqual(consent.coveredReasons, [...COVERED_REASONS]);
      }
    });

    it("GET /purchases/{id} is 404 for an unknown id and for another merchant's purchase; both routes need a secret key", async () => {
      assertError(await secret.get("/purchases/plan_unknown"), { status: 404, code: "resource_missing" });
      const neighbour = await newMerchant("Purchases Other");
      const theirs = await protectOrder(neighbour.widget, neighbour.merchant.programId);
      assertError(await secret.get(`/purchases/${theirs.confirmation.planId}`), {
        status: 404,
        code: "resource_missing",
      });
      assertError(await widget.get("/purchases"), { status: 403, code: "secret_key_required" });
      assertError(await widget.get(`/purchases/${made[0].planId}`), { status: 403, code: "secret_key_required" });
    });
  });

  describe("GET /merchant/claims and /merchants/{id}/claims", () => {
    let m: NewMerchant;
    let secret: ApiClient;
    const claimIds: string[] = [];
    const referenceNumbers: string[] = [];
    beforeAll(async () => {
      const created = await newMerchant("Claims Store");
      m = created.merchant;
      secret = created.secret;
      for (const reason of ["lost_in_transit", "damaged_in_transit", "missing_items"]) {
        t.clock.advance(SECOND);
        const { confirmation } = await protectOrder(created.widget, m.programId);
        const claim = await t.database.db.transaction((tx) =>
          submitClaim(
            tx,
            t.services,
            { merchantId: m.merchantId, mode: "test" },
            { referenceNumber: confirmation.referenceNumber, reason, description: `claim for ${reason}` },
          ),
        );
        claimIds.push(claim.id);
        referenceNumbers.push(confirmation.referenceNumber);
      }
      await t.database.db.run("UPDATE claims SET status = 'approved' WHERE id = ?", [claimIds[1]]);
      const neighbour = await newMerchant("Claims Neighbour");
      const theirs = await protectOrder(neighbour.widget, neighbour.merchant.programId);
      await t.database.db.transaction((tx) =>
        submitClaim(
          tx,
          t.services,
          { merchantId: neighbour.merchant.merchantId, mode: "test" },
          { referenceNumber: theirs.confirmation.referenceNumber, reason: "lost_in_transit" },
        ),
      );
    });

    it("both routes return the same list, newest first, with the claim fields", async () => {
      const merchantClaims = await secret.get<List<Claim>>("/merchant/claims");
      const merchantsIdClaims = await secret.get(`/merchants/${m.merchantId}/claims`);
      assert.equal(merchantClaims.status, 200, merchantClaims.text);
      assert.equal(merchantsIdClaims.status, 200, merchantsIdClaims.text);
      assert.deepEqual(merchantsIdClaims.body, merchantClaims.body);
      assert.equal(merchantClaims.body.object, "list");
      assert.equal(merchantClaims.body.has_more, false);
      assert.deepEqual(
        merchantClaims.body.data.map((c) => c.id),
        [...claimIds].reverse(),
      );
      const oldest = merchantClaims.body.data[2];
      assert.deepEqual(Object.keys(oldest).sort(), [
        "amountCents",
        "createdAt",
        "currency",
        "decision",
        "description",
        "evidenceCount",
        "id",
        "livemode",
        "number",
        "object",
        "occurredAt",
        "orderId",
        "planId",
        "reason",
        "referenceNumber",
        "resolution",
        "status",
        "updatedAt",
      ]);
      assert.equal(oldest.object, "claim");
      assert.equal(oldest.number, 1, "the first claim of its plan");
      assert.equal(oldest.referenceNumber, referenceNumbers[0]);
      assert.equal(oldest.reason, "lost_in_transit");
      assert.equal(oldest.description, "claim for lost_in_transit");
      assert.equal(oldest.status, "submitted");
      assert.equal(oldest.amountCents, 10_000);
      assert.equal(oldest.currency, "USD");
      assert.equal(oldest.livemode, false);
      assert.equal(oldest.decision, null);
      assert.equal(oldest.resolution, null);
      assert.equal(oldest.evidenceCount, 0);
    });

    it("filters by status and reference_number and pages, identically on both routes", async () => {
      for (const path of ["/merchant/claims", `/merchants/${m.merchantId}/claims`]) {
        const ids = async (params: Record<string, string | number>) => {
          const response = await secret.get<List<Claim>>(path + query(params));
          assert.equal(response.status, 200, response.text);
          return response.body.data.map((c) => c.id);
        };
        assert.deepEqual(await ids({ status: "submitted" }), [claimIds[2], claimIds[0]]);
        assert.deepEqual(await ids({ status: "approved" }), [claimIds[1]]);
        assert.deepEqual(await ids({ status: "paid" }), []);
        assert.deepEqual(await ids({ reference_number: referenceNumbers[2] }), [claimIds[2]]);
        const pages = await allPages<Claim>(secret, path, { limit: 2 });
        assert.deepEqual(
          pages.map((p) => p.data.map((c) => c.id)),
          [[claimIds[2], claimIds[1]], [claimIds[0]]],
        );
        assertError(await secret.get(path + query({ status: "lost" })), {
          status: 400,
          code: "parameter_invalid",
          param: "status",
        });
      }
    });

    it("is secret-key only; another merchant's id is 404", async () => {
      const widget = apiClient(t.baseUrl, m.publishableKey);
      assertError(await widget.get("/merchant/claims"), { status: 403, code: "secret_key_required" });
      assertError(await widget.get(`/merchants/${m.merchantId}/claims`), { status: 403, code: "secret_key_required" });
      assertError(await secret.get(`/merchants/${t.merchant.merchantId}/claims`), {
        status: 404,
        code: "resource_missing",
      });
    });
  });

  describe("GET /merchants/{id}/metrics", () => {
    let m: NewMerchant;
    let secret: ApiClient;
    let openedAt: number;
    beforeAll(async () => {
      const created = await newMerchant("Metrics Store");
      m = created.merchant;
      secret = created.secret;
      const widget = created.widget;
      await protectOrder(widget, m.programId, { order_amount_cents: 12_999 }); // USD 390, stays active
      const refunded = await protectOrder(widget, m.programId, { order_amount_cents: 10_000 }); // USD 300, refunded
      await protectOrder(widget, m.programId, { order_amount_cents: 5_000, currency: "EUR" }); // EUR 150, stays active
      const voided = await protectOrder(secret, m.programId, { order_amount_cents: 20_000 }); // USD 600, voided
      const { quote: declined } = await createQuote(widget, m.programId);
      await createQuote(widget, m.programId); // left open: expires
      assert.equal((await widget.post("/offers/decline", { quoteId: declined.quoteId })).status, 200);
      assert.equal((await secret.post(`/orders/${refunded.quote.orderId}/refund`, {})).status, 200);
      assert.equal((await secret.post("/offers/void", { planId: voided.confirmation.planId })).status, 200);
      const { confirmation } = await protectOrder(widget, m.programId, { order_amount_cents: 1_000 }); // USD 100 (minimum fee), claimed
      await t.database.db.transaction((tx) =>
        submitClaim(
          tx,
          t.services,
          { merchantId: m.merchantId, mode: "test" },
          { referenceNumber: confirmation.referenceNumber, reason: "arrived_defective" },
        ),
      );
      t.clock.advance(30 * 60 * SECOND + 1);
      openedAt = t.clock.now;
      await createQuote(widget, m.programId); // still open
    });

    it("counts quotes by outcome, the attach rate, plans by status, refunded orders, claims, and active fees per currency", async () => {
      const response = await secret.get(`/merchants/${m.merchantId}/metrics`);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body, {
        object: "merchant_metrics",
        merchantId: m.merchantId,
        livemode: false,
        period: { from: null, to: null },
        quotes: { total: 8, confirmed: 5, declined: 1, open: 1, expired: 1 },
        attachRate: 5 / 7,
        plans: { active: 3, voided: 2, cancelled: 0 },
        ordersMerchantRefunded: 1,
        claims: { total: 1, byStatus: { submitted: 1 } },
        fees: [
          { currency: "EUR", feeCents: 150, buyerFeeCents: 150, merchantFeeCents: 0, merchantShareCents: 30 },
          {
            currency: "USD",
            feeCents: 390 + 100,
            buyerFeeCents: 390 + 100,
            merchantFeeCents: 0,
            merchantShareCents: 78 + 20,
          },
        ],
        analytics: response.body.analytics, // Counted in test/api/analytics.test.ts.
      });
    });

    it("a [from, to) window counts only what was created in it; an empty window has a null attach rate", async () => {
      const response = await secret.get(
        `/merchants/${m.merchantId}/metrics${query({ from: iso(openedAt), to: iso(openedAt + 1) })}`,
      );
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body.period, { from: iso(openedAt), to: iso(openedAt + 1) });
      assert.deepEqual(response.body.quotes, { total: 1, confirmed: 0, declined: 0, open: 1, expired: 0 });
      assert.equal(response.body.attachRate, null);
      assert.deepEqual(response.body.plans, { active: 0, voided: 0, cancelled: 0 });
      assert.deepEqual(response.body.fees, []);
      const before = await secret.get(`/merchants/${m.merchantId}/metrics${query({ to: iso(openedAt) })}`);
      assert.equal(before.body.quotes.total, 7);
    });

    it("is 404 for another merchant's id and 403 for a widget key", async () => {
      assertError(await secret.get(`/merchants/${t.merchant.merchantId}/metrics`), {
        status: 404,
        code: "resource_missing",
      });
      assertError(await apiClient(t.baseUrl, m.publishableKey).get(`/merchants/${m.merchantId}/metrics`), {
        status: 403,
        code: "secret_key_required",
      });
    });
  });

  describe("GET /events and /events/{id}", () => {
    let secret: ApiClient;
    /** [offer.declined, protection.confirmed, protection.voided], one second apart. */
    const times: number[] = [];
    let planId: string;
    let declinedQuoteId: string;
    beforeAll(async () => {
      const created = await newMerchant("Events Store");
      secret = created.secret;
      t.clock.advance(SECOND);
      const { quote } = await createQuote(created.widget, created.merchant.programId);
      declinedQuoteId = quote.quoteId;
      assert.equal((await created.widget.post("/offers/decline", { quoteId: quote.quoteId })).status, 200);
      times.push(t.clock.now);
      t.clock.advance(SECOND);
      planId = (await protectOrder(created.widget, created.merchant.programId)).confirmation.planId;
      times.push(t.clock.now);
      t.clock.advance(SECOND);
      assert.equal((await secret.post("/offers/void", { planId })).status, 200);
      times.push(t.clock.now);
    });

    it("lists the merchant's events newest first in the envelope {id, object, type, created, livemode, data:{object}}", async () => {
      const response = await secret.get<List<Event>>("/events");
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.object, "list");
      assert.equal(response.body.has_more, false);
      const events = response.body.data;
      assert.deepEqual(
        events.map((e) => e.type),
        ["protection.voided", "protection.confirmed", "offer.declined"],
      );
      for (const [i, event] of events.entries()) {
        assert.deepEqual(Object.keys(event).sort(), ["created", "data", "id", "livemode", "object", "type"]);
        assert.match(event.id, /^evt_[0-9a-z]{24}$/);
        assert.equal(event.object, "event");
        assert.equal(event.livemode, false);
        assert.equal(event.created, Math.floor(times[2 - i] / 1000), "created is Unix seconds");
        assert.deepEqual(Object.keys(event.data), ["object"]);
      }
      const [voided, confirmed, declined] = events;
      // Narrows each envelope to its payload type (the order was asserted above).
      assert.ok(
        voided.type === "protection.voided" &&
          confirmed.type === "protection.confirmed" &&
          declined.type === "offer.declined",
      );
      assert.equal(voided.data.object.id, planId);
      assert.equal(voided.data.object.status, "voided");
      assert.equal(confirmed.data.object.id, planId);
      assert.equal(confirmed.data.object.status, "active");
      assert.equal(declined.data.object.quoteId, declinedQuoteId);
    });

    it("filters by type, pages, and GET /events/{id} returns the same envelope", async () => {
      const confirmed = await secret.get<List<Event>>(`/events${query({ type: "protection.confirmed" })}`);
      assert.deepEqual(
        confirmed.body.data.map((e) => e.type),
        ["protection.confirmed"],
      );
      assert.deepEqual((await secret.get(`/events${query({ type: "claim.created" })}`)).body.data, []);
      assertError(await secret.get(`/events${query({ type: "protection.exploded" })}`), {
        status: 400,
        code: "parameter_invalid",
        param: "type",
      });

      const pages = await allPages<Event>(secret, "/events", { limit: 1 });
      assert.deepEqual(
        pages.map((p) => p.data[0].type),
        ["protection.voided", "protection.confirmed", "offer.declined"],
      );
      assert.deepEqual(
        pages.map((p) => p.has_more),
        [true, true, false],
      );

      for (const page of pages) {
        const one = await secret.get(`/events/${page.data[0].id}`);
        assert.equal(one.status, 200, one.text);
        assert.deepEqual(one.body, page.data[0]);
      }
    });

    it("an unknown event or another merchant's is 404; widget keys are refused", async () => {
      assertError(await secret.get("/events/evt_unknown"), { status: 404, code: "resource_missing" });
      const otherEvent = await protectOrder(apiClient(t.baseUrl, t.merchant.publishableKey), t.merchant.programId);
      const theirs = (
        await apiClient(t.baseUrl, t.merchant.secretKey).get(`/events${query({ type: "protection.confirmed" })}`)
      ).body.data;
      assert.equal(theirs[0].data.object.id, otherEvent.confirmation.planId);
      assertError(await secret.get(`/events/${theirs[0].id}`), { status: 404, code: "resource_missing" });
      assertError(await apiClient(t.baseUrl, t.merchant.publishableKey).get("/events"), {
        status: 403,
        code: "secret_key_required",
      });
    });
  });
});
