import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { BACKENDS, startRateLimitedApi } from "../support/rate-limits.ts";
import { protectForBuyer } from "../support/portal.ts";

// docs/api.md "Rate limits", rule portalLookup, on both sign-ins: 30 per minute per client IP, 10 per hour per e-mail
// address (read from the body, whatever its case) and client IP, and the edge's global 100/min per IP. Over HTTP on the test clock;
// the server trusts one proxy hop, so each test sends its own client address.

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;
const from = (ip: string) => ({ idempotencyKey: null, headers: { "X-Forwarded-For": ip } });

for (const backend of BACKENDS) {
  describe(`portal sign-in rate limits (${backend})`, () => {
    let t: TestApi;
    let anyone: ReturnType<typeof apiClient>;
    beforeAll(async () => {
      t = await startRateLimitedApi(backend);
      anyone = apiClient(t.baseUrl);
    });
    afterAll(() => t.close());

    async function repeat(count: number, call: (i: number) => Promise<ApiResponse>) {
      const responses: ApiResponse[] = [];
      for (let i = 0; i < count; i++) responses.push(await call(i));
      return responses;
    }

    it("30 sign-ins per minute per IP, failed ones included; the 31st is 429 and writes nothing; a minute later admits", async () => {
      const ip = freshIp();
      // Each attempt names another address: only the per-IP policy can stop them.
      const responses = await repeat(30, (i) =>
        anyone.post(
          "/portal/lookup",
          { email: `guess-${i}@example.test`, referenceNumber: "CLM-2026-00000000" },
          from(ip),
        ),
      );
      assert.deepEqual(new Set(responses.map((r) => r.status)), new Set([404]));
      assert.equal(
        responses[0].headers.get("ratelimit-policy"),
        '"portal-lookup-ip";q=30;w=60, "portal-lookup-email-ip";q=10;w=3600, "edge-global";q=100;w=60',
      );
      const plan = await protectForBuyer(t);
      // The coverage-link sign-in shares the rule (and, without an e-mail in its body, is held by the IP policies).
      for (const path of ["/portal/lookup", "/portal/coverage-link"]) {
        const body =
          path === "/portal/lookup"
            ? { email: plan.email, referenceNumber: plan.referenceNumber }
            : { referenceNumber: plan.referenceNumber, token: "1.x" };
        const limited = await assertChangesNothing(t.database.db, () => anyone.post(path, body, from(ip)));
        assertError(limited, { status: 429, code: "rate_limited" });
        assert.match(limited.headers.get("ratelimit")!, /"portal-lookup-ip";r=0;/);
      }
      // Another address is not held back by this one's bucket.
      assert.equal(
        (
          await anyone.post(
            "/portal/lookup",
            { email: plan.email, referenceNumber: plan.referenceNumber },
            from(freshIp()),
          )
        ).status,
        200,
      );
      t.clock.advance(60_000);
      assert.equal(
        (await anyone.post("/portal/lookup", { email: plan.email, referenceNumber: plan.referenceNumber }, from(ip)))
          .status,
        200,
      );
    });

    it("10 sign-ins per hour per e-mail address (whatever its case or spacing) and IP; the 11th is 429, the buyer elsewhere signs in", async () => {
      const plan = await protectForBuyer(t, { email: "limited.buyer@example.test" });
      const spellings = ["limited.buyer@example.test", " LIMITED.Buyer@example.test ", "Limited.Buyer@Example.Test"];
      const attacker = freshIp();
      const responses = await repeat(10, (i) =>
        anyone.post(
          "/portal/lookup",
          {
            email: spellings[i % spellings.length],
            referenceNumber: i % 2 ? plan.referenceNumber : "CLM-2026-00000000",
          },
          from(attacker),
        ),
      );
      assert.deepEqual(
        responses.map((r) => r.status),
        [404, 200, 404, 200, 404, 200, 404, 200, 404, 200],
      );
      const limited = await assertChangesNothing(t.database.db, () =>
        anyone.post(
          "/portal/lookup",
          { email: "LIMITED.BUYER@example.test", referenceNumber: plan.referenceNumber },
          from(attacker),
        ),
      );
      assertError(limited, { status: 429, code: "rate_limited" });
      assert.match(limited.headers.get("ratelimit")!, /"portal-lookup-email-ip";r=0;/);
      assert.equal(Number(limited.headers.get("retry-after")), 360, "one slot back every 6 minutes");
      // Ten look-ups are no lock-out: the buyer at their own address signs in at once.
      const buyer = await anyone.post(
        "/portal/lookup",
        { email: plan.email, referenceNumber: plan.referenceNumber },
        from(freshIp()),
      );
      assert.equal(buyer.status, 200, buyer.text);
      t.clock.advance(360_000);
      assert.equal(
        (
          await anyone.post(
            "/portal/lookup",
            { email: plan.email, referenceNumber: plan.referenceNumber },
            from(attacker),
          )
        ).status,
        200,
      );
    });

    it("a look-up by order number counts in the same buckets: the 11th of an address and IP is 429, by either way in", async () => {
      const plan = await protectForBuyer(t, { email: "order.limited@example.test" });
      const orderId = (await apiClient(t.baseUrl, t.merchant.secretKey).get(`/purchases/${plan.planId}`)).body.orderId;
      const attacker = freshIp();
      const responses = await repeat(10, (i) =>
        anyone.post(
          "/portal/lookup",
          { email: "Order.Limited@example.test", orderNumber: i % 2 ? orderId : `#${1000 + i}` },
          from(attacker),
        ),
      );
      assert.deepEqual(
        responses.map((r) => r.status),
        [404, 200, 404, 200, 404, 200, 404, 200, 404, 200],
      );
      for (const body of [
        { email: plan.email, orderNumber: orderId },
        { email: plan.email, referenceNumber: plan.referenceNumber },
      ]) {
        const limited = await assertChangesNothing(t.database.db, () =>
          anyone.post("/portal/lookup", body, from(attacker)),
        );
        assertError(limited, { status: 429, code: "rate_limited" });
        assert.match(limited.headers.get("ratelimit")!, /"portal-lookup-email-ip";r=0;/);
      }
    });
  });
}
