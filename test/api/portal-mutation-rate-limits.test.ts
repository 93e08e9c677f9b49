import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { BACKENDS, startRateLimitedApi } from "../support/rate-limits.ts";
import { postForm, protectForBuyer, uniquePdf } from "../support/portal.ts";
import { COVERED_REASONS } from "../../server/domain/disclosure.ts";

// docs/api.md "Rate limits", rule portalMutation (issue 26): every change a portal session makes — filing a claim, a
// message (with files), the free-look cancellation, signing out — counts 10 a minute per session and 60 an hour per
// client IP, beside the edge's 100/min per IP. Over HTTP on the test clock; the server trusts one proxy hop, so
// each test sends its own client address.

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;
const POLICY_HEADER = '"portal-mutation-session";q=10;w=60, "portal-mutation-ip";q=60;w=3600, "edge-global";q=100;w=60';

for (const backend of BACKENDS) {
  describe(`portal mutation rate limits (${backend})`, () => {
    let t: TestApi;
    beforeAll(async () => {
      t = await startRateLimitedApi(backend);
    });
    afterAll(() => t.close());

    /** A plan and a portal session of it, signed in from an address of its own (the look-up has its own limits). */
    async function buyer() {
      const plan = await protectForBuyer(t);
      const signedIn = await apiClient(t.baseUrl).post(
        "/portal/lookup",
        { email: plan.email, referenceNumber: plan.referenceNumber },
        { idempotencyKey: null, headers: { "X-Forwarded-For": freshIp() } },
      );
      assert.equal(signedIn.status, 200, signedIn.text);
      const token = signedIn.body.portalToken as string;
      const from = (ip: string) => ({ headers: { "X-Forwarded-For": ip } });
      const client = apiClient(t.baseUrl, token);
      return {
        plan,
        token,
        file: (ip: string, reason: string = COVERED_REASONS[0]) =>
          client.post(
            "/portal/claims",
            {
              referenceNumber: plan.referenceNumber,
              reason,
              occurredAt: new Date(t.clock.now).toISOString(),
              description: "Broken.",
            },
            from(ip),
          ),
        message: (ip: string, claimId: string) =>
          client.post(`/portal/claims/${claimId}/messages`, { message: "More detail." }, from(ip)),
        cancel: (ip: string) => client.post("/portal/cancel", { referenceNumber: plan.referenceNumber }, from(ip)),
      };
    }

    it("10 per minute per session, refused ones included; the 11th is 429 and changes nothing; 6 s later one more", async () => {
      const ip = freshIp();
      const b = await buyer();
      const filed = await b.file(ip);
      assert.equal(filed.status, 200, filed.text);
      assert.equal(filed.headers.get("ratelimit-policy"), POLICY_HEADER);
      const responses: ApiResponse[] = [filed];
      for (let i = 0; i < 8; i++) responses.push(await b.message(ip, filed.body.id));
      responses.push(await b.message(ip, "clm_unknown")); // a refusal spends the budget too
      assert.deepEqual(
        responses.map((r) => r.status),
        [200, 200, 200, 200, 200, 200, 200, 200, 200, 404],
      );
      assert.match(responses[9].headers.get("ratelimit")!, /"portal-mutation-session";r=0;/);
      // Every portal mutation shares the bucket: a message, a multipart filing with files, the cancellation.
      const requests = [
        () => b.message(ip, filed.body.id),
        () =>
          postForm(
            t.baseUrl,
            b.token,
            "/portal/claims",
            {
              referenceNumber: b.plan.referenceNumber,
              reason: COVERED_REASONS[1],
              occurredAt: new Date(t.clock.now).toISOString(),
              description: "Lost.",
            },
            [{ name: "receipt.pdf", bytes: uniquePdf() }],
            { headers: { "X-Forwarded-For": ip } },
          ),
        () => b.cancel(ip),
      ];
      for (const request of requests) {
        const limited = await assertChangesNothing(t.database.db, request);
        assertError(limited, { status: 429, code: "rate_limited" });
        assert.equal(limited.headers.get("retry-after"), "6");
        assert.match(limited.headers.get("ratelimit")!, /"portal-mutation-session";r=0;/);
      }
      // Another session is not held back by this one's bucket, even from the same address.
      const other = await buyer();
      assert.equal((await other.cancel(ip)).status, 200);
      // One slot returns every 6 s (60 s / 10), not a millisecond earlier.
      t.clock.advance(5_999);
      assertError(await b.message(ip, filed.body.id), { status: 429, code: "rate_limited" });
      t.clock.advance(1);
      assert.equal((await b.message(ip, filed.body.id)).status, 200);
      assertError(await b.message(ip, filed.body.id), { status: 429, code: "rate_limited" });
    });

    it("60 per hour per client IP across sessions; the 61st is 429, another address is not held back", async () => {
      const ip = freshIp();
      const buyers = await Promise.all(Array.from({ length: 7 }, () => buyer()));
      for (const b of buyers.slice(0, 6)) {
        const filed = await b.file(ip);
        assert.equal(filed.status, 200, filed.text);
        for (let i = 0; i < 9; i++) assert.equal((await b.message(ip, filed.body.id)).status, 200);
      }
      const last = buyers[6];
      const limited = await assertChangesNothing(t.database.db, () => last.file(ip));
      assertError(limited, { status: 429, code: "rate_limited" });
      assert.match(limited.headers.get("ratelimit")!, /"portal-mutation-ip";r=0;/);
      assert.equal(limited.headers.get("retry-after"), "60", "one slot back every minute");
      assert.equal((await last.file(freshIp())).status, 200);
    });

    it("an unknown session token is held by the per-IP limit alone", async () => {
      const ip = freshIp();
      const stranger = apiClient(t.baseUrl, `pps_${"x".repeat(43)}`);
      for (let i = 0; i < 60; i++) {
        const refused = await stranger.post(
          "/portal/cancel",
          { referenceNumber: "X" },
          {
            headers: { "X-Forwarded-For": ip },
          },
        );
        assert.equal(refused.status, 401, refused.text);
      }
      const limited = await stranger.post(
        "/portal/cancel",
        { referenceNumber: "X" },
        { headers: { "X-Forwarded-For": ip } },
      );
      assertError(limited, { status: 429, code: "rate_limited" });
      assert.match(limited.headers.get("ratelimit")!, /^"portal-mutation-ip";r=0;t=\d+, "edge-global";/);
    });
  });
}
