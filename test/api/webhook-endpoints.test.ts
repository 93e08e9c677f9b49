import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError, mintLiveCredentials } from "../support/api-assertions.ts";
import type { ResolvedAddress } from "../../server/webhooks/address-policy.ts";
import { MAX_ENDPOINTS_PER_MODE } from "../../server/domain/webhook-endpoints.ts";
import { startReceiver } from "../support/webhook-receiver.ts";
import { waitFor } from "../support/wait.ts";
import { writeEvents } from "../support/webhook-events.ts";

const SECRET_PATTERN = /^whsec_[0-9A-Za-z]{40}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Fake DNS: nothing leaves loopback, and no traffic ever goes to the private addresses named here. */
const DNS: Record<string, string> = {
  "hooks.example.test": "93.184.216.34",
  "loopback.example.test": "127.0.0.1",
  "private.example.test": "10.20.30.40",
  "metadata.example.test": "169.254.169.254",
};
/** A name whose look-up takes SLOW_DNS_MS: the lookup must not hold the database's write lock meanwhile. */
const SLOW_DNS_MS = 1_000;
let slowLookups = 0;
const resolveHost = async (host: string): Promise<ResolvedAddress[]> => {
  if (host === "slow.example.test") {
    slowLookups++;
    await new Promise((resolve) => setTimeout(resolve, SLOW_DNS_MS));
    return [{ address: "93.184.216.34", family: 4 }];
  }
  return DNS[host] ? [{ address: DNS[host], family: 4 }] : [];
};

