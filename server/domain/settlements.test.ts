import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../../test/support/databases.ts";
import { cryptoRandom } from "./ids.ts";
import type { Services } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { appendLedgerEntry } from "./ledger.ts";
import { closeEndedPeriods, periodContaining, SETTLEMENT_GRACE_MS, totalsOf } from "./settlements.ts";
import { listLedgerEntries } from "../store/ledger.ts";

const at = (text: string) => Date.parse(text);

describe("settlement periods (UTC)", () => {
  it("a week runs Monday 00:00 to the next Monday 00:00 UTC, whatever day and hour `at` is", () => {
    const week = { start: at("2026-11-16T00:00:00.000Z"), end: at("2026-11-23T00:00:00.000Z") };
    assert.deepEqual(periodContaining("weekly", week.start), week, "Monday 00:00 is its own week's start");
    assert.deepEqual(periodContaining("weekly", at("2026-11-18T13:14:15.000Z")), week);
    assert.deepEqual(periodContaining("weekly", at("2026-11-22T23:59:59.999Z")), week, "Sunday's last ms");
    assert.deepEqual(periodContaining("weekly", week.end), {
      start: week.end,
      end: at("2026-11-30T00:00:00.000Z"),
    });
    // Across a year's end and a leap day.
    assert.deepEqual(periodContaining("weekly", at("2027-01-01T10:00:00.000Z")), {
      start: at("2026-12-28T00:00:00.000Z"),
      end: at("2027-01-04T00:00:00.000Z"),
    });
    assert.deepEqual(periodContaining("weekly", at("2028-02-29T00:00:00.000Z")), {
      start: at("2028-02-28T00:00:00.000Z"),
      end: at("2028-03-06T00:00:00.000Z"),
    });
  });

  it("a month runs from its first day 00:00 UTC to the next month's, December into January, February 29 in a leap year", () => {
    assert.deepEqual(periodContaining("monthly", at("2026-11-30T23:59:59.999Z")), {
      start: at("2026-11-01T00:00:00.000Z"),
      end: at("2026-12-01T00:00:00.000Z"),
    });
    assert.deepEqual(periodContaining("monthly", at("2026-12-15T00:00:00.000Z")), {
      start: at("2026-12-01T00:00:00.000Z"),
      end: at("2027-01-01T00:00:00.000Z"),
    });
    assert.deepEqual(periodContaining("monthly", at("2028-02-29T12:00:00.000Z")), {
      start: at("2028-02-01T00:00:00.000Z"),
      end: at("2028-03-01T00:00:00.000Z"),
    });
  });

  it("totals list every kind, zero where none, and sum to the net", () => {
    const { totals, net } = totalsOf([
      { kind: "fee_collected", amountCents: -500 },
      { kind: "merchant_fee_share", amountCents: 100 },
      { kind: "fee_collected", amountCents: -300 },
    ]);
    assert.deepEqual(totals, {
      fee_collected: -800,
      merchant_fee_share: 100,
      merchant_paid_fee: 0,
      fee_refunded: 0,
      merchant_refund_credit: 0,
      claim_reimbursement: 0,
      correction: 0,
    });
    assert.equal(net, -700);
  });
});

