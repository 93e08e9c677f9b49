import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertError } from "../support/api-assertions.ts";
import { writeEvents } from "../support/webhook-events.ts";

// POST /events/{id}/redeliver (rule `redeliver`): 60/min per merchant, 30/min per merchant + client IP, and the edge's
// global 100/min per IP. Each test request names its client address in X-Forwarded-For (one trusted proxy hop).

describe("redelivery rate limit over HTTP", () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({
      dialect: "sqlite",
      rateLimits: { trustProxy: 1 },
      resolveHost: async (host) => (host === "hooks.example.test" ? [{ address: "93.184.216.34", family: 4 }] : []),
    });
  });
  afterAll(() => t.close());

  it("the 31st redelivery from one address and the 61st of the merchant are 429 rate_limited and queue nothing", async () => {
    const secret = apiClient(t.baseUrl, t.merchant.secretKey);
    assert.equal(
      (await secret.post("/webhooks/endpoints", { url: "https://hooks.example.test/x", events: ["*"] })).status,
      200,
    );
    const [eventId] = await writeEvents(t, { merchantId: t.merchant.merchantId, mode: "test" }, 1);
    const redeliver = (ip: string) =>
      secret.post(`/events/${eventId}/redeliver`, {}, { headers: { "X-Forwarded-For": ip } });
    const deliveries = async () =>
      Number((await t.database.db.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM webhook_deliveries"))!.n);
    const statuses = async (ip: string, count: number) => {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await redeliver(ip)).status);
      return seen;
    };

    assert.deepEqual(await statuses("198.51.100.1", 30), Array(30).fill(200));
    const perAddress = await redeliver("198.51.100.1");
    assertError(perAddress, { status: 429, code: "rate_limited", param: null });
    assert.equal(
      perAddress.headers.get("ratelimit-policy"),
      '"redeliver-merchant";q=60;w=60, "redeliver-merchant-ip";q=30;w=60, "edge-global";q=100;w=60',
    );
    assert.match(perAddress.headers.get("ratelimit")!, /"redeliver-merchant-ip";r=0;t=\d+/);
    assert.ok(Number(perAddress.headers.get("retry-after")) > 0);

    assert.deepEqual(await statuses("198.51.100.2", 30), Array(30).fill(200), "another address has its own 30");
    assert.equal(await deliveries(), 60);
    const perMerchant = await redeliver("198.51.100.3");
    assertError(perMerchant, { status: 429, code: "rate_limited", param: null });
    assert.match(perMerchant.headers.get("ratelimit")!, /"redeliver-merchant";r=0;t=\d+/);
    assert.equal(await deliveries(), 60, "a limited redelivery queues nothing");

    const other = await t.createMerchant();
    assertError(
      await apiClient(t.baseUrl, other.secretKey).post(
        `/events/${eventId}/redeliver`,
        {},
        { headers: { "X-Forwarded-For": "198.51.100.3" } },
      ),
      {
        status: 404,
        code: "resource_missing",
      },
    );
  });
});
