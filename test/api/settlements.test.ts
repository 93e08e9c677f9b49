import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrderHeadless, type ApiClient } from "../support/protection-flows.ts";
import { signedInBuyer } from "../support/portal.ts";
import { closeEndedPeriods, SETTLEMENT_GRACE_MS } from "../../server/domain/settlements.ts";
import { applyBps } from "../../server/domain/money.ts";
import { DEFAULT_PROGRAM } from "../../server/domain/programs.ts";
import { ProtectionClient } from "../../packages/sdk/src/index.ts";

// README "Settlement": the ledger entries of confirm and the refund report, statements closed by the worker, and
// GET /settlements, /settlements/{id} and its CSV.

describe.each(DIALECTS)("settlement statements (%s)", (dialect) => {
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

    const csv = await fetch(`${t.baseUrl}/settlements/${statement.id}/entries.csv`, {
      headers: { Authorization: `Bearer ${t.merchant.secretKey}` },
    });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8");
    const lines = (await csv.text()).split("\r\n");
    assert.equal(lines[0], "entry_id,created_at,kind,amount_cents,currency,source_id,plan_id");
    assert.equal(lines.at(-1), "", "every line ends with CRLF");
    const rows = lines.slice(1, -1).map((line) => line.split(","));
    assert.equal(rows.length, 5);
    assert.equal(
      rows.reduce((sum, row) => sum + Number(row[3]), 0),
      net,
    );

    // The SDK lists and retrieves them.
    const sdk = new ProtectionClient({ apiKey: t.merchant.secretKey, baseUrl: t.baseUrl });
    assert.equal((await sdk.settlements.list()).data[0].id, statement.id);
    assert.equal((await sdk.settlements.retrieve(statement.id)).entries.length, 5);

    // Another merchant's key: not its statement; a publishable key: refused.
    const other = await t.createMerchant();
    const otherSecret = apiClient(t.baseUrl, other.secretKey);
    assert.deepEqual((await otherSecret.get("/settlements")).body.data, []);
    assert.equal((await otherSecret.get(`/settlements/${statement.id}`)).status, 404);
    const csvOther = await fetch(`${t.baseUrl}/settlements/${statement.id}/entries.csv`, {
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
    const confirm = await secret.post("/headless/confirm", { quote_id: second.body.quote_id });
    assert.equal(confirm.status, 409, confirm.text);
    assert.equal(await ledgerCount(), before, "order_already_protected writes no entry");
    assert.equal((await secret.post(`/orders/${quote.order_id}/refund`, {})).status, 200);
    assert.equal(await ledgerCount(), before + 1);
    assert.equal((await secret.post(`/orders/${quote.order_id}/refund`, {})).status, 409);
    assert.equal(await ledgerCount(), before + 1);
  });

  it("bad input: an unknown statement is 404, an unknown query field 400", async () => {
    assert.equal((await secret.get("/settlements/stmt_nope")).status, 404);
    assert.equal((await secret.get("/settlements?colour=red")).status, 400);
    assert.equal((await secret.get("/settlements?limit=0")).status, 400);
  });
});