describe("ledger and statements (sqlite)", () => {
  let database: TestDatabase;
  let now = at("2026-11-18T12:00:00.000Z");
  const services: Services = {
    clock: () => now,
    random: cryptoRandom,
    settings: { companyName: "Guarantor Inc.", portalUrl: "https://portal.example" },
  };
  const shop: Actor = { merchantId: "mer_ledger", mode: "test" };

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(() => database.drop());

  const statements = () =>
    database.db.all<{
      period_start: number;
      opening_balance_cents: number;
      net_cents: number;
      closing_balance_cents: number;
      entry_count: number;
      created_at: number;
    }>(
      "SELECT period_start, opening_balance_cents, net_cents, closing_balance_cents, entry_count, created_at FROM settlement_statements WHERE merchant_id = ? ORDER BY period_start",
      [shop.merchantId],
    );

  it("an entry is written once per (kind, source): a retried cause adds nothing", async () => {
    const entry = {
      kind: "fee_collected",
      amountCents: -450,
      currency: "USD",
      sourceId: "plan_x",
      planId: "plan_x",
    } as const;
    assert.equal(await database.db.transaction((tx) => appendLedgerEntry(tx, services, shop, entry)), true);
    assert.equal(
      await database.db.transaction((tx) => appendLedgerEntry(tx, services, shop, { ...entry, amountCents: -999 })),
      false,
    );
    assert.equal(
      await database.db.transaction((tx) =>
        appendLedgerEntry(tx, services, shop, { ...entry, kind: "merchant_fee_share", amountCents: 90 }),
      ),
      true,
      "another kind for the same source is another movement",
    );
    const entries = await database.db.transaction((tx) => listLedgerEntries(tx, shop));
    assert.deepEqual(entries.map((e) => [e.kind, e.amountCents]).sort(), [
      ["fee_collected", -450],
      ["merchant_fee_share", 90],
    ]);
  });

  it("periods close only after they end (plus the grace), chain their balances, and a closed statement never changes", async () => {
    // The week of 2026-11-16 holds the two entries above; nothing closes before its end + grace.
    now = at("2026-11-23T00:00:00.000Z") + SETTLEMENT_GRACE_MS - 1;
    assert.equal(await closeEndedPeriods(database.db, services), 0);
    assert.deepEqual(await statements(), []);
    now += 1;
    assert.equal(await closeEndedPeriods(database.db, services), 1);
    const [first] = await statements();
    assert.deepEqual(
      [
        Number(first.period_start),
        first.opening_balance_cents,
        first.net_cents,
        first.closing_balance_cents,
        first.entry_count,
      ],
      [at("2026-11-16T00:00:00.000Z"), 0, -360, -360, 2],
    );
    // A late correction stamped in the next week, two weeks on: one statement per week, the empty one too.
    await database.db.transaction((tx) =>
      appendLedgerEntry(tx, services, shop, {
        kind: "correction",
        amountCents: 60,
        currency: "USD",
        sourceId: "fix-1",
      }),
    );
    now = at("2026-12-07T01:00:00.000Z");
    assert.equal(await closeEndedPeriods(database.db, services), 2);
    assert.equal(await closeEndedPeriods(database.db, services), 0, "idempotent");
    const rows = await statements();
    assert.deepEqual(
      rows.map((r) => [
        new Date(Number(r.period_start)).toISOString(),
        r.opening_balance_cents,
        r.net_cents,
        r.closing_balance_cents,
      ]),
      [
        ["2026-11-16T00:00:00.000Z", 0, -360, -360],
        ["2026-11-23T00:00:00.000Z", -360, 60, -300],
        ["2026-11-30T00:00:00.000Z", -300, 0, -300],
      ],
    );
    assert.deepEqual(rows[0], first, "the first statement is unchanged");
  });

  it("a monthly program's statements cover calendar months", async () => {
    const monthly: Actor = { merchantId: "mer_monthly", mode: "live" };
    await database.db.run(
      `INSERT INTO protection_programs (id, merchant_id, mode, name, rate_bps, merchant_share_bps, currencies, currency_limits, settlement_period, created_at)
       VALUES ('prog_m', 'mer_monthly', 'live', 'M', 300, 2000, '["EUR"]', '{"EUR":{"minFeeCents":100,"maxCoveredCents":100000}}', 'monthly', 0)`,
    );
    now = at("2026-12-10T00:00:00.000Z");
    await database.db.transaction((tx) =>
      appendLedgerEntry(tx, services, monthly, {
        kind: "fee_collected",
        amountCents: -100,
        currency: "EUR",
        sourceId: "plan_m",
      }),
    );
    now = at("2027-01-01T00:00:00.000Z") + SETTLEMENT_GRACE_MS;
    await closeEndedPeriods(database.db, services);
    const rows = await database.db.all<{ period_start: number; period_end: number; net_cents: number }>(
      "SELECT period_start, period_end, net_cents FROM settlement_statements WHERE merchant_id = 'mer_monthly'",
    );
    assert.deepEqual(
      rows.map((r) => [Number(r.period_start), Number(r.period_end), r.net_cents]),
      [[at("2026-12-01T00:00:00.000Z"), at("2027-01-01T00:00:00.000Z"), -100]],
    );
  });
});
