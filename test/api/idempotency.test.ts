import { describe, it, beforeAll, afterAll, afterEach } from "vitest";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError, createQuote, mintLiveCredentials } from "../support/api-assertions.ts";
import { confirmBody, outbox, type ApiClient } from "../support/protection-flows.ts";
import { waitFor } from "../support/wait.ts";
import { IDEMPOTENCY_TTL_MS } from "../../server/http/idempotency.ts";

// docs/api.md "Idempotency": one key runs a mutation at most once per (merchant, mode) for 24 h.

const IN_FLIGHT_WAIT_MS = 400;
const newKey = () => `idem-${crypto.randomUUID()}`;

/** `promise`, or a failure after `ms` (a regression must fail the test, not hang it). */
async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Keeps the first request with `key` running: the test decides when it may finish. */
interface Hold {
  /** Resolves once the first request is stuck behind the hold. */
  untilBlocked(): Promise<void>;
  release(): Promise<void>;
}

/**
 * SQLite: a transaction held open on the API's own database; the API's writes queue behind it (no timeout).
 * PostgreSQL: another connection's uncommitted claim of the same key (a twin in another server process); the
 * API's claim blocks on it for at most inFlightWaitMs (lock_timeout).
 */
async function holdKey(t: TestApi, key: string): Promise<Hold> {
  if (t.dialect === "sqlite") {
    let open!: () => void;
    const held = t.database.db.transaction(() => new Promise<void>((resolve) => (open = resolve)));
    return {
      untilBlocked: () => sleep(200),
      release: async () => {
        open();
        await held;
      },
    };
  }
  const client = new pg.Client({ connectionString: t.database.url });
  await client.connect();
  await client.query("BEGIN");
  const now = t.clock.now;
  await client.query(
    `INSERT INTO idempotency_records (merchant_id, mode, key_kind, key, fingerprint, status, headers, body, created_at, expires_at)
     VALUES ($1, 'test', $5, $2, 'held by another process', 0, '', '', $3, $4)`,
    [t.merchant.merchantId, key, now, now + IDEMPOTENCY_TTL_MS, "publishable"],
  );
  let released = false;
  return {
    async untilBlocked() {
      await waitFor(
        async () => {
          const waiting = await t.database.db.get<{ n: number }>(
            "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          return Number(waiting!.n) > 0;
        },
        { timeoutMs: 5_000, intervalMs: 5, what: "the request to block on the held key" },
      );
    },
    async release() {
      if (released) return;
      released = true;
      await client.query("ROLLBACK");
      await client.end();
    },
  };
}

describe.each(DIALECTS)("idempotency (%s)", (dialect) => {
  let t: TestApi;
  let widget: ApiClient;
  let secret: ApiClient;
  /** Runs after each mutation's side effects, before its response is stored (the fault-injection seam). */
  let hook: (() => void) | undefined;
  beforeAll(async () => {
    t = await startTestApi({ dialect, inFlightWaitMs: IN_FLIGHT_WAIT_MS, afterSideEffects: () => hook?.() });
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterEach(() => (hook = undefined));
  afterAll(() => t.close());

  const quoteBody = (fields: Record<string, unknown> = {}) => ({
    order_amount_cents: 12_999,
    order_id: `order-${crypto.randomUUID()}`,
    protection_program_id: t.merchant.programId,
    ...fields,
  });
  const quotesOf = async (orderId: string) =>
    Number(
      (await t.database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM quotes WHERE order_id = ?", [orderId]))!.n,
    );

  describe("the Idempotency-Key header", () => {
    it("is required on every mutation: missing, too short, too long or with other characters is 400 idempotency_key_required", async () => {
      for (const key of [
        null,
        "a".repeat(15),
        "a".repeat(256),
        "has space in it 1234",
        "dots.are.not.allowed",
        "ünïcödé-key-1234567",
      ]) {
        const response = await assertChangesNothing(t.database.db, () =>
          widget.post("/offers/quote", quoteBody(), { idempotencyKey: key }),
        );
        assertError(response, { status: 400, code: "idempotency_key_required", param: "Idempotency-Key" });
      }
    });

    it("accepts 16 and 255 characters of A-Z, a-z, 0-9, '_' and '-'", async () => {
      for (const key of ["Aa0_-".repeat(3) + "z", "k".repeat(255)]) {
        const response = await widget.post("/offers/quote", quoteBody(), { idempotencyKey: key });
        assert.equal(response.status, 200, response.text);
      }
    });
  });

  describe("replay", () => {
    it("same key and body: identical status, body bytes and X-Service-Quote-Token; Idempotent-Replayed only on the replay; one quote", async () => {
      const key = newKey();
      const body = quoteBody();
      const first = await widget.post("/offers/quote", body, { idempotencyKey: key });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.headers.get("idempotent-replayed"), null);
      const afterFirst = await rowCounts(t.database.db);

      for (let i = 0; i < 2; i++) {
        const replay = await widget.post("/offers/quote", body, { idempotencyKey: key });
        assert.equal(replay.status, 200);
        assert.equal(replay.text, first.text);
        assert.equal(replay.headers.get("x-service-quote-token"), first.headers.get("x-service-quote-token"));
        assert.equal(replay.headers.get("idempotent-replayed"), "true");
        assert.notEqual(
          replay.headers.get("x-request-id"),
          first.headers.get("x-request-id"),
          "a replay is a new request",
        );
      }
      assert.deepEqual(await rowCounts(t.database.db), afterFirst);
      assert.equal(await quotesOf(body.order_id), 1);
    });

    it("a replayed confirm creates no second plan, order or event", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId);
      const key = newKey();
      const first = await widget.post("/offers/confirm", confirmBody(quote, token), { idempotencyKey: key });
      assert.equal(first.status, 200, first.text);
      const afterFirst = await rowCounts(t.database.db);
      const replay = await widget.post("/offers/confirm", confirmBody(quote, token), { idempotencyKey: key });
      assert.equal(replay.status, 200);
      assert.equal(replay.text, first.text);
      assert.equal(replay.headers.get("idempotent-replayed"), "true");
      assert.deepEqual(await rowCounts(t.database.db), afterFirst);
      const confirmed = (await outbox(t.database.db, t.merchant.merchantId, "protection.confirmed")).filter(
        (e) => e.data.quoteId === quote.quoteId,
      );
      assert.equal(confirmed.length, 1);
    });

    it("same key with a different body is 409 idempotency_conflict and changes nothing", async () => {
      const key = newKey();
      const body = quoteBody();
      assert.equal((await widget.post("/offers/quote", body, { idempotencyKey: key })).status, 200);
      const conflict = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/quote", { ...body, order_amount_cents: 13_000 }, { idempotencyKey: key }),
      );
      assertError(conflict, { status: 409, code: "idempotency_conflict" });
      assert.equal(conflict.headers.get("idempotent-replayed"), null);
      assert.equal(await quotesOf(body.order_id), 1);
    });

    it("same key on a different path is 409 idempotency_conflict, even with the same body, and the other operation does not run", async () => {
      const key = newKey();
      const quote = await secret.post("/offers/quote", quoteBody(), { idempotencyKey: key });
      assert.equal(quote.status, 200);
      const decline = await assertChangesNothing(t.database.db, () =>
        secret.post("/offers/decline", { quoteId: quote.body.quoteId }, { idempotencyKey: key }),
      );
      assertError(decline, { status: 409, code: "idempotency_conflict" });
      const row = await t.database.db.get<{ status: string }>("SELECT status FROM quotes WHERE id = ?", [
        quote.body.quoteId,
      ]);
      assert.equal(row!.status, "open");

      const otherKey = newKey();
      const sameBody = { quoteId: quote.body.quoteId };
      assert.equal((await secret.post("/offers/decline", sameBody, { idempotencyKey: otherKey })).status, 200);
      const samePayloadElsewhere = await assertChangesNothing(t.database.db, () =>
        secret.post("/headless/decline", sameBody, { idempotencyKey: otherKey }),
      );
      assertError(samePayloadElsewhere, { status: 409, code: "idempotency_conflict" });
    });

    it("keys are scoped per merchant and per mode: the same key is three separate quotes", async () => {
      const other = await t.createMerchant("Idempotency Neighbour");
      const live = await mintLiveCredentials(t, t.merchant.merchantId);
      const key = newKey();
      const orderId = `order-${crypto.randomUUID()}`;
      const calls = [
        [t.merchant.publishableKey, t.merchant.programId],
        [other.publishableKey, other.programId],
        [live.publishableKey, live.programId],
      ];
      const quoteIds = new Set<string>();
      for (const [apiKey, programId] of calls) {
        const response = await widget.post(
          "/offers/quote",
          quoteBody({ order_id: orderId, protection_program_id: programId }),
          { key: apiKey, idempotencyKey: key },
        );
        assert.equal(response.status, 200, response.text);
        assert.equal(response.headers.get("idempotent-replayed"), null);
        quoteIds.add(response.body.quoteId);
      }
      assert.equal(quoteIds.size, 3);
      assert.equal(await quotesOf(orderId), 3);
      const records = await t.database.db.all<{ merchant_id: string; mode: string }>(
        "SELECT merchant_id, mode FROM idempotency_records WHERE key = ? ORDER BY merchant_id, mode",
        [key],
      );
      assert.deepEqual(
        records.map((r) => `${r.merchant_id}/${r.mode}`).sort(),
        [`${t.merchant.merchantId}/live`, `${t.merchant.merchantId}/test`, `${other.merchantId}/test`].sort(),
      );
    });

    it("a domain 4xx is stored: the same key replays the same 403 body; the quote stays usable under a new key", async () => {
      const { quote, token } = await createQuote(widget, t.merchant.programId);
      const key = newKey();
      const wrongToken = confirmBody(quote, `${token.slice(0, -2)}xx`);
      const first = await assertChangesNothing(
        t.database.db,
        () => widget.post("/offers/confirm", wrongToken, { idempotencyKey: key }),
        1,
      );
      assertError(first, { status: 403, code: "quote_token_invalid", param: "quoteToken" });
      assert.equal(first.headers.get("idempotent-replayed"), null);

      const replay = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/confirm", wrongToken, { idempotencyKey: key }),
      );
      assertError(replay, { status: 403, code: "quote_token_invalid", param: "quoteToken" });
      assert.deepEqual(
        { ...replay.body.error, request_id: first.body.error.request_id },
        first.body.error,
        "the same error, under the replay's own request_id",
      );
      assert.equal(replay.headers.get("idempotent-replayed"), "true");

      const rightTokenSameKey = await widget.post("/offers/confirm", confirmBody(quote, token), {
        idempotencyKey: key,
      });
      assertError(rightTokenSameKey, { status: 409, code: "idempotency_conflict" });
      const confirmed = await widget.post("/offers/confirm", confirmBody(quote, token));
      assert.equal(confirmed.status, 200, confirmed.text);
    });

    it("a request refused by validation stores nothing: its key is still free", async () => {
      const key = newKey();
      const { order_id: _, ...missingOrderId } = quoteBody();
      const refused = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/quote", missingOrderId, { idempotencyKey: key }),
      );
      assertError(refused, { status: 400, code: "parameter_missing", param: "order_id" });
      const accepted = await widget.post("/offers/quote", quoteBody(), { idempotencyKey: key });
      assert.equal(accepted.status, 200, accepted.text);
      assert.equal(accepted.headers.get("idempotent-replayed"), null);
    });
  });

  describe("24-hour lifetime", () => {
    it("replays until 24 h have passed; at 24 h + 1 ms the same key runs again and creates a new quote", async () => {
      const key = newKey();
      const body = quoteBody();
      const first = await widget.post("/offers/quote", body, { idempotencyKey: key });
      assert.equal(first.status, 200);

      t.clock.advance(IDEMPOTENCY_TTL_MS - 1);
      const stillReplayed = await widget.post("/offers/quote", body, { idempotencyKey: key });
      assert.equal(stillReplayed.headers.get("idempotent-replayed"), "true");
      assert.equal(stillReplayed.text, first.text);

      t.clock.advance(2);
      const before = await rowCounts(t.database.db);
      const again = await widget.post("/offers/quote", body, { idempotencyKey: key });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.headers.get("idempotent-replayed"), null);
      assert.notEqual(again.body.quoteId, first.body.quoteId);
      assert.notEqual(again.headers.get("x-service-quote-token"), first.headers.get("x-service-quote-token"));
      assert.deepEqual(
        await rowCounts(t.database.db),
        { ...before, quotes: before.quotes + 1 },
        "the expired record is reused, not duplicated",
      );
      assert.equal(await quotesOf(body.order_id), 2);

      const replayOfNew = await widget.post("/offers/quote", body, { idempotencyKey: key });
      assert.equal(replayOfNew.text, again.text);
      assert.equal(replayOfNew.headers.get("idempotent-replayed"), "true");
    });

    it("an expired key reused for a request that fails with a 4xx stores that failure: the next try replays it", async () => {
      const key = newKey();
      assert.equal((await widget.post("/offers/quote", quoteBody(), { idempotencyKey: key })).status, 200);
      t.clock.advance(IDEMPOTENCY_TTL_MS + 1);
      const { quote, token } = await createQuote(widget, t.merchant.programId);
      const wrongToken = confirmBody(quote, `${token.slice(0, -2)}xx`);
      const failed = await widget.post("/offers/confirm", wrongToken, { idempotencyKey: key });
      assertError(failed, { status: 403, code: "quote_token_invalid" });
      const replay = await widget.post("/offers/confirm", wrongToken, { idempotencyKey: key });
      assert.equal(replay.headers.get("idempotent-replayed"), "true", replay.text);
      assert.deepEqual({ ...replay.body.error, request_id: failed.body.error.request_id }, failed.body.error);
    });

    it("purgeExpiredIdempotencyKeys deletes exactly the records past their 24 h", async () => {
      const older = newKey();
      const newer = newKey();
      const olderBody = quoteBody();
      assert.equal((await widget.post("/offers/quote", olderBody, { idempotencyKey: older })).status, 200);
      t.clock.advance(12 * 60 * 60 * 1000);
      const newerBody = quoteBody();
      const newerFirst = await widget.post("/offers/quote", newerBody, { idempotencyKey: newer });
      t.clock.advance(12 * 60 * 60 * 1000);

      const now = t.clock.now;
      const count = async (where: string) =>
        Number(
          (await t.database.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM idempotency_records WHERE ${where}`, [
            now,
          ]))!.n,
        );
      const expired = await count("expires_at <= ?");
      const live = await count("expires_at > ?");
      assert.ok(expired >= 1 && live >= 1);

      assert.equal(await t.api.purgeExpiredIdempotencyKeys(), expired);
      assert.equal(await count("expires_at <= ?"), 0);
      assert.equal(await count("expires_at > ?"), live);
      const keys = (
        await t.database.db.all<{ key: string }>("SELECT key FROM idempotency_records WHERE key IN (?, ?)", [
          older,
          newer,
        ])
      ).map((r) => r.key);
      assert.deepEqual(keys, [newer]);
      assert.equal(await t.api.purgeExpiredIdempotencyKeys(), 0, "nothing left to purge");

      const replay = await widget.post("/offers/quote", newerBody, { idempotencyKey: newer });
      assert.equal(replay.text, newerFirst.text);
      assert.equal(replay.headers.get("idempotent-replayed"), "true");
      const rerun = await widget.post("/offers/quote", olderBody, { idempotencyKey: older });
      assert.equal(rerun.status, 200);
      assert.equal(rerun.headers.get("idempotent-replayed"), null);
    });
  });

  describe("in progress", () => {
    it("a twin sent while the first request runs waits inFlightWaitMs, then gets 409 idempotency_in_progress with Retry-After: 1; later the key replays", async () => {
      const key = newKey();
      const body = quoteBody();
      const hold = await holdKey(t, key);
      const first = widget.post("/offers/quote", body, { idempotencyKey: key });
      try {
        await hold.untilBlocked();
        const sentAt = performance.now();
        const twin = widget.post("/offers/quote", body, { idempotencyKey: key });
        if (dialect === "postgres") {
          // The first request may wait on the lock for less than inFlightWaitMs only; release it now and keep it
          // busy (synchronously, as a slow handler would) past the twin's wait.
          await sleep(IN_FLIGHT_WAIT_MS / 3);
          hook = () => {
            hook = undefined;
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, IN_FLIGHT_WAIT_MS * 2);
          };
          await hold.release();
        }
        const twinResponse = await within(twin, 5_000, "the twin was not answered while the first request ran");
        const waited = performance.now() - sentAt;
        assertError(twinResponse, { status: 409, code: "idempotency_in_progress", param: null });
        assert.equal(twinResponse.headers.get("retry-after"), "1");
        assert.ok(waited >= IN_FLIGHT_WAIT_MS - 10, `the twin waited ${waited} ms for the first request`);
      } finally {
        await hold.release();
      }
      const firstResponse = await first;
      assert.equal(firstResponse.status, 200, firstResponse.text);
      assert.equal(firstResponse.headers.get("idempotent-replayed"), null);

      const retry = await widget.post("/offers/quote", body, { idempotencyKey: key });
      assert.equal(retry.status, 200);
      assert.equal(retry.headers.get("idempotent-replayed"), "true");
      assert.equal(retry.text, firstResponse.text);
      assert.equal(retry.headers.get("x-service-quote-token"), firstResponse.headers.get("x-service-quote-token"));
      assert.equal(await quotesOf(body.order_id), 1);
    });

    // One process owns a SQLite database: there is no other server process to hold the key.
    it.skipIf(dialect === "sqlite")(
      "a twin in another server process holding the key: 409 idempotency_in_progress after the lock wait, nothing created; the key works once it is released",
      async () => {
        const key = newKey();
        const body = quoteBody();
        const hold = await holdKey(t, key);
        try {
          const blocked = await assertChangesNothing(t.database.db, () =>
            widget.post("/offers/quote", body, { idempotencyKey: key }),
          );
          assertError(blocked, { status: 409, code: "idempotency_in_progress", param: null });
          assert.equal(blocked.headers.get("retry-after"), "1");
        } finally {
          await hold.release();
        }
        const retry = await widget.post("/offers/quote", body, { idempotencyKey: key });
        assert.equal(retry.status, 200, retry.text);
        assert.equal(retry.headers.get("idempotent-replayed"), null);
        assert.equal(await quotesOf(body.order_id), 1);
      },
    );
  });

  describe("faults", () => {
    const failOnce = () => {
      hook = () => {
        hook = undefined;
        throw new Error("injected fault after the side effects");
      };
    };

    it("a fault after the quote was written is 500 api_error and leaves nothing (no quote, no record); the retry runs afresh", async () => {
      const key = newKey();
      const body = quoteBody();
      failOnce();
      const failed = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/quote", body, { idempotencyKey: key }),
      );
      assertError(failed, { status: 500, code: "internal_error", param: null });
      assert.equal(failed.headers.get("x-service-quote-token"), null);

      const retry = await widget.post("/offers/quote", body, { idempotencyKey: key });
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.headers.get("idempotent-replayed"), null, "a 5xx is not stored, so the retry is not a replay");
      assert.equal(await quotesOf(body.order_id), 1);
    });

    it("a fault after a confirm's side effects leaves no plan, order, event or record; the retry with the same key confirms", async () => {
      const { quote, token } = await createQuote(secret, t.merchant.programId);
      const key = newKey();
      failOnce();
      const failed = await assertChangesNothing(t.database.db, () =>
        secret.post("/offers/confirm", confirmBody(quote, token), { idempotencyKey: key }),
      );
      assertError(failed, { status: 500, code: "internal_error", param: null });
      const row = await t.database.db.get<{ status: string }>("SELECT status FROM quotes WHERE id = ?", [
        quote.quoteId,
      ]);
      assert.equal(row!.status, "open");

      const before = await rowCounts(t.database.db);
      const retry = await secret.post("/offers/confirm", confirmBody(quote, token), { idempotencyKey: key });
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.headers.get("idempotent-replayed"), null);
      assert.deepEqual(await rowCounts(t.database.db), {
        ...before,
        plans: before.plans + 1,
        orders: before.orders + 1,
        events: before.events + 1,
        email_messages: before.email_messages + 1,
        idempotency_records: before.idempotency_records + 1,
      });
    });
  });
});