describe.each(DIALECTS)("webhook endpoints API (%s)", (dialect) => {
  let t: TestApi;
  let secret: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    t = await startTestApi({ dialect, resolveHost, webhooks: { gapGraceMs: 0 } });
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterAll(() => t.close());

  const create = (body: unknown, options = {}) => secret.post("/webhooks/endpoints", body, options);

  it("creation reveals the secret once; reads never show it; it is sealed at rest, in the endpoint and in the idempotency record", async () => {
    const idempotencyKey = `create-${crypto.randomUUID()}`;
    const created = await create(
      { url: "http://hooks.example.test/hooks", events: ["protection.confirmed", "claim.created"] },
      { idempotencyKey },
    );
    assert.equal(created.status, 200, created.text);
    assert.match(created.body.id, /^we_[0-9a-z]{24}$/);
    assert.match(created.body.secret, SECRET_PATTERN);
    assert.deepEqual(created.body.events, ["claim.created", "protection.confirmed"]);
    assert.equal(created.body.status, "enabled");
    assert.equal(created.body.livemode, false);

    const one = await secret.get(`/webhooks/endpoints/${created.body.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.secret, undefined);
    assert.ok(!one.text.includes(created.body.secret));
    const list = await secret.get("/webhooks/endpoints");
    assert.ok(list.body.data.some((e: { id: string }) => e.id === created.body.id));
    assert.ok(!list.text.includes("whsec_"));

    const replay = await create(
      { url: "http://hooks.example.test/hooks", events: ["protection.confirmed", "claim.created"] },
      { idempotencyKey },
    );
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.equal(replay.body.secret, created.body.secret, "a replay under the same key answers the same");

    const dump =
      JSON.stringify(await t.database.db.all("SELECT * FROM webhook_endpoints")) +
      JSON.stringify(await t.database.db.all("SELECT * FROM idempotency_records"));
    assert.ok(!dump.includes(created.body.secret), "the secret is nowhere in plaintext");
  });

  it("PATCH changes url, events and status and never rotates the secret", async () => {
    const created = (await create({ url: "http://hooks.example.test/a", events: ["*"] })).body;
    const before = await t.database.db.get<{ secret_sealed: string }>(
      "SELECT secret_sealed FROM webhook_endpoints WHERE id = ?",
      [created.id],
    );
    const patched = await secret.call("PATCH", `/webhooks/endpoints/${created.id}`, {
      url: "http://hooks.example.test/b",
      events: ["protection.voided"],
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.url, "http://hooks.example.test/b");
    assert.deepEqual(patched.body.events, ["protection.voided"]);
    assert.equal(patched.body.secret, undefined);
    const disabled = await secret.call("PATCH", `/webhooks/endpoints/${created.id}`, { status: "disabled" });
    assert.equal(disabled.body.status, "disabled");
    const after = await t.database.db.get<{ secret_sealed: string; previous_secret_sealed: string | null }>(
      "SELECT secret_sealed, previous_secret_sealed FROM webhook_endpoints WHERE id = ?",
      [created.id],
    );
    assert.equal(after!.secret_sealed, before!.secret_sealed);
    assert.equal(after!.previous_secret_sealed, null);
    assertError(await secret.call("PATCH", `/webhooks/endpoints/${created.id}`, { secret: "whsec_mine" }), {
      status: 400,
      code: "parameter_unknown",
      param: "secret",
    });
  });

  it("rotation reveals a new secret once, at /api/v1/… and at the spec's own /v1/… path; the old one signs for 24 h more", async () => {
    const created = (await create({ url: "http://hooks.example.test/r", events: ["*"] })).body;
    const rotated = await secret.post(`/webhooks/endpoints/${created.id}/secret/rotate`);
    assert.equal(rotated.status, 200, rotated.text);
    assert.match(rotated.body.secret, SECRET_PATTERN);
    assert.notEqual(rotated.body.secret, created.secret);
    assert.equal(rotated.body.previousSecretExpiresAt, new Date(t.clock.now + DAY_MS).toISOString());

    const origin = t.baseUrl.replace(/\/api\/v1$/, "");
    const ownPrefix = apiClient(origin, t.merchant.secretKey);
    const again = await ownPrefix.post(`/v1/webhooks/endpoints/${created.id}/secret/rotate`);
    assert.equal(again.status, 200, again.text);
    assert.match(again.body.secret, SECRET_PATTERN);
    assert.notEqual(again.body.secret, rotated.body.secret);
    assertError(
      await ownPrefix.post(`/v1/webhooks/endpoints/${created.id}/secret/rotate`, undefined, { idempotencyKey: null }),
      { status: 400, code: "idempotency_key_required" },
    );
    assertError(await ownPrefix.post(`/v1/webhooks/endpoints/we_unknown/secret/rotate`), {
      status: 404,
      code: "resource_missing",
    });
  });

  it("DELETE removes the endpoint (404 afterwards); other merchants' endpoints are invisible", async () => {
    const created = (await create({ url: "http://hooks.example.test/d", events: ["*"] })).body;
    const other = await t.createMerchant();
    const stranger = apiClient(t.baseUrl, other.secretKey);
    assertError(await stranger.get(`/webhooks/endpoints/${created.id}`), { status: 404, code: "resource_missing" });
    assertError(await stranger.call("DELETE", `/webhooks/endpoints/${created.id}`), {
      status: 404,
      code: "resource_missing",
    });
    const deleted = await secret.call("DELETE", `/webhooks/endpoints/${created.id}`);
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body, { id: created.id, object: "webhook_endpoint", deleted: true });
    assertError(await secret.get(`/webhooks/endpoints/${created.id}`), { status: 404, code: "resource_missing" });
  });

  it("is secret-key only and validates its input", async () => {
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    assertError(await widget.post("/webhooks/endpoints", { url: "http://hooks.example.test/x", events: ["*"] }), {
      status: 403,
      code: "secret_key_required",
    });
    assertError(await widget.get("/webhooks/endpoints"), { status: 403, code: "secret_key_required" });
    assertError(await create({ url: "http://hooks.example.test/x", events: ["order.shipped"] }), {
      status: 400,
      code: "parameter_invalid",
      param: "events.0",
    });
    assertError(await create({ url: "http://hooks.example.test/x", events: [] }), {
      status: 400,
      code: "parameter_invalid",
      param: "events",
    });
    assertError(await create({ url: "ftp://hooks.example.test/x", events: ["*"] }), {
      status: 400,
      code: "url_invalid",
      param: "url",
    });
    assertError(await create({ url: "not a url", events: ["*"] }), { status: 400, code: "url_invalid", param: "url" });
    assertError(await create({ url: "http://user:pw@hooks.example.test/x", events: ["*"] }), {
      status: 400,
      code: "url_invalid",
      param: "url",
    });
    assertError(await create({ events: ["*"] }), { status: 400, code: "parameter_missing", param: "url" });
  });

  it("live mode: https only, and the host must resolve to public addresses only (loopback, 10.x, metadata refused)", async () => {
    const live = apiClient(t.baseUrl, (await mintLiveCredentials(t, t.merchant.merchantId)).secretKey);
    const post = (url: string) => live.post("/webhooks/endpoints", { url, events: ["*"] });
    assertError(await post("http://hooks.example.test/x"), { status: 400, code: "url_invalid", param: "url" });
    for (const host of [
      "loopback.example.test",
      "private.example.test",
      "metadata.example.test",
      "unknown.example.test",
      "127.0.0.1",
      "10.0.0.1",
      "[::1]",
      "localhost",
    ]) {
      assertError(await post(`https://${host}/x`), { status: 400, code: "url_not_allowed", param: "url" });
    }
    const ok = await post("https://hooks.example.test/x");
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.livemode, true);
    assertError(
      await live.call("PATCH", `/webhooks/endpoints/${ok.body.id}`, { url: "https://private.example.test/x" }),
      { status: 400, code: "url_not_allowed", param: "url" },
    );
    assertError(await live.get(`/webhooks/endpoints/we_${"0".repeat(24)}`), { status: 404, code: "resource_missing" });
    assertError(await secret.get(`/webhooks/endpoints/${ok.body.id}`), { status: 404, code: "resource_missing" });
  });

  it("test mode (WEBHOOK_ALLOW_PRIVATE_URLS off, the default): loopback, private, link-local and metadata addresses are refused too, and nothing is created", async () => {
    const endpoints = () =>
      t.database.db
        .get<{ n: number | string }>("SELECT COUNT(*) AS n FROM webhook_endpoints")
        .then((row) => Number(row!.n));
    const before = await endpoints();
    for (const host of [
      "127.0.0.1:8787",
      "localhost",
      "loopback.example.test",
      "10.0.0.1",
      "private.example.test",
      "169.254.169.254",
      "metadata.example.test",
      "[::1]",
      "[::ffff:7f00:1]",
      "[fe80::1]",
      "2130706433",
      "unknown.example.test",
    ]) {
      assertError(await assertChangesNothing(t.database.db, () => create({ url: `http://${host}/x`, events: ["*"] })), {
        status: 400,
        code: "url_not_allowed",
        param: "url",
      });
    }
    assert.equal(await endpoints(), before);
    const ok = (await create({ url: "http://hooks.example.test/x", events: ["*"] })).body;
    assertError(await secret.call("PATCH", `/webhooks/endpoints/${ok.id}`, { url: "http://127.0.0.1:8787/x" }), {
      status: 400,
      code: "url_not_allowed",
      param: "url",
    });
    assert.equal((await secret.get(`/webhooks/endpoints/${ok.id}`)).body.url, "http://hooks.example.test/x");
  });

  it("test mode (default): a delivery whose host now resolves to loopback is refused before connecting", async () => {
    const receiver = await startReceiver();
    try {
      const merchant = await t.createMerchant("Rebinding Store");
      const mine = apiClient(t.baseUrl, merchant.secretKey);
      DNS["rebind.example.test"] = "93.184.216.34";
      const endpoint = (
        await mine.post("/webhooks/endpoints", { url: `http://rebind.example.test:${receiver.port}/x`, events: ["*"] })
      ).body;
      DNS["rebind.example.test"] = "127.0.0.1";
      await writeEvents(t, { merchantId: merchant.merchantId, mode: "test" }, 1);
      assert.equal(await t.api.webhooks.runOnce(), 1);
      const [attempt] = (await mine.get(`/webhooks/endpoints/${endpoint.id}/deliveries`)).body.data;
      assert.deepEqual(
        [attempt.outcome, attempt.statusCode, attempt.error],
        ["failed", null, "address not allowed: rebind.example.test is or resolves to a non-public address"],
      );
      assert.equal(receiver.received.length, 0);
    } finally {
      await receiver.close();
    }
  });

  it(`a merchant may have ${MAX_ENDPOINTS_PER_MODE} endpoints per mode: the next one is 409 webhook_endpoint_limit_reached and creates nothing`, async () => {
    const merchant = await t.createMerchant("Many Hooks Store");
    const mine = apiClient(t.baseUrl, merchant.secretKey);
    const live = apiClient(t.baseUrl, (await mintLiveCredentials(t, merchant.merchantId)).secretKey);
    const endpointsOf = async (mode: string) =>
      Number(
        (await t.database.db.get<{ n: number | string }>(
          "SELECT COUNT(*) AS n FROM webhook_endpoints WHERE merchant_id = ? AND mode = ?",
          [merchant.merchantId, mode],
        ))!.n,
      );
    // Concurrent creations: none may slip past the count (PostgreSQL runs them in parallel).
    const racing = await Promise.all(
      Array.from({ length: MAX_ENDPOINTS_PER_MODE + 4 }, (_, i) =>
        mine.post("/webhooks/endpoints", { url: `https://hooks.example.test/${i}`, events: ["*"] }),
      ),
    );
    assert.equal(
      racing.filter((r) => r.status === 200).length,
      MAX_ENDPOINTS_PER_MODE,
      racing.map((r) => r.status).join(),
    );
    for (const refused of racing.filter((r) => r.status !== 200))
      assertError(refused, { status: 409, code: "webhook_endpoint_limit_reached", param: null });
    assert.equal(await endpointsOf("test"), MAX_ENDPOINTS_PER_MODE);

    const over = await assertChangesNothing(
      t.database.db,
      () => mine.post("/webhooks/endpoints", { url: "https://hooks.example.test/17", events: ["*"] }),
      1,
    );
    assertError(over, { status: 409, code: "webhook_endpoint_limit_reached", param: null });
    assert.match(over.body.error.message, /at most 16 test-mode webhook endpoints/);
    assert.equal(await endpointsOf("test"), MAX_ENDPOINTS_PER_MODE);
    assert.equal(
      (await live.post("/webhooks/endpoints", { url: "https://hooks.example.test/live", events: ["*"] })).status,
      200,
      "the other mode has its own 16",
    );
    assert.equal(
      (await create({ url: "https://hooks.example.test/other", events: ["*"] })).status,
      200,
      "other merchants have their own 16",
    );

    const [first] = racing.filter((r) => r.status === 200);
    assert.equal((await mine.call("DELETE", `/webhooks/endpoints/${first.body.id}`)).status, 200);
    assert.equal(
      (await mine.post("/webhooks/endpoints", { url: "https://hooks.example.test/again", events: ["*"] })).status,
      200,
      "deleting one makes room",
    );
  });

  it("checks a live URL's DNS before the transaction: other writes proceed while the look-up waits", async () => {
    const live = apiClient(t.baseUrl, (await mintLiveCredentials(t, t.merchant.merchantId)).secretKey);
    const lookupsBefore = slowLookups;
    const creating = live.post("/webhooks/endpoints", { url: "https://slow.example.test/hooks", events: ["*"] });
    await waitFor(() => slowLookups > lookupsBefore, { what: "the endpoint's DNS look-up" });
    const started = performance.now();
    const quote = await apiClient(t.baseUrl, t.merchant.secretKey).post("/offers/quote", {
      order_amount_cents: 1_000,
      order_id: "order-during-dns",
      protection_program_id: t.merchant.programId,
    });
    const quoteMs = performance.now() - started;
    assert.equal(quote.status, 200, quote.text);
    assert.ok(quoteMs < SLOW_DNS_MS - 300, `the quote waited ${Math.round(quoteMs)} ms for the endpoint's DNS look-up`);
    assert.equal((await creating).status, 200);
  });
});
