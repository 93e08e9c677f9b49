import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fc from "fast-check";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrderHeadless } from "../support/protection-flows.ts";
import {
  closeEndedPeriods,
  findLateEntries,
  findStatementMismatches,
  SETTLEMENT_GRACE_MS,
} from "../../server/domain/settlements.ts";
import { appendLedgerEntry, LEDGER_KINDS } from "../../server/domain/ledger.ts";
import { cancelInFreeLook } from "../../server/domain/portal.ts";
import { DomainError } from "../../server/domain/errors.ts";

// docs/api.md "Settlement", its invariants: for any sequence of confirms, free-look cancellations, refund reports, paid
// claims, entries stamped in the past (late: possibly in a closed period), closing runs and the passing of time, the
// closed statements sum to the ledger, chain their balances, never change once closed and agree with their bound
// entries, every plan's fee is collected exactly once (and given back at most once), and a refund report never
// refunds the consumer.

const DAY_MS = 24 * 60 * 60 * 1000;

const command = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("confirm" as const), amount: fc.integer({ min: 1_000, max: 90_000 }) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("cancel" as const), index: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("refund" as const), index: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("claimPaid" as const),
      index: fc.nat(),
      amount: fc.integer({ min: 1, max: 50_000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 4 * DAY_MS }) }),
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

