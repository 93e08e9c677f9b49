// docs/api.md "The running balance": the open period's balance per currency is what its statement closes with. For any
// sequence of confirms, refund reports, paid claims, late entries (stamped in a period already closed), closing runs
// and the passing of time, the balance read just before the period closes equals the statements that close it: the
// totals by kind, the entry count and the closing balance; and the balance is at every moment the ledger's sum.
import { it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fc from "fast-check";
import { describeEachDialectInOrder } from "../support/dialect-suites.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrderHeadless } from "../support/protection-flows.ts";
import {
  closeEndedPeriods,
  findLateEntries,
  listSettlements,
  runningBalances,
  SETTLEMENT_GRACE_MS,
} from "../../server/domain/settlements.ts";
import { appendLedgerEntry, LEDGER_KINDS } from "../../server/domain/ledger.ts";
import { applyBps } from "../../server/domain/money.ts";
import { DEFAULT_PROGRAM } from "../../server/domain/programs.ts";
import { ProtectionClient } from "../../packages/sdk/src/index.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

const command = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("confirm" as const), amount: fc.integer({ min: 1_000, max: 90_000 }) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("refund" as const), index: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("claimPaid" as const), amount: fc.integer({ min: 1, max: 50_000 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 5 * DAY_MS }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("late" as const),
      agoMs: fc.integer({ min: 0, max: 15 * DAY_MS }),
      amount: fc.integer({ min: -5_000, max: 5_000 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ op: "close" as const }) },
);

