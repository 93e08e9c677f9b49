// Migration 20261203010000_auto_approve_per_currency on SQLite and PostgreSQL: approval without review's one amount,
// which every currency read as the same number of its minor units, becomes that amount in each of the program's
// currencies, so every claim is decided as before (a USD program's $25.00 stays $25.00); rules without approval without
// review are left as they are.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "../../server/store/migrations.ts";
import { openDatabase } from "../../server/store/open.ts";
import { evaluateClaimRules, parseStoredClaimRules, type ClaimFacts } from "../../server/domain/claim-rules.ts";
import { createEmptyDatabase, DIALECTS } from "../support/databases.ts";
import { copyMigrations } from "../support/migrations.ts";

const MIGRATION = "20261203010000_auto_approve_per_currency";

const FILED = Date.UTC(2026, 11, 1);
/** A lost parcel, no delivery recorded, low risk: approved without review whenever its amount is within the limit. */
const lostParcel = (currency: string, amountCents: number): ClaimFacts => ({
  reason: "lost_in_transit",
  amountCents,
  currency,
  remainingCents: 1_000_000,
  planStatus: "active",
  planEndedAt: null,
  purchasedAt: FILED - 10 * 86_400_000,
  occurredAt: FILED - 86_400_000,
  filedAt: FILED,
  deliveredAt: null,
  riskLevel: "low",
  delivery: { state: "not_shipped", overdue: false, deliveredAt: null },
});

describe.each(DIALECTS)(`migration ${MIGRATION} (%s)`, (dialect) => {
  it("gives each currency of each program the one amount it approved without review, in the same minor units", async () => {
    const database = await createEmptyDatabase(dialect);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pp-migrations-"));
    try {
      copyMigrations(dialect, folder, "20261203009999");
      await migrate(database.url, folder);
      const db = openDatabase(database.url);
      try {
        await db.run("INSERT INTO merchants (id, name, created_at) VALUES ('mer_1', 'Store', 0)");
        const program = (id: string, currencies: string[], claimRules: string) =>
          db.run(
            `INSERT INTO protection_programs (id, merchant_id, mode, name, rate_bps, merchant_share_bps, currencies,
               claim_rules, created_at) VALUES (?, 'mer_1', 'test', 'P', 300, 2000, ?, ?, 0)`,
            [id, JSON.stringify(currencies), claimRules],
          );
        const reasons = ["lost_in_transit", "damaged_in_transit"];
        await program(
          "prog_usd",
          ["USD"],
          JSON.stringify({
            autoApprove: { maxAmountCents: 2_500, reasons, maxRiskLevel: "low" },
            replacementAllowed: true,
          }),
        );
        await program(
          "prog_many",
          ["USD", "EUR", "GBP", "JPY", "KWD"],
          JSON.stringify({
            autoApprove: { maxAmountCents: 5_000, reasons, maxRiskLevel: "elevated" },
          }),
        );
        const unchanged = JSON.stringify({ autoApprove: null, replacementAllowed: true });
        await program("prog_off", ["USD", "JPY"], unchanged);
        await program("prog_default", ["EUR"], "{}");

        copyMigrations(dialect, folder, MIGRATION);
        assert.deepEqual(await migrate(database.url, folder), [MIGRATION]);

        const rows = await db.all<{ id: string; claim_rules: string }>(
          "SELECT id, claim_rules FROM protection_programs ORDER BY id",
        );
        const rules = Object.fromEntries(rows.map((row) => [row.id, row.claim_rules]));
        assert.deepEqual(JSON.parse(rules.prog_usd), {
          autoApprove: { maxAmountCentsByCurrency: { USD: 2_500 }, reasons, maxRiskLevel: "low" },
          replacementAllowed: true,
        });
        // 5,000 was $50.00 and €50.00 but also ¥5,000 and KWD 5.000: each currency keeps what it was decided by.
        assert.deepEqual(JSON.parse(rules.prog_many), {
          autoApprove: {
            maxAmountCentsByCurrency: { USD: 5_000, EUR: 5_000, GBP: 5_000, JPY: 5_000, KWD: 5_000 },
            reasons,
            maxRiskLevel: "elevated",
          },
        });
        assert.equal(rules.prog_off, unchanged);
        assert.equal(rules.prog_default, "{}");

        // The rules parse, and a USD program decides as before: $25.00 approved, a cent more reviewed.
        const usd = parseStoredClaimRules(rules.prog_usd);
        assert.equal(evaluateClaimRules(usd, lostParcel("USD", 2_500)).decision, "approve");
        assert.equal(evaluateClaimRules(usd, lostParcel("USD", 2_501)).ruleId, "review");
        const many = parseStoredClaimRules(rules.prog_many);
        for (const currency of ["USD", "EUR", "GBP", "JPY", "KWD"]) {
          assert.equal(evaluateClaimRules(many, lostParcel(currency, 5_000)).decision, "approve", currency);
          assert.equal(evaluateClaimRules(many, lostParcel(currency, 5_001)).ruleId, "review", currency);
        }
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      await database.drop();
    }
  });
});
