import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { REQUEST_ID_PATTERN } from "../support/api-assertions.ts";
import { BACKENDS, startRateLimitedApi } from "../support/rate-limits.ts";

// docs/api.md "Rate limits" over HTTP, on the test clock. The server trusts one proxy hop, so each test sends its own client address
// in X-Forwarded-For and no two tests share an IP bucket.

let ipCounter = 0;
const freshIp = () => `203.0.113.${++ipCounter}`;
const VOID = { planId: "pln_doesnotexist000000000000" };

for (const backend of BACKENDS) {
  describe(`rate limits over HTTP (${backend})`, () => {
    let t: TestApi;
    beforeAll(async () => {
      t = await startRateLimitedApi(backend);
    });
    afterAll(() => t.close());

    const from = (ip: string, extra: Record<string, string> = {}) => ({ headers: { "X-Forwarded-For": ip, ...extra } });
    async function repeat(count: number, call: () => Promise<ApiResponse>) {
      const responses: ApiResponse[] = [];
      for (let i = 0; i < count; i++) responses.push(await call());
      return responses;
    }
    const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status);

    it("answers RateLimit-Policy and RateLimit on every response of a limited route, errors included", async () => {
      const secret = apiClient(t.baseUrl, t.merchant.secretKey);
      const ip = freshIp();
      const ok = await secret.get(`/merchants/${t.merchant.merchantId}/metrics`, from(ip));
      assert.equal(ok.status, 200);
      assert.equal(
        ok.headers.get("ratelimit-policy"),
        '"metrics-merchant";q=1000;w=60, "metrics-merchant-ip";q=100;w=60, "edge-global";q=100;w=60',
      );
      assert.equal(
        ok.headers.get("ratelimit"),
        '"metrics-merchant";r=999;t=1, "metrics-merchant-ip";r=99;t=1, "edge-global";r=99;t=1',
      );
      const invalid = await secret.post("/offers/quote", { order_amount_cents: -1 }, from(ip));
      assert.equal(invalid.status, 400);
      assert.match(
        invalid.headers.get("ratelimit-policy")!,
        /^"quote-merchant";q=5000;w=60, "quote-merchant-ip";q=500;w=60, "edge-quote";q=50;w=10$/,
      );
      assert.match(invalid.headers.get("ratelimit")!, /"edge-quote";r=49;t=1$/);
      const unlimited = await secret.get("/purchases", from(ip));
      assert.equal(unlimited.status, 200);
      assert.equal(unlimited.headers.get("ratelimit"), null, "routes without a spec limit carry no RateLimit headers");
    });

    it("void: the 60th request per merchant + IP passes, the 61st is 429 rate_limited; waiting Retry-After admits", async () => {
      const secret = apiClient(t.baseUrl, t.merchant.secretKey);
      const ip = freshIp();
      const responses = await repeat(61, () => secret.post("/offers/void", VOID, from(ip)));
      assert.ok(
        statuses(responses)
          .slice(0, 60)
          .every((s) => s === 404),
        String(statuses(responses)),
      );
      const limited = responses[60];
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.type, "rate_limit_error");
      assert.equal(limited.body.error.code, "rate_limited");
      assert.match(limited.body.error.request_id, REQUEST_ID_PATTERN);
      assert.equal(limited.headers.get("retry-after"), "1");
      assert.match(limited.headers.get("ratelimit")!, /"void-merchant-ip";r=0;t=60/);
      t.clock.advance(Number(limited.headers.get("retry-after")) * 1000 - 1);
      assert.equal((await secret.post("/offers/void", VOID, from(ip))).status, 429, "not a millisecond early");
      t.clock.advance(1);
      assert.equal(
        (await secret.post("/offers/void", VOID, from(ip))).status,
        404,
        "admitted after exactly Retry-After",
      );
      const other = await secret.post("/offers/void", VOID, from(freshIp()));
      assert.equal(other.status, 404, "another address of the same merchant has its own 60/min");
      t.clock.advance(60_000);
    });

    it("metrics: the strict bucket's 100/min per merchant + IP, recovering on time", async () => {
      const secret = apiClient(t.baseUrl, t.merchant.secretKey);
      const ip = freshIp();
      const path = `/merchants/${t.merchant.merchantId}/metrics`;
      const responses = await repeat(101, () => secret.get(path, from(ip)));
      assert.equal(statuses(responses).filter((s) => s === 200).length, 100);
      assert.equal(responses[100].status, 429);
      assert.equal(responses[100].headers.get("retry-after"), "1", "600 ms rounded up to whole seconds");
      t.clock.advance(60_000);
      const after = await repeat(100, () => secret.get(path, from(ip)));
      assert.ok(
        after.every((r) => r.status === 200),
        "a whole period restores the whole quota",
      );
      t.clock.advance(60_000);
    });

    it("quote: the edge WAF's 50 per 10 s per IP, whoever the merchant", async () => {
      const ip = freshIp();
      const body = { order_amount_cents: 5_000, order_id: "order-rl", protection_program_id: t.merchant.programId };
      const other = await t.createMerchant("Second Store");
      const keys = [t.merchant.publishableKey, other.publishableKey];
      let n = 0;
      const responses = await repeat(51, () =>
        apiClient(t.baseUrl, keys[n++ % 2]).post("/offers/quote", body, from(ip)),
      );
      assert.equal(statuses(responses).filter((s) => s !== 429).length, 50);
      assert.equal(responses[50].status, 429);
      assert.equal(responses[50].body.error.code, "rate_limited");
      assert.equal(responses[50].headers.get("retry-after"), "1");
      t.clock.advance(10_000);
      assert.notEqual((await apiClient(t.baseUrl, keys[0]).post("/offers/quote", body, from(ip))).status, 429);
      t.clock.advance(10_000);
    });

    it("confirm: the edge's global 100/min per IP answers 429 challenge_required", async () => {
      const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
      const ip = freshIp();
      const responses = await repeat(101, () => widget.post("/offers/confirm", {}, from(ip)));
      assert.ok(
        statuses(responses)
          .slice(0, 100)
          .every((s) => s === 400),
      );
      assert.equal(responses[100].status, 429);
      assert.equal(responses[100].body.error.type, "rate_limit_error");
      assert.equal(responses[100].body.error.code, "challenge_required");
      const secret = apiClient(t.baseUrl, t.merchant.secretKey);
      assert.equal(
        (await secret.post("/offers/void", VOID, from(ip))).status,
        429,
        "the global edge bucket is shared by the routes it covers",
      );
      t.clock.advance(60_000);
    });

    it('without a valid key, X-Merchant-Id feeds unauthenticated buckets of that merchant (docs/api.md "Rate limits"), never its own', async () => {
      const anonymous = apiClient(t.baseUrl);
      const secret = apiClient(t.baseUrl, t.merchant.secretKey);
      const ip = freshIp();
      const unauthenticated = await repeat(61, () =>
        anonymous.post("/offers/void", VOID, from(ip, { "X-Merchant-Id": t.merchant.merchantId })),
      );
      assert.ok(unauthenticated.slice(0, 60).every((r) => r.status === 401));
      assert.equal(
        unauthenticated[60].status,
        429,
        "unauthenticated traffic naming a merchant has its own per-IP bucket",
      );
      assert.equal(
        (await secret.post("/offers/void", VOID, from(ip))).status,
        404,
        "the merchant's own buckets are untouched",
      );

      const other = await t.createMerchant("Third Store");
      const otherSecret = apiClient(t.baseUrl, other.secretKey);
      const ip2 = freshIp();
      await repeat(60, () =>
        otherSecret.post("/offers/void", VOID, from(ip2, { "X-Merchant-Id": t.merchant.merchantId })),
      );
      assert.equal(
        (await secret.post("/offers/void", VOID, from(ip2))).status,
        404,
        "a header does not charge another merchant when a key authenticates",
      );
      t.clock.advance(60_000);
    });

    it("1,100 unauthenticated claim listings naming a merchant leave that merchant's secret key its whole budget", async () => {
      const anonymous = apiClient(t.baseUrl);
      const secret = apiClient(t.baseUrl, t.merchant.secretKey);
      const path = `/merchants/${t.merchant.merchantId}/claims`;
      const flood: ApiResponse[] = [];
      for (let i = 0; i < 11; i++) {
        const ip = freshIp();
        flood.push(
          ...(await repeat(100, () => anonymous.get(path, from(ip, { "X-Merchant-Id": t.merchant.merchantId })))),
        );
      }
      assert.equal(flood.length, 1_100);
      assert.ok(
        flood.every((r) => r.status === 401 || r.status === 429),
        String(new Set(statuses(flood))),
      );
      assert.ok(
        flood.some((r) => r.status === 429),
        "the unauthenticated per-merchant bucket (1000/min) ran out",
      );
      const ip = freshIp();
      for (const listing of [path, "/merchant/claims"]) {
        const response = await secret.get(listing, from(ip));
        assert.equal(response.status, 200, `${listing}: ${response.text}`);
        assert.match(response.headers.get("ratelimit")!, /"claims-merchant";r=\d+/);
      }
      t.clock.advance(60_000);
    });

    it("240 void calls with the merchant's publishable key (403) from several addresses leave its secret key's void budget whole", async () => {
      const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
      const secret = apiClient(t.baseUrl, t.merchant.secretKey);
      const refused: ApiResponse[] = [];
      for (let i = 0; i < 4; i++) {
        const ip = freshIp();
        refused.push(...(await repeat(60, () => widget.post("/offers/void", VOID, from(ip)))));
      }
      assert.ok(
        refused.slice(0, 200).every((r) => r.status === 403),
        String(new Set(statuses(refused))),
      );
      assert.ok(
        refused.slice(200).every((r) => r.status === 429),
        "the unauthenticated per-merchant void bucket (200/min) ran out",
      );
      const response = await secret.post("/offers/void", VOID, from(freshIp()));
      assert.equal(response.status, 404, response.text);
      assert.match(response.headers.get("ratelimit")!, /"void-merchant";r=199;/);
      t.clock.advance(60_000);
    });

    it("a 429 for a secret key sent with an Origin header carries no CORS headers", async () => {
      const secret = apiClient(t.baseUrl, t.merchant.secretKey);
      const ip = freshIp();
      const origin = { Origin: "https://shop.example" };
      const responses = await repeat(51, () =>
        secret.post("/offers/quote", { order_amount_cents: -1 }, from(ip, origin)),
      );
      const limited = responses[50];
      assert.equal(limited.status, 429);
      for (const response of [responses[0], limited]) {
        assert.equal(response.headers.get("access-control-allow-origin"), null);
        assert.equal(response.headers.get("access-control-expose-headers"), null);
      }
      t.clock.advance(60_000);
    });
  });
}

