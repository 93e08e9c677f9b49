import { describe, it, beforeAll, afterAll, beforeEach } from "vitest";
import assert from "node:assert/strict";
import {
  ProtectionClient,
  ServiceHttpError,
  ServiceRateLimitError,
  ServiceValidationError,
  type RetryOptions,
} from "../src/index.ts";
import { startFaultServer, type Fault, type FaultServer } from "../../../test/support/fault-server.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const KEY = "mch_test_0123456789abcdefghijABCDEFGHIJ";

describe("retries against a fault-injecting server", () => {
  let server: FaultServer;
  let sleeps: number[];
  beforeAll(async () => (server = await startFaultServer()));
  afterAll(() => server.close());
  beforeEach(() => (sleeps = []));

  const client = (retry: Partial<RetryOptions> = { jitter: false }, timeoutMs?: number) =>
    new ProtectionClient({
      apiKey: KEY,
      baseUrl: server.baseUrl,
      timeoutMs,
      retry,
      now: () => NOW,
      sleep: async (ms) => void sleeps.push(ms),
    });
  const keysSent = () => server.requests.map((request) => request.headers["idempotency-key"]);
  const assertOneKeyOnEveryAttempt = (attempts: number) => {
    assert.equal(server.requests.length, attempts);
    const keys = keysSent();
    assert.match(
      keys[0] as string,
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      "a UUIDv4",
    );
    assert.deepEqual(new Set(keys).size, 1, "the same key on every attempt");
  };
  const post = (faults: Fault[], options?: Parameters<typeof client>) => {
    server.script(faults);
    return client(...(options ?? [])).post("/offers/decline", { quoteId: "qt_1" });
  };

  it("retries 503 twice with exponential backoff (250, 500 ms) and returns the third answer", async () => {
    const result = await post([{ status: 503 }, { status: 503 }, { status: 200, body: { declined: true } }]);
    assert.deepEqual(result, { declined: true });
    assert.deepEqual(sleeps, [250, 500]);
    assertOneKeyOnEveryAttempt(3);
    assert.deepEqual(
      server.requests.map((r) => r.body),
      Array(3).fill('{"quoteId":"qt_1"}'),
    );
  });

  it("throws ServiceHttpError with the last answer's fields when 503s exhaust the attempts", async () => {
    const error = await post([{ status: 503 }, { status: 503 }, { status: 503 }]).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceHttpError && !(error instanceof ServiceRateLimitError));
    assert.equal(error.httpStatus, 503);
    assert.equal(error.code, "code_503");
    assert.equal(error.type, "api_error");
    assert.equal(error.message, "fault 503");
    assert.equal(error.requestId, "req_attempt3");
    assert.equal(error.idempotencyKey, keysSent()[0]);
    assert.deepEqual(sleeps, [250, 500]);
    assertOneKeyOnEveryAttempt(3);
  });

  for (const status of [408, 429, 500, 502, 504]) {
    it(`retries HTTP ${status}`, async () => {
      assert.deepEqual(await post([{ status }, { status: 200 }]), { ok: true });
      assertOneKeyOnEveryAttempt(2);
    });
  }

  for (const status of [400, 401, 403, 404, 409, 413, 422]) {
    it(`never retries HTTP ${status}`, async () => {
      const error = await post([{ status, headers: { "Retry-After": "1" } }, { status: 200 }]).catch((e: unknown) => e);
      assert.ok(error instanceof ServiceHttpError);
      assert.equal(error.httpStatus, status);
      assert.equal(error.code, `code_${status}`);
      assert.equal(server.requests.length, 1);
      assert.deepEqual(sleeps, []);
    });
  }

  it("waits Retry-After seconds on 429 instead of the backoff", async () => {
    await post([
      { status: 429, headers: { "Retry-After": "2" } },
      { status: 429, headers: { "Retry-After": "0" } },
      { status: 200 },
    ]);
    assert.deepEqual(sleeps, [2000, 0]);
    assertOneKeyOnEveryAttempt(3);
  });

  it("reads a Retry-After HTTP-date against the injected clock", async () => {
    await post([{ status: 429, headers: { "Retry-After": new Date(NOW + 7_000).toUTCString() } }, { status: 200 }]);
    assert.deepEqual(sleeps, [7000]);
  });

  it("honours Retry-After on 503 too, and cuts it to retryAfterCeilingSeconds", async () => {
    await post([
      { status: 503, headers: { "Retry-After": "3600" } },
      { status: 503, headers: { "Retry-After": "3600" } },
      { status: 200 },
    ]);
    assert.deepEqual(sleeps, [600_000, 600_000]);
    sleeps = [];
    await post(
      [{ status: 429, headers: { "Retry-After": "30" } }, { status: 200 }],
      [{ jitter: false, retryAfterCeilingSeconds: 10 }],
    );
    assert.deepEqual(sleeps, [10_000]);
  });

  it("throws ServiceRateLimitError with retryAfter when 429s exhaust the attempts", async () => {
    const error = await post(Array(3).fill({ status: 429, headers: { "Retry-After": "5" } })).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceRateLimitError);
    assert.ok(error instanceof ServiceHttpError);
    assert.equal(error.httpStatus, 429);
    assert.equal(error.retryAfter, 5);
    assert.equal(error.code, "code_429");
    assert.equal(error.type, "rate_limit_error");
    assert.equal(error.idempotencyKey, keysSent()[0]);
    assert.deepEqual(sleeps, [5000, 5000]);
  });

  it("retries connection resets and reports a transport failure when they persist", async () => {
    assert.deepEqual(await post([{ reset: true }, { reset: true }, { status: 200 }]), { ok: true });
    assertOneKeyOnEveryAttempt(3);
    assert.deepEqual(sleeps, [250, 500]);

    sleeps = [];
    const error = await post([{ reset: true }, { reset: true }, { reset: true }]).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceHttpError);
    assert.equal(error.httpStatus, null);
    assert.equal(error.code, null);
    assert.equal(error.requestId, null);
    assert.equal(error.idempotencyKey, keysSent()[0]);
    assert.ok(error.cause instanceof Error, "the fetch failure is the cause");
    assert.match(error.message, /^The request failed/);
    assertOneKeyOnEveryAttempt(3);
  });

  it("aborts attempts slower than timeoutMs and retries them", async () => {
    // 400 ms leaves the fast answers room on a loaded machine; the stalled ones would take 5 s.
    assert.deepEqual(
      await post([{ delayMs: 5_000 }, { status: 200, body: { fast: true } }], [{ jitter: false }, 400]),
      { fast: true },
    );
    assertOneKeyOnEveryAttempt(2);

    sleeps = [];
    const started = Date.now();
    const error = await post(
      [{ delayMs: 5_000 }, { delayMs: 5_000 }, { delayMs: 5_000 }],
      [{ jitter: false }, 400],
    ).catch((e: unknown) => e);
    assert.ok(Date.now() - started < 4_500, "three 400 ms timeouts, not three 5 s answers");
    assert.ok(error instanceof ServiceHttpError);
    assert.equal(error.httpStatus, null);
    assert.equal(error.message, "The request timed out");
    assert.deepEqual(sleeps, [250, 500]);
    assertOneKeyOnEveryAttempt(3);
  });

  it("jitters each backoff delay within [delay / 2, delay]", async () => {
    await post([{ status: 503 }, { status: 503 }, { status: 200 }], [{}]);
    assert.equal(sleeps.length, 2);
    assert.ok(sleeps[0]! >= 125 && sleeps[0]! <= 250, String(sleeps[0]));
    assert.ok(sleeps[1]! >= 250 && sleeps[1]! <= 500, String(sleeps[1]));
  });

  it("follows maxAttempts, baseDelayMs and multiplier", async () => {
    await post(Array(4).fill({ status: 500 }).concat({ status: 200 }), [
      { jitter: false, maxAttempts: 5, baseDelayMs: 100, multiplier: 3 },
    ]);
    assert.deepEqual(sleeps, [100, 300, 900, 2700]);
    sleeps = [];
    await assert.rejects(post([{ status: 500 }, { status: 200 }], [{ maxAttempts: 1 }]), ServiceHttpError);
    assert.equal(server.requests.length, 1);
    assert.deepEqual(sleeps, []);
  });

  it("sends a caller's idempotency key on every attempt", async () => {
    server.script([{ status: 503 }, { status: 200 }]);
    await client().post("/offers/decline", { quoteId: "qt_1" }, "order-1001-decline-0001");
    assert.deepEqual(keysSent(), ["order-1001-decline-0001", "order-1001-decline-0001"]);
  });

  it("makes a new key for each logical call", async () => {
    server.script([]);
    await client().post("/offers/decline", {});
    await client().post("/offers/decline", {});
    const [first, second] = keysSent();
    assert.notEqual(first, second);
  });

  it("rejects a malformed idempotency key before any request", async () => {
    server.script([]);
    for (const bad of ["short", "has spaces in the key!", "x".repeat(256), "ünïcödé-key-1234567"]) {
      await assert.rejects(client().post("/offers/decline", {}, bad), ServiceValidationError);
      await assert.rejects(
        client().offers.quote({ order_amount_cents: 1, order_id: "o", protection_program_id: "p" }, bad),
        ServiceValidationError,
      );
    }
    assert.equal(server.requests.length, 0);
  });

  it("retries GETs without an idempotency key", async () => {
    server.script([
      { status: 502 },
      { status: 200, body: { object: "list", data: [], has_more: false, next_cursor: null } },
    ]);
    const page = await client().claims.list({ limit: 5 });
    assert.equal(page.object, "list");
    assert.equal(server.requests.length, 2);
    assert.deepEqual(keysSent(), [undefined, undefined]);
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ["/api/v1/merchant/claims?limit=5", "/api/v1/merchant/claims?limit=5"],
    );
  });

  it("describes an error answer that is not JSON by its status", async () => {
    const error = await post([{ status: 500, body: "<html>oops</html>" }], [{ maxAttempts: 1 }]).catch(
      (e: unknown) => e,
    );
    assert.ok(error instanceof ServiceHttpError);
    assert.equal(error.message, "HTTP 500");
    assert.equal(error.code, null);
    assert.equal(error.requestId, "req_attempt1");
  });
});
