// `npm run demo`'s closed statements (docs/api.md "Settlement"): two past periods of the demo store's trading — orders, a
// refund report, a paid claim — stamped inside them and closed by the worker's own function, once; and the open
// period's running balance beside them.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import pino from "pino";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { ensureDemoStatements } from "../../server/demo-merchant.ts";
import { getSettlement, listSettlements, periodContaining, runningBalances } from "../../server/domain/settlements.ts";

const TABLES = ["plans", "claims", "ledger_entries", "settlement_statements", "staff_accounts"];

describe.each(DIALECTS)("the demo's closed statements (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t?.close());

  it("seeds two closed weekly statements of the two weeks before this one, once, and leaves this week open", async () => {
    const runtime = {
      db: t.database.db,
      services: t.services,
      encryptionKey: t.encryptionKey,
      logger: pino({ level: "silent" }),
    };
    const actor = { merchantId: t.merchant.merchantId, mode: "test" as const };
    const started = Date.now();
    await ensureDemoStatements(runtime, t.merchant);
    assert.ok(Date.now() - started < 5_000, "fast enough for every demo start");

    const statements = (await listSettlements(t.database.db, actor, { limit: 10 })).data;
    const thisWeek = periodContaining("weekly", t.clock.now);
    assert.deepEqual(
      statements.map((s) => [s.periodStart, s.periodEnd]),
      [1, 2].map((weeksAgo) => [
        new Date(thisWeek.start - weeksAgo * 7 * 86_400_000).toISOString(),
        new Date(thisWeek.start - (weeksAgo - 1) * 7 * 86_400_000).toISOString(),
      ]),
      "the last two weeks, newest first",
    );
    const [last, beforeLast] = await Promise.all(statements.map((s) => getSettlement(t.database.db, actor, s.id)));
    assert.deepEqual(
      [...new Set(beforeLast.entries.map((e) => e.kind))].sort(),
      ["fee_collected", "merchant_fee_share"],
      "two orders protected",
    );
    assert.equal(beforeLast.entries.length, 4);
    assert.deepEqual(
      last.entries.map((e) => e.kind).sort(),
      ["claim_reimbursement", "fee_collected", "merchant_fee_share", "merchant_refund_credit"],
      "an order, a refund report and a paid claim",
    );
    assert.equal(last.openingBalanceCents, beforeLast.closingBalanceCents);
    for (const statement of [last, beforeLast])
      for (const entry of statement.entries) {
        assert.ok(entry.createdAt >= statement.periodStart && entry.createdAt < statement.periodEnd, "stamped inside");
        assert.equal(entry.lateFrom, null);
      }
    // Nothing is open yet: the balance carries the last closing balance.
    const [balance] = await runningBalances(t.database.db, actor, t.clock.now);
    assert.equal(balance.balanceCents, last.closingBalanceCents);
    assert.equal(balance.entryCount, 0);

    // A restart (the next day, too) writes nothing.
    const before = await rowCounts(t.database.db, TABLES);
    t.clock.advance(86_400_000);
    await ensureDemoStatements(runtime, t.merchant);
    assert.deepEqual(await rowCounts(t.database.db, TABLES), before);
  });
});