describe("rate limits: client address", () => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect: "sqlite", rateLimits: { edge: false } })));
  afterAll(() => t.close());

  it("uses the socket address and ignores X-Forwarded-For unless TRUST_PROXY says how many hops to trust", async () => {
    const secret = apiClient(t.baseUrl, t.merchant.secretKey);
    for (let i = 0; i < 60; i++) {
      assert.equal(
        (await secret.post("/offers/void", VOID, { headers: { "X-Forwarded-For": `198.51.100.${i}` } })).status,
        404,
      );
    }
    const spoofed = await secret.post("/offers/void", VOID, { headers: { "X-Forwarded-For": "198.51.100.200" } });
    assert.equal(spoofed.status, 429, "a made-up X-Forwarded-For is no way around the per-IP limit");
    assert.doesNotMatch(spoofed.headers.get("ratelimit")!, /edge/, "EDGE_LIMITS=off drops the edge policies");
  });

  it("with Redis unreachable, decides in memory and still answers (never fails the request)", async () => {
    const down = await startTestApi({ dialect: "sqlite", rateLimits: { redisUrl: "redis://127.0.0.1:1" } });
    try {
      const secret = apiClient(down.baseUrl, down.merchant.secretKey);
      const response = await secret.get(`/merchants/${down.merchant.merchantId}/metrics`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get("ratelimit")!, /"metrics-merchant";r=999/);
      assert.equal(down.limiter!.fallbacks(), 1);
    } finally {
      await down.close();
    }
  });

  it("the OpenAPI document gives each limited operation its limits, its 429 and the headers", async () => {
    const document = (await apiClient(t.baseUrl).get("/openapi.json")).body;
    const quote = document.paths["/offers/quote"].post;
    assert.deepEqual(
      quote["x-rate-limits"].map((p: { name: string; quota: number; windowSeconds: number }) => [
        p.name,
        p.quota,
        p.windowSeconds,
      ]),
      [
        ["quote-merchant", 5000, 60],
        ["quote-merchant-ip", 500, 60],
        ["edge-quote", 50, 10],
      ],
    );
    assert.ok(quote.responses["429"].headers["Retry-After"]);
    assert.ok(quote.responses["200"].headers.RateLimit && quote.responses["200"].headers["RateLimit-Policy"]);
    assert.match(document.paths["/offers/confirm"].post.responses["429"].description, /challenge_required/);
    assert.equal(document.paths["/purchases"].get.responses["429"], undefined);
  });

  it("RATE_LIMITS=off (the test default): no limits and no RateLimit headers", async () => {
    const plain = await startTestApi({ dialect: "sqlite", transport: "socket" });
    try {
      const secret = apiClient(plain.baseUrl, plain.merchant.secretKey);
      const responses = await repeat(70);
      async function repeat(n: number) {
        const out: ApiResponse[] = [];
        for (let i = 0; i < n; i++) out.push(await secret.post("/offers/void", VOID));
        return out;
      }
      assert.ok(responses.every((r) => r.status === 404 && r.headers.get("ratelimit") === null));
    } finally {
      await plain.close();
    }
  });
});
