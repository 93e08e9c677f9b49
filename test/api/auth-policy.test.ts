import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor, type ApiResponse } from "../support/client.ts";
import {
  assertChangesNothing,
  assertError,
  assertRequestId,
  concretePath,
  createQuote,
  mintLiveCredentials,
  type LiveCredentials,
} from "../support/api-assertions.ts";
import { mintApiKey, type NewMerchant } from "../../server/domain/merchants.ts";
import { signedInBuyer } from "../support/portal.ts";
import { mintKey, revokeKey, rotateKey } from "../../server/domain/api-keys.ts";
import { markMerchantLive } from "../../server/store/merchants.ts";
import { routes as routeTable } from "../../server/http/routes.ts";
import type { Route } from "../../server/http/route.ts";

// Authentication, the key policy of docs/api.md "Authentication and keys" (the route table's `keys` column), test/live and merchant isolation.

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const randomSuffix = () => Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => BASE62[byte % 62]).join("");

interface Sample {
  path: string;
  body?: unknown;
  /** Status the request gets with a key the policy allows. */
  allowedStatus: number;
}

describe.each(DIALECTS)("authentication and key policy (%s)", (dialect) => {
  let t: TestApi;
  let other: NewMerchant;
  let live: LiveCredentials;
  let widget: ReturnType<typeof apiClient>;
  let secret: ReturnType<typeof apiClient>;
  let restricted: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    other = await t.createMerchant("Other Store");
    live = await mintLiveCredentials(t, t.merchant.merchantId);
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
    const restrictedKey = await t.database.db.transaction((tx) =>
      mintApiKey(tx, t.services, { merchantId: t.merchant.merchantId, mode: "test" }, "restricted"),
    );
    restricted = apiClient(t.baseUrl, restrictedKey.key);
  });
  afterAll(() => t.close());

  const quoteBody = () => ({
    order_amount_cents: 5_000,
    order_id: `order-${crypto.randomUUID()}`,
    protection_program_id: t.merchant.programId,
  });

  describe("live keys and key lifetimes (the dashboard's Go live and API keys pages)", () => {
    it("a live key is 403 live_mode_not_enabled until its merchant goes live, then identifies it", async () => {
      const newcomer = await t.createMerchant("Newcomer Store");
      const key = await t.database.db.transaction((tx) =>
        mintApiKey(tx, t.services, { merchantId: newcomer.merchantId, mode: "live" }, "secret"),
      );
      const client = apiClient(t.baseUrl, key.key);
      const refused = await assertChangesNothing(t.database.db, () => client.get("/purchases"));
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.type, "permission_error");
      assert.equal(refused.body.error.code, "live_mode_not_enabled");
      await t.database.db.transaction((tx) => markMerchantLive(tx, newcomer.merchantId, t.services.clock()));
      assert.equal((await client.get("/purchases")).status, 200);
    });

    it("a rotated key works until the end of its overlap, then is 401 api_key_invalid; a revoked one at once", async () => {
      const source = {
        merchantId: t.merchant.merchantId,
        mode: "test" as const,
        actor: { id: "mem_test", email: "owner@example.test" },
        ip: "",
        role: "owner" as const,
      };
      const { db } = t.database;
      const old = await db.transaction((tx) => mintKey(tx, t.services, source, { kind: "secret", mode: "test" }));
      const rotated = await db.transaction((tx) =>
        rotateKey(tx, t.services, source, { keyId: old.key.id, overlap: "1h" }),
      );
      const [oldClient, newClient] = [apiClient(t.baseUrl, old.secret), apiClient(t.baseUrl, rotated.secret)];
      assert.equal((await oldClient.get("/purchases")).status, 200, "the old key works during the overlap");
      assert.equal((await newClient.get("/purchases")).status, 200);
      // The overlap's end, as the database will see it an hour from now: moved into the past.
      await db.run("UPDATE api_keys SET revoked_at = ? WHERE id = ?", [t.services.clock() - 1, old.key.id]);
      assert.equal((await oldClient.get("/purchases")).body.error.code, "api_key_invalid");
      await db.transaction((tx) => revokeKey(tx, t.services, source, rotated.key.id));
      assert.equal((await newClient.get("/purchases")).body.error.code, "api_key_invalid");
    });
  });

  describe("authentication", () => {
    it("no Authorization header is 401 authentication_error api_key_missing, on widget and secret routes alike", async () => {
      for (const [method, path, body] of [
        ["POST", "/offers/quote", quoteBody()],
        ["POST", "/offers/void", { orderId: "o-1" }],
        ["GET", "/purchases", undefined],
      ] as const) {
        const response = await assertChangesNothing(t.database.db, () =>
          secret.call(method, path, body, { key: null }),
        );
        assertError(response, { status: 401, code: "api_key_missing", param: null });
      }
    });

    it("a malformed Authorization header or key is 401 api_key_invalid", async () => {
      const malformed = [
        "Bearer",
        "Bearer abc",
        `Basic ${Buffer.from(`${t.merchant.secretKey}:`).toString("base64")}`,
        `Token ${t.merchant.secretKey}`,
        `Bearer ${t.merchant.secretKey} extra`,
        `Bearer ${t.merchant.secretKey.slice(0, -1)}`,
        `Bearer ${t.merchant.secretKey}x`,
        `Bearer sk_test_${randomSuffix()}`,
        `Bearer wk_prod_${randomSuffix()}`,
        `Bearer ${t.merchant.secretKey.replace(/^mch_/, "MCH_")}`,
      ];
      for (const authorization of malformed) {
        const response = await assertChangesNothing(t.database.db, () =>
          secret.post("/offers/quote", quoteBody(), { key: null, headers: { Authorization: authorization } }),
        );
        assertError(response, { status: 401, code: "api_key_invalid", param: null });
      }
    });

    it("a well-formed key that was never minted is 401 api_key_invalid, for every kind and mode", async () => {
      for (const prefix of ["wk_test_", "wk_live_", "mch_test_", "mch_live_"]) {
        const response = await assertChangesNothing(t.database.db, () =>
          secret.post("/offers/quote", quoteBody(), { key: `${prefix}${randomSuffix()}` }),
        );
        assertError(response, { status: 401, code: "api_key_invalid", param: null });
      }
    });

    it("a real key with its prefix changed to another kind or mode is 401 api_key_invalid", async () => {
      const suffix = t.merchant.secretKey.slice("mch_test_".length);
      for (const forged of [`wk_test_${suffix}`, `mch_live_${suffix}`]) {
        assertError(await secret.get("/purchases", { key: forged }), { status: 401, code: "api_key_invalid" });
      }
    });

    it("a revoked key is 401 api_key_invalid from the moment revoked_at is set", async () => {
      const actor = { merchantId: t.merchant.merchantId, mode: "test" as const };
      const minted = await t.database.db.transaction(async (tx) => ({
        secret: await mintApiKey(tx, t.services, actor, "secret"),
        publishable: await mintApiKey(tx, t.services, actor, "publishable"),
      }));
      assert.equal((await secret.get("/purchases", { key: minted.secret.key })).status, 200);
      assert.equal((await widget.post("/offers/quote", quoteBody(), { key: minted.publishable.key })).status, 200);

      await t.database.db.transaction((tx) =>
        tx.run("UPDATE api_keys SET revoked_at = ? WHERE id IN (?, ?)", [
          t.clock.now,
          minted.secret.id,
          minted.publishable.id,
        ]),
      );
      assertError(await secret.get("/purchases", { key: minted.secret.key }), { status: 401, code: "api_key_invalid" });
      const response = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/quote", quoteBody(), { key: minted.publishable.key }),
      );
      assertError(response, { status: 401, code: "api_key_invalid" });
      // The merchant's other keys are untouched.
      assert.equal((await secret.get("/purchases")).status, 200);
    });
  });

  describe("the key policy table", () => {
    it("widget keys may call exactly quote, confirm and decline; secret keys every merchant route; portal sessions and anyone only the portal's", () => {
      const widgetRoutes = t.api.routes
        .filter((route) => route.keys.includes("publishable"))
        .map((route) => `${route.method} ${route.path}`);
      assert.deepEqual(widgetRoutes.sort(), ["POST /offers/confirm", "POST /offers/decline", "POST /offers/quote"]);
      for (const route of t.api.routes) {
        const label = `${route.method} ${route.path}`;
        // A tracking aggregator's callback: its signature alone, per merchant and mode.
        if (route.keys.includes("aftership")) {
          assert.deepEqual(route.keys, ["aftership"], `${label}: one caller kind`);
          assert.equal(route.path, "/tracking/aftership/:merchantId/:mode", label);
          continue;
        }
        const buyerSide = route.keys.includes("portal") || route.keys.includes("anyone");
        // A route is either the merchants' or the buyers': no key policy mixes them.
        assert.equal(
          route.keys.includes("secret"),
          !buyerSide,
          `${label} takes a secret key unless it is a portal route`,
        );
        if (buyerSide) assert.equal(route.keys.length, 1, `${label}: one caller kind`);
        if (buyerSide) assert.match(route.path, /^\/(portal\/|claims$)/, `${label}: buyer routes live under /portal`);
      }
      assert.deepEqual(
        t.api.routes
          .filter((route) => route.keys.includes("secret") && !route.keys.includes("restricted"))
          .map((route) => `${route.method} ${route.path}`)
          .sort(),
        [
          "POST /merchant/claims/:claimId/resolution",
          "POST /offers/void",
          "POST /orders/:orderId/refund",
          "POST /orders/:orderId/shipments",
          "POST /purchases/:purchaseId/fee-refund",
          "POST /shipments/:shipmentId/events",
          "POST /tracking/aftership",
        ],
        "restricted keys call every merchant route but the four that move money and the three that report delivery facts or let an aggregator report them",
      );
      assert.deepEqual(
        t.api.routes
          .filter((route) => route.keys.includes("anyone"))
          .map((route) => `${route.method} ${route.path}`)
          .sort(),
        ["GET /portal/reasons", "POST /portal/coverage-link", "POST /portal/lookup"],
        "only the sign-ins and the public rulebook take no credential",
      );
      assert.deepEqual(
        t.api.routes
          .filter((route) => route.browser)
          .map((route) => route.path)
          .sort(),
        ["/offers/confirm", "/offers/decline", "/offers/quote"],
        "browser (CORS) access only where widget keys are allowed",
      );
    });

    /** A request that succeeds (or fails on its merits, not on the key) when the key is allowed. */
    async function sampleFor(route: Route): Promise<Sample> {
      const path = concretePath(route.path, {
        merchantId: t.merchant.merchantId,
        orderId: "order-unknown",
        purchaseId: "plan_unknown",
        eventId: "evt_unknown",
        programId: t.merchant.programId,
        mode: "test",
      });
      switch (route.operationId) {
        case "createQuote":
        case "headlessQuote":
          return { path, body: quoteBody(), allowedStatus: 200 };
        case "confirmQuote": {
          const { quote, token } = await createQuote(secret, t.merchant.programId);
          return {
            path,
            body: { quoteId: quote.quoteId, quoteToken: token, order_context: orderContextFor(quote) },
            allowedStatus: 200,
          };
        }
        case "declineQuote": // a publishable key may decline only quotes a publishable key made; the secret key, any
          return {
            path,
            body: { quoteId: (await createQuote(widget, t.merchant.programId)).quote.quoteId },
            allowedStatus: 200,
          };
        case "headlessConfirm":
        case "headlessDecline":
          return {
            path,
            body: { quote_id: (await createQuote(secret, t.merchant.programId)).quote.quoteId },
            allowedStatus: 200,
          };
        case "voidPlan":
          return { path, body: { orderId: "order-unknown" }, allowedStatus: 404 };
        case "confirmFeeRefund":
          return { path, body: {}, allowedStatus: 404 };
        case "setPurchaseCustomerEmail":
          return { path, body: { customer_email: "ada@example.com" }, allowedStatus: 404 };
        case "portalLookup":
          return {
            path,
            body: { email: "nobody@example.test", referenceNumber: "CLM-2026-00000000" },
            allowedStatus: 404,
          };
        case "portalCoverageLink":
          return { path, body: { referenceNumber: "CLM-2026-00000000", token: "1.x" }, allowedStatus: 404 };
        case "getPortalReasons":
        case "getPortalPlan":
          return { path, allowedStatus: 200 };
        case "getMerchantClaimEvidence":
          return { path, allowedStatus: 404 };
        case "reportMerchantRefund":
        case "getPurchase":
        case "getEvent":
          return { path, body: route.method === "GET" ? undefined : {}, allowedStatus: 404 };
        case "listClaims":
        case "listMerchantClaims":
        case "getMerchantMetrics":
        case "listPurchases":
        case "listEvents":
        case "listPrograms":
        case "getProgram":
          return { path, allowedStatus: 200 };
        default:
          // A route added after these tests: the key check alone still applies.
          return { path, body: route.method === "GET" ? undefined : {}, allowedStatus: -1 };
      }
    }

    function assertAllowed(response: ApiResponse, sample: Sample, label: string) {
      assert.ok(response.status !== 401 && response.status !== 403, `${label}: ${response.status} ${response.text}`);
      if (sample.allowedStatus !== -1)
        assert.equal(response.status, sample.allowedStatus, `${label}: ${response.text}`);
      assertRequestId(response);
    }

    /** What a key policy row says, for the test's name. */
    const policyOf = (route: Route) =>
      route.keys.includes("aftership")
        ? "AfterShip's signature only: any key, or none, is 401 signature_invalid with no side effects"
        : route.keys.includes("anyone")
          ? "anyone: no credential needed, any is ignored"
          : route.keys.includes("portal")
            ? "pps_ only; wk_ and mch_ are 403 portal_session_required, none or an expired pps_ 401 portal_session_invalid"
            : route.keys.includes("publishable")
              ? "wk_, mch_ and rk_ allowed; pps_ is 401 api_key_invalid"
              : route.keys.includes("restricted")
                ? "mch_ and rk_; wk_ is 403 secret_key_required with no side effects; pps_ 401 api_key_invalid"
                : "mch_ only; wk_ and rk_ are 403 secret_key_required with no side effects; pps_ 401 api_key_invalid";

    for (const staticRoute of routeTable) {
      const label = `${staticRoute.method} ${staticRoute.path}`;
      it(`${label}: ${policyOf(staticRoute)}`, async () => {
        const route = t.api.routes.find((r) => r.method === staticRoute.method && r.path === staticRoute.path)!;
        assert.ok(route, `${label} is served`);
        const buyer = await signedInBuyer(t);

        if (route.keys.includes("anyone")) {
          const sample = await sampleFor(route);
          for (const key of [null, t.merchant.secretKey, t.merchant.publishableKey, buyer.token, "pps_junk"])
            assertAllowed(
              await secret.call(route.method, sample.path, sample.body, { key }),
              sample,
              `${key} ${label}`,
            );
          return;
        }

        if (route.keys.includes("aftership")) {
          // Signed callbacks are tested in tracking-callbacks.test.ts; no key stands in for the signature.
          const sample = await sampleFor(route);
          for (const key of [null, t.merchant.secretKey, t.merchant.publishableKey, buyer.token]) {
            const response = await assertChangesNothing(t.database.db, () =>
              secret.call(route.method, sample.path, sample.body, { key }),
            );
            assertError(response, { status: 401, code: "signature_invalid", param: null });
          }
          return;
        }

        if (route.keys.includes("portal")) {
          for (const key of [t.merchant.secretKey, t.merchant.publishableKey, live.secretKey]) {
            const sample = await sampleFor(route);
            const response = await assertChangesNothing(t.database.db, () =>
              secret.call(route.method, sample.path, sample.body, { key }),
            );
            assertError(response, { status: 403, code: "portal_session_required", param: null });
          }
          const sample = await sampleFor(route);
          const unknownToken = `pps_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
          for (const key of [null, unknownToken, "pps_short", `${buyer.token}x`, `wk_test_${randomSuffix()}`]) {
            const response = await assertChangesNothing(t.database.db, () =>
              secret.call(route.method, sample.path, sample.body, { key }),
            );
            assertError(response, { status: 401, code: "portal_session_invalid", param: null });
          }
          assertAllowed(
            await secret.call(route.method, sample.path, sample.body, { key: buyer.token }),
            sample,
            `pps_ ${label}`,
          );
          return;
        }

        // A merchant route: a portal token is no API key.
        const buyerSample = await sampleFor(route);
        const refused = await assertChangesNothing(t.database.db, () =>
          secret.call(route.method, buyerSample.path, buyerSample.body, { key: buyer.token }),
        );
        assertError(refused, { status: 401, code: "api_key_invalid", param: null });

        const widgetSample = await sampleFor(route);
        if (route.keys.includes("publishable")) {
          assertAllowed(
            await widget.call(route.method, widgetSample.path, widgetSample.body),
            widgetSample,
            `wk_ ${label}`,
          );
        } else {
          const response = await assertChangesNothing(t.database.db, () =>
            widget.call(route.method, widgetSample.path, widgetSample.body),
          );
          assertError(response, { status: 403, code: "secret_key_required", param: null });
        }

        const restrictedSample = await sampleFor(route);
        if (route.keys.includes("restricted")) {
          assertAllowed(
            await restricted.call(route.method, restrictedSample.path, restrictedSample.body),
            restrictedSample,
            `rk_ ${label}`,
          );
        } else {
          const response = await assertChangesNothing(t.database.db, () =>
            restricted.call(route.method, restrictedSample.path, restrictedSample.body),
          );
          assertError(response, { status: 403, code: "secret_key_required", param: null });
        }

        const secretSample = await sampleFor(route);
        assertAllowed(
          await secret.call(route.method, secretSample.path, secretSample.body),
          secretSample,
          `mch_ ${label}`,
        );
      });
    }

    it("a widget key is refused on a secret-only route before its body or idempotency key is looked at", async () => {
      const response = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/void", undefined, { raw: "{not json", idempotencyKey: null }),
      );
      assertError(response, { status: 403, code: "secret_key_required" });
    });

    it("live widget keys are held to the same policy", async () => {
      const response = await assertChangesNothing(t.database.db, () =>
        widget.get("/purchases", { key: live.publishableKey }),
      );
      assertError(response, { status: 403, code: "secret_key_required" });
    });
  });

  describe("test and live data never mix", () => {
    let liveWidget: ReturnType<typeof apiClient>;
    let liveSecret: ReturnType<typeof apiClient>;
    beforeAll(() => {
      liveWidget = apiClient(t.baseUrl, live.publishableKey);
      liveSecret = apiClient(t.baseUrl, live.secretKey);
    });

    it("a live key quotes under the live program with livemode true", async () => {
      const { quote } = await createQuote(liveWidget, live.programId);
      assert.equal(quote.livemode, true);
      const { quote: testQuote } = await createQuote(widget, t.merchant.programId);
      assert.equal(testQuote.livemode, false);
    });

    it("the test program is unknown to a live key, and the live program to a test key (404 resource_missing protection_program_id)", async () => {
      for (const [client, programId] of [
        [liveWidget, t.merchant.programId],
        [liveSecret, t.merchant.programId],
        [widget, live.programId],
      ] as const) {
        const response = await assertChangesNothing(
          t.database.db,
          () => client.post("/offers/quote", { ...quoteBody(), protection_program_id: programId }),
          1,
        );
        assertError(response, { status: 404, code: "resource_missing", param: "protection_program_id" });
      }
    });

    it("a test quote is 404 to a live key's confirm and decline, and a live quote to a test key's", async () => {
      const testQuote = await createQuote(widget, t.merchant.programId);
      const liveQuote = await createQuote(liveWidget, live.programId);
      for (const [client, { quote, token }] of [
        [liveWidget, testQuote],
        [widget, liveQuote],
      ] as const) {
        const confirm = await assertChangesNothing(
          t.database.db,
          () =>
            client.post("/offers/confirm", {
              quoteId: quote.quoteId,
              quoteToken: token,
              order_context: orderContextFor(quote),
            }),
          1,
        );
        assertError(confirm, { status: 404, code: "resource_missing", param: "quoteId" });
        const decline = await assertChangesNothing(
          t.database.db,
          () => client.post("/offers/decline", { quoteId: quote.quoteId }),
          1,
        );
        assertError(decline, { status: 404, code: "resource_missing", param: "quoteId" });
      }
      // Both quotes are still open for their own mode.
      for (const [client, { quote, token }] of [
        [widget, testQuote],
        [liveWidget, liveQuote],
      ] as const) {
        const confirm = await client.post("/offers/confirm", {
          quoteId: quote.quoteId,
          quoteToken: token,
          order_context: orderContextFor(quote),
        });
        assert.equal(confirm.status, 200, confirm.text);
      }
    });

    it("GET /purchases lists only the key's mode", async () => {
      const confirmWith = async (client: ReturnType<typeof apiClient>, programId: string) => {
        const { quote, token } = await createQuote(client, programId);
        const confirm = await client.post("/offers/confirm", {
          quoteId: quote.quoteId,
          quoteToken: token,
          order_context: orderContextFor(quote),
        });
        assert.equal(confirm.status, 200, confirm.text);
        return confirm.body.planId as string;
      };
      const testPlan = await confirmWith(widget, t.merchant.programId);
      const livePlan = await confirmWith(liveWidget, live.programId);

      const liveList = await liveSecret.get("/purchases?limit=100");
      assert.equal(liveList.status, 200);
      const liveIds = liveList.body.data.map((p: { id: string }) => p.id);
      assert.ok(liveIds.includes(livePlan));
      assert.ok(!liveIds.includes(testPlan), "live list holds no test purchase");
      assert.ok(liveList.body.data.every((p: { livemode: boolean }) => p.livemode === true));

      const testList = await secret.get("/purchases?limit=100");
      const testIds = testList.body.data.map((p: { id: string }) => p.id);
      assert.ok(testIds.includes(testPlan));
      assert.ok(!testIds.includes(livePlan), "test list holds no live purchase");
      assert.ok(testList.body.data.every((p: { livemode: boolean }) => p.livemode === false));

      assertError(await liveSecret.get(`/purchases/${testPlan}`), { status: 404, code: "resource_missing" });
      assertError(await secret.get(`/purchases/${livePlan}`), { status: 404, code: "resource_missing" });
    });
  });

  describe("merchants never see each other", () => {
    it("another merchant's quote is 404 resource_missing on confirm and decline, and stays open for its owner", async () => {
      const otherWidget = apiClient(t.baseUrl, other.publishableKey);
      const { quote, token } = await createQuote(otherWidget, other.programId);
      for (const client of [widget, secret]) {
        const confirm = await assertChangesNothing(
          t.database.db,
          () =>
            client.post("/offers/confirm", {
              quoteId: quote.quoteId,
              quoteToken: token,
              order_context: orderContextFor(quote),
            }),
          1,
        );
        assertError(confirm, { status: 404, code: "resource_missing", param: "quoteId" });
        const decline = await assertChangesNothing(
          t.database.db,
          () => client.post("/offers/decline", { quoteId: quote.quoteId }),
          1,
        );
        assertError(decline, { status: 404, code: "resource_missing", param: "quoteId" });
      }
      const headless = await assertChangesNothing(
        t.database.db,
        () => secret.post("/headless/confirm", { quote_id: quote.quoteId }),
        1,
      );
      assertError(headless, { status: 404, code: "resource_missing", param: "quote_id" });
      const own = await otherWidget.post("/offers/confirm", {
        quoteId: quote.quoteId,
        quoteToken: token,
        order_context: orderContextFor(quote),
      });
      assert.equal(own.status, 200, own.text);
    });

    it("GET /merchants/{id}/claims and /metrics are 404 for another merchant's id and 200 for the key's own", async () => {
      for (const resource of ["claims", "metrics"]) {
        assertError(await secret.get(`/merchants/${other.merchantId}/${resource}`), {
          status: 404,
          code: "resource_missing",
        });
        assertError(await secret.get(`/merchants/mer_does_not_exist/${resource}`), {
          status: 404,
          code: "resource_missing",
        });
        const own = await secret.get(`/merchants/${t.merchant.merchantId}/${resource}`);
        assert.equal(own.status, 200, own.text);
        assertRequestId(own);
      }
      const claims = await secret.get(`/merchants/${t.merchant.merchantId}/claims`);
      assert.equal(claims.body.object, "list");
      assert.ok(Array.isArray(claims.body.data));
    });
  });

  describe("request ids", () => {
    it("every response carries a fresh X-Request-Id and every error body echoes it", async () => {
      const responses: ApiResponse[] = [
        await widget.post("/offers/quote", quoteBody()),
        await secret.get("/purchases"),
        await secret.get("/openapi.json", { key: null }),
        await secret.get("/purchases", { key: null }),
        await widget.get("/purchases"),
        await secret.get("/nowhere"),
        await secret.get("/offers/quote"),
        await secret.post("/offers/quote", quoteBody(), { idempotencyKey: null }),
      ];
      const ids = responses.map((response) => assertRequestId(response));
      assert.equal(new Set(ids).size, ids.length, "ids are unique per request");
      for (const response of responses.filter((r) => r.status >= 400))
        assert.equal(response.body.error.request_id, response.headers.get("x-request-id"));
      assert.deepEqual(
        responses.map((r) => r.status),
        [200, 200, 200, 401, 403, 404, 405, 400],
      );
    });
  });
});