describeEachDialectInOrder("the running balance (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
  });
  afterAll(() => t.close());

  it("a week's confirm, refund report, paid claim and late entry: each line, which way, when it closes", async () => {
    const merchant = await t.createMerchant();
    const secret = apiClient(t.baseUrl, merchant.secretKey);
    const owner = { merchantId: merchant.merchantId, mode: "test" as const };
    assert.deepEqual(await runningBalances(t.database.db, owner, t.clock.now), [], "no money, no balance");

    // The test clock is Sunday 2026-11-22 12:00 UTC: the week of Monday 2026-11-16, closed on the 23rd at 00:15.
    const first = await protectOrderHeadless(secret, merchant.programId, { order_amount_cents: 10_000 });
    t.clock.now = Date.parse("2026-11-23T00:00:00.000Z") + SETTLEMENT_GRACE_MS;
    assert.equal(await closeEndedPeriods(t.database.db, t.services), 1);
    const kept = await protectOrderHeadless(secret, merchant.programId, { order_amount_cents: 20_000 });
    const refunded = await protectOrderHeadless(secret, merchant.programId, { order_amount_cents: 30_000 });
    assert.equal((await secret.post(`/orders/${refunded.quote.order_id}/refund`, {})).status, 200);
    await t.database.db.transaction(async (tx) => {
      await appendLedgerEntry(tx, t.services, owner, {
        kind: "claim_reimbursement",
        amountCents: 4_500,
        currency: "USD",
        sourceId: `clm_balance_${merchant.merchantId}`,
      });
      // Stamped on the 20th, in the week already closed: late, on the next statement.
      await appendLedgerEntry(tx, { ...t.services, clock: () => Date.parse("2026-11-20T10:00:00.000Z") }, owner, {
        kind: "correction",
        amountCents: -250,
        currency: "USD",
        sourceId: `late_balance_${merchant.merchantId}`,
      });
    });

    const [closed] = (await listSettlements(t.database.db, owner, { limit: 1 })).data;
    const fees = [kept, refunded].map((order) => order.quote.fee_cents as number);
    const share = (fee: number) => applyBps(fee, DEFAULT_PROGRAM.merchantShareBps);
    const totals = {
      fee_collected: -(fees[0] + fees[1]),
      merchant_fee_share: share(fees[0]) + share(fees[1]),
      merchant_paid_fee: 0,
      fee_refunded: 0,
      merchant_refund_credit: share(fees[1]),
      claim_reimbursement: 4_500,
      correction: -250,
    };
    const net = Object.values(totals).reduce((a, b) => a + b, 0);
    const [balance] = await runningBalances(t.database.db, owner, t.clock.now);
    assert.equal(
      closed.closingBalanceCents,
      -(first.quote.fee_cents as number) + share(first.quote.fee_cents as number),
    );
    assert.deepEqual(balance, {
      object: "settlement_balance",
      currency: "USD",
      periodStart: "2026-11-23T00:00:00.000Z",
      periodEnd: "2026-11-30T00:00:00.000Z",
      period: "weekly",
      closesAt: "2026-11-30T00:15:00.000Z",
      openingBalanceCents: closed.closingBalanceCents,
      totals,
      netCents: net,
      balanceCents: closed.closingBalanceCents + net,
      direction: closed.closingBalanceCents + net > 0 ? "payable_to_merchant" : "payable_by_merchant",
      entryCount: 7,
      lateEntries: { count: 1, amountCents: -250 },
      merchantShareBps: DEFAULT_PROGRAM.merchantShareBps,
      livemode: false,
    });
    // Live mode's and another merchant's money are not in it.
    assert.deepEqual(await runningBalances(t.database.db, { ...owner, mode: "live" }, t.clock.now), []);
    const other = await t.createMerchant();
    assert.deepEqual(
      await runningBalances(t.database.db, { merchantId: other.merchantId, mode: "test" }, t.clock.now),
      [],
    );

    // The statement that closes the week is the balance.
    t.clock.now = Date.parse("2026-11-30T00:00:00.000Z") + SETTLEMENT_GRACE_MS;
    assert.equal(await closeEndedPeriods(t.database.db, t.services), 1);
    const [next] = (await listSettlements(t.database.db, owner, { limit: 1 })).data;
    assert.deepEqual(
      [next.totals, next.netCents, next.closingBalanceCents, next.entryCount],
      [balance.totals, balance.netCents, balance.balanceCents, balance.entryCount],
    );
  });

  it("GET /settlements/balance answers the balances (secret key; the SDK's settlements.balance()), never with a publishable key", async () => {
    const merchant = await t.createMerchant();
    const secret = apiClient(t.baseUrl, merchant.secretKey);
    const owner = { merchantId: merchant.merchantId, mode: "test" as const };
    assert.deepEqual((await secret.get("/settlements/balance")).body, { object: "list", data: [] });
    await protectOrderHeadless(secret, merchant.programId, { order_amount_cents: 12_999 });
    const answer = await secret.get("/settlements/balance");
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body, {
      object: "list",
      data: await runningBalances(t.database.db, owner, t.clock.now),
    });
    assert.equal(answer.body.data.length, 1);
    const sdk = new ProtectionClient({ apiKey: merchant.secretKey, baseUrl: t.baseUrl, fetch: t.fetch });
    assert.deepEqual(await sdk.settlements.balance(), answer.body);
    const publishable = await apiClient(t.baseUrl, merchant.publishableKey).get("/settlements/balance");
    assert.equal(publishable.status, 403, publishable.text);
  });

  it("for any sequence, the balance read before the period closes is what its statements close with", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 10 }), async (commands) => {
        const merchant = await t.createMerchant();
        const secret = apiClient(t.baseUrl, merchant.secretKey);
        const owner = { merchantId: merchant.merchantId, mode: "test" as const };
        const orders: string[] = [];
        let counter = 0;
        const ledgerSum = async () =>
          Number(
            (
              await t.database.db.get<{ n: number | string | null }>(
                "SELECT SUM(amount_cents) AS n FROM ledger_entries WHERE merchant_id = ?",
                [merchant.merchantId],
              )
            )?.n ?? 0,
          );
        for (const step of commands) {
          if (step.op === "confirm") {
            const { quote } = await protectOrderHeadless(secret, merchant.programId, {
              order_amount_cents: step.amount,
            });
            orders.push(quote.order_id as string);
          } else if (step.op === "refund" && orders.length > 0) {
            const report = await secret.post(`/orders/${orders[step.index % orders.length]}/refund`, {});
            assert.ok([200, 409].includes(report.status), report.text);
          } else if (step.op === "claimPaid") {
            await t.database.db.transaction((tx) =>
              appendLedgerEntry(tx, t.services, owner, {
                kind: "claim_reimbursement",
                amountCents: step.amount,
                currency: "USD",
                sourceId: `clm_balance_${merchant.merchantId}_${counter++}`,
              }),
            );
          } else if (step.op === "wait") t.clock.advance(step.ms);
          else if (step.op === "late") {
            const stampedAt = t.clock.now - step.agoMs;
            await t.database.db.transaction((tx) =>
              appendLedgerEntry(tx, { ...t.services, clock: () => stampedAt }, owner, {
                kind: "correction",
                amountCents: step.amount,
                currency: "USD",
                sourceId: `late_balance_${merchant.merchantId}_${counter++}`,
              }),
            );
          } else if (step.op === "close") await closeEndedPeriods(t.database.db, t.services);

          const balances = await runningBalances(t.database.db, owner, t.clock.now);
          const sum = await ledgerSum();
          assert.deepEqual(
            balances.map((b) => b.balanceCents),
            balances.length === 0 ? [] : [sum],
            "the balance is the ledger's sum",
          );
          const late = (await findLateEntries(t.database.db)).filter((e) => e.merchantId === merchant.merchantId);
          if (balances.length > 0)
            assert.deepEqual(balances[0].lateEntries, {
              count: late.length,
              amountCents: late.reduce((cents, e) => cents + e.amountCents, 0),
            });
        }
        const [balance] = await runningBalances(t.database.db, owner, t.clock.now);
        if (!balance) return;
        const before = (await listSettlements(t.database.db, owner, { limit: 100 })).data;
        t.clock.now = Date.parse(balance.closesAt);
        await closeEndedPeriods(t.database.db, t.services);
        const after = (await listSettlements(t.database.db, owner, { limit: 100 })).data;
        const closedNow = after.filter((s) => !before.some((b) => b.id === s.id));
        assert.ok(closedNow.length >= 1, "the open period closes at closesAt");
        assert.equal(closedNow[0].periodEnd, balance.periodEnd, "the newest statement ends where the balance said");
        assert.equal(closedNow[0].closingBalanceCents, balance.balanceCents);
        assert.equal(
          closedNow.reduce((n, s) => n + s.entryCount, 0),
          balance.entryCount,
        );
        for (const kind of LEDGER_KINDS)
          assert.equal(
            closedNow.reduce((cents, s) => cents + s.totals[kind], 0),
            balance.totals[kind],
            `totals of ${kind}`,
          );
        const [reopened] = await runningBalances(t.database.db, owner, t.clock.now);
        assert.deepEqual(
          [reopened.openingBalanceCents, reopened.netCents, reopened.balanceCents, reopened.entryCount],
          [balance.balanceCents, 0, balance.balanceCents, 0],
          "the next period opens with the closing balance",
        );
      }),
      { numRuns: dialect === "sqlite" ? 25 : 10 },
    );
  });
});
