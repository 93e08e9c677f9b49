import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { createProgram, DEFAULT_PROGRAM } from "../../server/domain/programs.ts";
import { mintApiKey } from "../../server/domain/merchants.ts";

// GET /programs and /programs/{id} (docs/api.md "Programs"): the ids quotes name as protection_program_id, with their
// terms, for the key's merchant and mode only.

describe.each(DIALECTS)("programs API (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  it("lists the merchant's programs newest first, as other lists, each with its terms; reads one", async () => {
    const merchant = await t.createMerchant("Programs Store");
    const secret = apiClient(t.baseUrl, merchant.secretKey);
    t.clock.advance(1000); // ids of one millisecond have no order
    const second = await t.database.db.transaction((tx) =>
      createProgram(
        tx,
        t.services,
        { merchantId: merchant.merchantId, mode: "test" },
        {
          ...DEFAULT_PROGRAM,
          name: "Fragile goods",
          rateBps: 450,
          currencies: ["EUR"],
          productCategories: ["ceramics"],
        },
      ),
    );
    // A program quotes may no longer name is still listed, marked inactive.
    await t.database.db.run("UPDATE protection_programs SET active = FALSE WHERE id = ?", [second]);

    const all = await secret.get("/programs");
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(Object.keys(all.body).sort(), ["data", "has_more", "next_cursor", "object"]);
    assert.equal(all.body.object, "list");
    assert.deepEqual(
      all.body.data.map((program: { id: string }) => program.id),
      [second, merchant.programId],
    );
    const [fragile, first] = all.body.data;
    assert.deepEqual(first, {
      id: merchant.programId,
      object: "protection_program",
      name: DEFAULT_PROGRAM.name,
      active: true,
      rateBps: DEFAULT_PROGRAM.rateBps,
      // Deprecated: the limits of the program's first currency, USD.
      minFeeCents: 100,
      maxCoveredCents: 500_000,
      merchantShareBps: DEFAULT_PROGRAM.merchantShareBps,
      currencies: DEFAULT_PROGRAM.currencies,
      currencyLimits: DEFAULT_PROGRAM.currencyLimits,
      productCategories: [],
      settlementPeriod: "weekly",
      payer: "buyer",
      buyerShareBps: null,
      livemode: false,
      createdAt: first.createdAt,
    });
    assert.match(first.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(fragile.active, false);
    assert.equal(fragile.rateBps, 450);
    assert.deepEqual(fragile.currencies, ["EUR"]);
    assert.deepEqual(fragile.currencyLimits, { EUR: { minFeeCents: 100, maxCoveredCents: 500_000 } });
    assert.deepEqual([fragile.minFeeCents, fragile.maxCoveredCents], [100, 500_000]);
    assert.deepEqual(fragile.productCategories, ["ceramics"]);

    // Pages as every list: limit and starting_after.
    const page1 = await secret.get("/programs?limit=1");
    assert.deepEqual(
      {
        ids: page1.body.data.map((p: { id: string }) => p.id),
        more: page1.body.has_more,
        next: page1.body.next_cursor,
      },
      { ids: [second], more: true, next: second },
    );
    const page2 = await secret.get(`/programs?limit=1&starting_after=${second}`);
    assert.deepEqual(
      {
        ids: page2.body.data.map((p: { id: string }) => p.id),
        more: page2.body.has_more,
        next: page2.body.next_cursor,
      },
      { ids: [merchant.programId], more: false, next: null },
    );
    assertError(await secret.get("/programs?limit=0"), { status: 400, code: "parameter_invalid", param: "limit" });

    const one = await secret.get(`/programs/${merchant.programId}`);
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, first);
  });

  it("another merchant's program, or another mode's, is 404 as an unknown id; a widget key is refused", async () => {
    const mine = await t.createMerchant("Mine");
    const theirs = await t.createMerchant("Theirs");
    const secret = apiClient(t.baseUrl, mine.secretKey);
    for (const id of [theirs.programId, "prog_unknown"])
      assertError(await secret.get(`/programs/${id}`), { status: 404, code: "resource_missing" });
    assert.ok(
      !(await secret.get("/programs")).body.data.some((p: { id: string }) => p.id === theirs.programId),
      "not listed",
    );

    // A live program is not the test key's.
    const liveProgram = await t.database.db.transaction((tx) =>
      createProgram(tx, t.services, { merchantId: mine.merchantId, mode: "live" }),
    );
    assertError(await secret.get(`/programs/${liveProgram}`), { status: 404, code: "resource_missing" });
    assert.deepEqual(
      (await secret.get("/programs")).body.data.map((p: { id: string }) => p.id),
      [mine.programId],
    );

    // Reading terms moves no money: a restricted key may; a publishable key (on every checkout page) may not.
    const restricted = await t.database.db.transaction((tx) =>
      mintApiKey(tx, t.services, { merchantId: mine.merchantId, mode: "test" }, "restricted"),
    );
    assert.equal((await apiClient(t.baseUrl, restricted.key).get(`/programs/${mine.programId}`)).status, 200);
    const widget = apiClient(t.baseUrl, mine.publishableKey);
    for (const path of ["/programs", `/programs/${mine.programId}`])
      assertError(await assertChangesNothing(t.database.db, () => widget.get(path)), {
        status: 403,
        code: "secret_key_required",
      });
  });
});
