import { it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { describeEachDialectInOrder } from "../support/dialect-suites.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrderHeadless, type ApiClient } from "../support/protection-flows.ts";
import { signedInBuyer } from "../support/portal.ts";
import {
  closeEndedPeriods,
  findLateEntries,
  findStatementMismatches,
  periodContaining,
  SETTLEMENT_GRACE_MS,
} from "../../server/domain/settlements.ts";
import { appendLedgerEntry } from "../../server/domain/ledger.ts";
import { closeAndCheckSettlements } from "../../server/workers/background-jobs.ts";
import { capturedLogger } from "../support/logger.ts";
import { applyBps } from "../../server/domain/money.ts";
import { DEFAULT_PROGRAM } from "../../server/domain/programs.ts";
import { ProtectionClient } from "../../packages/sdk/src/index.ts";

// docs/api.md "Settlement": the ledger entries of confirm and the refund report, statements closed by the worker, and
// GET /settlements, /settlements/{id} and its CSV.

describeEachDialectInOrder("settlement statements (%s)", (dialect) => {
  let t: TestApi;
  let secret: ApiClient;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
  });
  afterAll(() => t.close());

  it("a week's confirms and refund report appear on its statement: totals by kind, net, CSV one row per entry; other keys see nothing", async () => {
    // The test clock starts on Sunday 2026-11-22 12:00 UTC: the week of Monday 2026-11-16.
    const kept = await protectOrderHeadless(secret, t.merchant.programId, { order_amount_cents: 10_000 });
    const refunded = await protectOrderHeadless(secret, t.merchant.programId, { order_amount_cents: 20_000 });
    const report = await secret.post(`/orders/${refunded.quote.order_id}/refund`, {});
    assert.equal(report.status, 200, report.text);

    assert.deepEqual((await secret.get("/settlements")).body.data, [], "nothing is closed before the week ends");
    t.clock.now = Date.parse("2026-11-23T00:00:00.000Z") + SETTLEMENT_GRACE_MS;
    assert.equal(await closeEndedPeriods(t.database.db, t.services), 1);

    const list = await secret.get("/settlements");
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.data.length, 1);
    const fees = [kept.quote.fee_cents as number, refunded.quote.fee_cents as number];
    const shares = fees.map((fee) => applyBps(fee, DEFAULT_PROGRAM.merchantShareBps));
    const totals = {
      fee_collected: -(fees[0] + fees[1]),
      merchant_fee_share: shares[0] + shares[1],
      merchant_paid_fee: 0,
      fee_refunded: 0,
      merchant_refund_credit: shares[1],
      claim_reimbursement: 0,
      correction: 0,
    };
    const net = Object.values(totals).reduce((a, b) => a + b, 0);
    const statement = list.body.data[0];
    assert.deepEqual(
      { ...statement, id: undefined, createdAt: undefined },
      {
        id: undefined,
        object: "settlement_statement",
        currency: "USD",
        periodStart: "2026-11-16T00:00:00.000Z",
        periodEnd: "2026-11-23T00:00:00.000Z",
        period: "weekly",
        openingBalanceCents: 0,
        totals,
        netCents: net,
        closingBalanceCents: net,
        direction: net < 0 ? "payable_by_merchant" : "payable_to_merchant",
        entryCount: 5,
        createdAt: undefined,
        livemode: false,
      },
    );

    const one = await secret.get(`/settlements/${statement.id}`);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.entries.length, 5);
    assert.deepEqual(
      one.body.entries.map((e: { kind: string; planId: string }) => `${e.kind}:${e.planId}`).sort(),
      [
        `fee_collected:${kept.confirmation.plan_id}`,
        `fee_collected:${refunded.confirmation.plan_id}`,
        `merchant_fee_share:${kept.confirmation.plan_id}`,
        `merchant_fee_share:${refunded.confirmation.plan_id}`,
        `merchant_refund_credit:${refunded.confirmation.plan_id}`,
      ].sort(),
    );

    const csv = await t.fetch(`${t.baseUrl}/settlements/${statement.id}/entries.csv`, {
      headers: { Authorization: `Bearer ${t.merchant.secretKey}` },
    });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8");
    const lines = (await csv.text()).split("\r\n");
    assert.equal(lines[0], "entry_id,created_at,kind,amount_cents,currency,source_id,plan_id,note");
    assert.equal(lines.at(-1), "", "every line ends with CRLF");
    const rows = lines.slice(1, -1).map((line) => line.split(","));
    assert.equal(rows.length, 5);
    assert.equal(
      rows.reduce((sum, row) => sum + Number(row[3]), 0),
      net,
    );

    // The SDK lists and retrieves them.
    const sdk = new ProtectionClient({ apiKey: t.merchant.secretKey, baseUrl: t.baseUrl, fetch: t.fetch });
    assert.equal((await sdk.settlements.list()).data[0].id, statement.id);
    assert.equal((await sdk.settlements.retrieve(statement.id)).entries.length, 5);

    // Another merchant's key: not its statement; a publishable key: refused.
    const other = await t.createMerchant();
    const otherSecret = apiClient(t.baseUrl, other.secretKey);
    assert.deepEqual((await otherSecret.get("/settlements")).body.data, []);
    assert.equal((await otherSecret.get(`/settlements/${statement.id}`)).status, 404);
    const csvOther = await t.fetch(`${t.baseUrl}/settlements/${statement.id}/entries.csv`, {
      headers: { Authorization: `Bearer ${other.secretKey}` },
    });
    assert.equal(csvOther.status, 404);
    assert.equal((await apiClient(t.baseUrl, t.merchant.publishableKey).get("/settlements")).status, 403);
  });

  it("the next run writes nothing new for a closed week, and the next week opens with its closing balance", async () => {
    const before = await secret.get("/settlements");
    assert.equal(await closeEndedPeriods(t.database.db, t.services), 0);
    t.clock.now = Date.parse("2026-11-30T00:00:00.000Z") + SETTLEMENT_GRACE_MS;
    assert.equal(await closeEndedPeriods(t.database.db, t.services), 1);
    const after = (await secret.get("/settlements")).body.data;
    assert.equal(after.length, 2);
    assert.deepEqual(after[1], before.body.data[0], "the closed statement is unchanged");
    assert.equal(after[0].openingBalanceCents, after[1].closingBalanceCents);
    assert.equal(after[0].entryCount, 0);
  });

  const ledgerOf = (planId: string) =>
    t.database.db.all<{ kind: string; amount_cents: number; source_id: string }>(
      "SELECT kind, amount_cents, source_id FROM ledger_entries WHERE plan_id = ? ORDER BY kind",
      [planId],
    );
  const ledgerCount = async () =>
    Number((await t.database.db.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM ledger_entries"))!.n);

  it("a free-look cancellation gives the fee back and takes the share back, in its transaction", async () => {
    const buyer = await signedInBuyer(t);
    const [collected, share] = [
      (await ledgerOf(buyer.planId)).find((e) => e.kind === "fee_collected")!,
      (await ledgerOf(buyer.planId)).find((e) => e.kind === "merchant_fee_share")!,
    ];
    const cancelled = await buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual(
      (await ledgerOf(buyer.planId)).map((e) => [e.kind, e.amount_cents, e.source_id]),
      [
        ["correction", -share.amount_cents, `fee_share_reversal:${buyer.planId}`],
        ["fee_collected", collected.amount_cents, buyer.planId],
        ["fee_refunded", -collected.amount_cents, buyer.planId],
        ["merchant_fee_share", share.amount_cents, buyer.planId],
      ],
    );
    const before = await ledgerCount();
    const again = await buyer.buyer.post("/portal/cancel", { referenceNumber: buyer.referenceNumber });
    assert.equal(again.status, 409, again.text);
    assert.equal(await ledgerCount(), before, "a refused cancellation writes no entry");
  });

  it("a refused confirm or a second refund report writes no entry", async () => {
    const { quote } = await protectOrderHeadless(secret, t.merchant.programId);
    const before = await ledgerCount();
    const second = await secret.post("/headless/quote", {
      order_amount_cents: 10_000,
      order_id: quote.order_id,
      protection_program_id: t.merchant.programId,
    });
    assert.equal(second.status, 200, second.text);
    const confirm = await secret.post("/headless/confirm", {
      quote_id: second.body.quote_id,
      customer_email: "ada@example.com",
    });
    assert.equal(confirm.status, 409, confirm.text);
    assert.equal(await ledgerCount(), before, "order_already_protected writes no entry");
    assert.equal((await secret.post(`/orders/${quote.order_id}/refund`, {})).status, 200);
    assert.equal(await ledgerCount(), before + 1);
    assert.equal((await secret.post(`/orders/${quote.order_id}/refund`, {})).status, 409);
    assert.equal(await ledgerCount(), before + 1);
  });

  /** The statement as GET /settlements/{id} shows it, and its CSV's bytes. */
  async function readStatement(client: ApiClient, secretKey: string, statementId: string) {
    const statement = await client.get(`/settlements/${statementId}`);
    assert.equal(statement.status, 200, statement.text);
    const csv = await t.fetch(`${t.baseUrl}/settlements/${statementId}/entries.csv`, {
      headers: { Authorization: `Bearer ${secretKey}` },
    });
    assert.equal(csv.status, 200);
    const text = await csv.text();
    const rows = text
      .split("\r\n")
      .slice(1, -1)
      .map((line) => line.split(","));
    assert.equal(
      rows.reduce((sum, row) => sum + Number(row[3]), 0),
      statement.body.netCents,
      "the CSV sums to the statement's net",
    );
    assert.equal(rows.length, statement.body.entryCount);
    return { body: statement.body, csv: text, rows };
  }

  /** Closes the period holding the test clock's now (every account's): moves the clock past its end and the grace. */
  async function closeCurrentPeriod() {
    const { end } = periodContaining("weekly", t.clock.now);
    t.clock.now = end + SETTLEMENT_GRACE_MS;
    await closeEndedPeriods(t.database.db, t.services);
  }

  it("an entry written into a closed period after it closed leaves that statement, its entries and CSV unchanged, and goes onto the next statement, marked late", async () => {
    const merchant = await t.createMerchant();
    const client = apiClient(t.baseUrl, merchant.secretKey);
    const owner = { merchantId: merchant.merchantId, mode: "test" as const };
    await protectOrderHeadless(client, merchant.programId, { order_amount_cents: 12_000 });
    const week = periodContaining("weekly", t.clock.now);
    await closeCurrentPeriod();
    const [closed, ...none] = (await client.get("/settlements")).body.data;
    assert.deepEqual(none, []);
    const before = await readStatement(client, merchant.secretKey, closed.id);

    // Written now, stamped inside the closed week (a transaction that began before its end, a clock step).
    const stampedAt = week.start + 60_000;
    await t.database.db.transaction((tx) =>
      appendLedgerEntry(tx, { ...t.services, clock: () => stampedAt }, owner, {
        kind: "correction",
        amountCents: 1_234,
        currency: "USD",
        sourceId: `late-${merchant.merchantId}`,
      }),
    );
    assert.deepEqual(await readStatement(client, merchant.secretKey, closed.id), before, "the closed statement holds");
    assert.deepEqual((await client.get("/settlements")).body.data, [closed]);
    // Detected: the entry waits in a closed period, and the worker's round says so.
    const waiting = (await findLateEntries(t.database.db)).filter((entry) => entry.merchantId === owner.merchantId);
    assert.deepEqual(
      waiting.map((entry) => [entry.kind, entry.amountCents, entry.createdAt, entry.closedUntil]),
      [["correction", 1_234, new Date(stampedAt).toISOString(), new Date(week.end).toISOString()]],
    );
    const { logger, lines } = capturedLogger();
    assert.equal(await closeAndCheckSettlements(t.database.db, t.services, logger), 0);
    const warning = lines.find((line) => String(line.msg).startsWith("ledger entries written into closed"));
    assert.ok(
      (warning?.entries as { entryId: string }[]).some((entry) => entry.entryId === waiting[0].entryId),
      JSON.stringify(lines),
    );

    // The next statement takes it, marked late, in its totals and its CSV.
    await closeCurrentPeriod();
    const [next, ...earlier] = (await client.get("/settlements")).body.data;
    assert.deepEqual(earlier, [closed]);
    assert.deepEqual(await readStatement(client, merchant.secretKey, closed.id), before, "still unchanged");
    const after = await readStatement(client, merchant.secretKey, next.id);
    assert.equal(after.body.openingBalanceCents, closed.closingBalanceCents);
    assert.equal(after.body.totals.correction, 1_234);
    assert.equal(after.body.netCents, 1_234);
    assert.deepEqual(after.body.entries, [
      {
        id: waiting[0].entryId,
        kind: "correction",
        amountCents: 1_234,
        currency: "USD",
        sourceId: `late-${merchant.merchantId}`,
        planId: null,
        createdAt: new Date(stampedAt).toISOString(),
        lateFrom: {
          statementId: closed.id,
          periodStart: new Date(week.start).toISOString(),
          periodEnd: new Date(week.end).toISOString(),
        },
      },
    ]);
    assert.equal(
      after.rows[0].at(-1),
      `late entry: occurred in ${new Date(week.start).toISOString()}/${new Date(week.end).toISOString()} (closed as ${closed.id})`,
    );
    assert.deepEqual(
      (await findLateEntries(t.database.db)).filter((entry) => entry.merchantId === owner.merchantId),
      [],
    );
    assert.deepEqual(
      (await findStatementMismatches(t.database.db)).filter((mismatch) => mismatch.merchantId === owner.merchantId),
      [],
    );
  });

  it("two closers at once write one statement per period, and every entry is on exactly one", async () => {
    const merchant = await t.createMerchant();
    const client = apiClient(t.baseUrl, merchant.secretKey);
    for (const amount of [5_000, 7_000, 9_000])
      await protectOrderHeadless(client, merchant.programId, { order_amount_cents: amount });
    const { end } = periodContaining("weekly", t.clock.now);
    t.clock.now = end + 7 * 24 * 60 * 60 * 1000 + SETTLEMENT_GRACE_MS;
    const written = await Promise.all([
      closeEndedPeriods(t.database.db, t.services),
      closeEndedPeriods(t.database.db, t.services),
    ]);
    const statements = await t.database.db.all<{ id: string; entry_count: number | string }>(
      "SELECT id, entry_count FROM settlement_statements WHERE merchant_id = ? ORDER BY period_start",
      [merchant.merchantId],
    );
    assert.equal(statements.length, 2, "the week of the confirms and the empty one after it");
    assert.ok(written.reduce((a, b) => a + b, 0) >= 2, `closers wrote ${written}`);
    const bound = await t.database.db.all<{ statement_id: string | null }>(
      "SELECT statement_id FROM ledger_entries WHERE merchant_id = ?",
      [merchant.merchantId],
    );
    assert.equal(bound.length, 6);
    assert.ok(bound.every((entry) => entry.statement_id === statements[0].id));
    assert.deepEqual(
      statements.map((statement) => Number(statement.entry_count)),
      [6, 0],
    );
  });

  it("a bound entry never changes (the database refuses), and a statement that disagrees with its entries is logged as an error when the worker closes", async () => {
    const merchant = await t.createMerchant();
    const client = apiClient(t.baseUrl, merchant.secretKey);
    await protectOrderHeadless(client, merchant.programId);
    await closeCurrentPeriod();
    const entry = (await t.database.db.get<{ id: string; statement_id: string }>(
      "SELECT id, statement_id FROM ledger_entries WHERE merchant_id = ? AND kind = 'fee_collected'",
      [merchant.merchantId],
    ))!;
    for (const change of ["amount_cents = amount_cents + 1", "statement_id = NULL", "statement_id = 'stmt_other'"])
      await assert.rejects(
        t.database.db.run(`UPDATE ledger_entries SET ${change} WHERE id = ?`, [entry.id]),
        /only statement_id changes, once/,
      );
    // A statement row edited behind the service's back: found, and logged at the next close.
    await t.database.db.run("UPDATE settlement_statements SET net_cents = net_cents + 1 WHERE id = ?", [
      entry.statement_id,
    ]);
    const mismatches = await findStatementMismatches(t.database.db);
    assert.deepEqual(
      mismatches.map((mismatch) => mismatch.statementId),
      [entry.statement_id],
    );
    assert.equal(mismatches[0].stored.netCents, mismatches[0].bound.netCents + 1);
    const { logger, lines } = capturedLogger();
    t.clock.advance(7 * 24 * 60 * 60 * 1000);
    assert.ok((await closeAndCheckSettlements(t.database.db, t.services, logger)) >= 1);
    assert.deepEqual(
      lines
        .filter((line) => line.level === 50)
        .map((line) => [line.msg, (line.statement as { statementId: string }).statementId]),
      [["settlement statement disagrees with its ledger entries", entry.statement_id]],
    );
  });

  it("bad input: an unknown statement is 404, an unknown query field 400", async () => {
    assert.equal((await secret.get("/settlements/stmt_nope")).status, 404);
    assert.equal((await secret.get("/settlements?colour=red")).status, 400);
    assert.equal((await secret.get("/settlements?limit=0")).status, 400);
  });
});