describe.each(DIALECTS)("settlement invariants (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
  });
  afterAll(() => t.close());

  it("statements sum to the ledger, each fee appears once, refund reports never refund the consumer", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 10 }), async (commands) => {
        const merchant = await t.createMerchant();
        const secret = apiClient(t.baseUrl, merchant.secretKey);
        const owner = { merchantId: merchant.merchantId, mode: "test" as const };
        const plans: { planId: string; orderId: string; cancelled: boolean; refunded: boolean }[] = [];
        let claims = 0;
        let lateEntries = 0;
        type StatementRow = {
          id: string;
          opening_balance_cents: number;
          net_cents: number;
          closing_balance_cents: number;
          entry_count: number;
          totals: string;
          period_start: number | string;
          period_end: number | string;
        };
        const statementsOf = () =>
          t.database.db.all<StatementRow>(
            "SELECT * FROM settlement_statements WHERE merchant_id = ? ORDER BY period_start",
            [merchant.merchantId],
          );
        // Each statement as first seen, with its API view: later it must be exactly the same.
        const seen = new Map<string, { row: StatementRow; view: unknown }>();
        const remember = async () => {
          for (const row of await statementsOf())
            if (!seen.has(row.id)) seen.set(row.id, { row, view: (await secret.get(`/settlements/${row.id}`)).body });
        };
        for (const step of commands) {
          const plan = plans.length > 0 && "index" in step ? plans[step.index % plans.length] : undefined;
          if (step.op === "confirm") {
            const { quote, confirmation } = await protectOrderHeadless(secret, merchant.programId, {
              order_amount_cents: step.amount,
            });
            plans.push({
              planId: confirmation.plan_id as string,
              orderId: quote.order_id as string,
              cancelled: false,
              refunded: false,
            });
          } else if (step.op === "cancel" && plan) {
            const row = await t.database.db.get<{ reference_number: string }>(
              "SELECT reference_number FROM plans WHERE id = ?",
              [plan.planId],
            );
            const principal = {
              kind: "portal" as const,
              ...owner,
              planId: plan.planId,
              referenceNumber: row!.reference_number,
              sessionId: "pss_property",
            };
            try {
              await t.database.db.transaction((tx) =>
                cancelInFreeLook(tx, t.services, principal, row!.reference_number),
              );
              plan.cancelled = true;
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
            }
          } else if (step.op === "refund" && plan) {
            const report = await secret.post(`/orders/${plan.orderId}/refund`, {});
            if (report.status === 200) {
              assert.equal(report.body.consumerRefundIssued, false);
              plan.refunded = true;
            } else assert.equal(report.status, 409, report.text);
          } else if (step.op === "claimPaid" && plan) {
            // What a paid claim writes (server/domain/claims decision flow): one reimbursement per claim.
            const claimId = `clm_property_${claims++}`;
            await t.database.db.transaction((tx) =>
              appendLedgerEntry(tx, t.services, owner, {
                kind: "claim_reimbursement",
                amountCents: step.amount,
                currency: "USD",
                sourceId: claimId,
                planId: plan.planId,
              }),
            );
          } else if (step.op === "wait") t.clock.advance(step.ms);
          else if (step.op === "late") {
            // Stamped in the past (a long transaction, a clock step): maybe inside a period already closed.
            const stampedAt = t.clock.now - step.agoMs;
            await t.database.db.transaction((tx) =>
              appendLedgerEntry(tx, { ...t.services, clock: () => stampedAt }, owner, {
                kind: "correction",
                amountCents: step.amount,
                currency: "USD",
                sourceId: `late_property_${merchant.merchantId}_${lateEntries++}`,
              }),
            );
          } else if (step.op === "close") {
            await closeEndedPeriods(t.database.db, t.services);
            await remember();
          }
        }
        // Past the end (and grace) of the current period: every entry is on a closed statement.
        t.clock.advance(7 * DAY_MS + SETTLEMENT_GRACE_MS);
        await closeEndedPeriods(t.database.db, t.services);

        const entries = await t.database.db.all<{ kind: string; amount_cents: number; plan_id: string | null }>(
          "SELECT kind, amount_cents, plan_id FROM ledger_entries WHERE merchant_id = ?",
          [merchant.merchantId],
        );
        const statements = await statementsOf();
        for (const [id, first] of seen) {
          assert.deepEqual(
            statements.find((s) => s.id === id),
            first.row,
            "a closed statement never changes",
          );
          assert.deepEqual((await secret.get(`/settlements/${id}`)).body, first.view, "nor do its entries");
        }
        const mine = ({ merchantId }: { merchantId: string }) => merchantId === merchant.merchantId;
        assert.deepEqual((await findStatementMismatches(t.database.db)).filter(mine), [], "stored = bound");
        assert.deepEqual((await findLateEntries(t.database.db)).filter(mine), [], "no entry left behind");

        const ledgerSum = entries.reduce((sum, e) => sum + Number(e.amount_cents), 0);
        if (entries.length === 0) assert.equal(statements.length, 0);
        else
          assert.equal(
            statements.at(-1)!.closing_balance_cents,
            ledgerSum,
            "the last closing balance is the ledger's sum",
          );
        assert.equal(
          statements.reduce((sum, s) => sum + Number(s.entry_count), 0),
          entries.length,
          "every entry is on exactly one statement",
        );
        for (const kind of LEDGER_KINDS) {
          const onStatements = statements.reduce((sum, s) => sum + (JSON.parse(s.totals)[kind] as number), 0);
          const inLedger = entries.filter((e) => e.kind === kind).reduce((sum, e) => sum + Number(e.amount_cents), 0);
          assert.equal(onStatements, inLedger, `totals of ${kind}`);
        }
        statements.forEach((s, i) => {
          assert.equal(s.closing_balance_cents, s.opening_balance_cents + s.net_cents);
          if (i > 0) {
            assert.equal(s.opening_balance_cents, statements[i - 1].closing_balance_cents, "balances chain");
            assert.equal(Number(s.period_start), Number(statements[i - 1].period_end), "periods chain without gaps");
          }
        });

        for (const plan of plans) {
          const row = await t.database.db.get<{ fee_cents: number }>("SELECT fee_cents FROM plans WHERE id = ?", [
            plan.planId,
          ]);
          const of = (kind: string) => entries.filter((e) => e.plan_id === plan.planId && e.kind === kind);
          assert.deepEqual(
            of("fee_collected").map((e) => Number(e.amount_cents)),
            [-row!.fee_cents],
            "the fee, once",
          );
          assert.equal(of("merchant_fee_share").length, 1);
          assert.deepEqual(
            of("fee_refunded").map((e) => Number(e.amount_cents)),
            plan.cancelled ? [row!.fee_cents] : [],
            "the fee is given back only by a cancellation",
          );
          assert.equal(of("merchant_refund_credit").length, plan.refunded ? 1 : 0);
          const feeRefunds = await t.database.db.get<{ n: number | string }>(
            "SELECT COUNT(*) AS n FROM fee_refunds WHERE plan_id = ?",
            [plan.planId],
          );
          assert.equal(Number(feeRefunds!.n), plan.cancelled ? 1 : 0, "a refund report never refunds the consumer");
        }
      }),
      { numRuns: dialect === "sqlite" ? 25 : 10 },
    );
  });
});
