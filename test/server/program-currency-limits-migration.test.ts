// Migration 20261202030000_program_currency_limits on SQLite and PostgreSQL: a program's one minimum fee and maximum
// covered amount become the limits of each of its currencies, as the same number of minor units, so every quote prices
// as before (issue 33); the two columns are gone.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "../../server/store/migrations.ts";
import { openDatabase } from "../../server/store/open.ts";
import { createEmptyDatabase, DIALECTS } from "../support/databases.ts";
import { copyMigrations } from "../support/migrations.ts";

const MIGRATION = "20261202030000_program_currency_limits";

describe.each(DIALECTS)(`migration ${MIGRATION} (%s)`, (dialect) => {
  it("gives each currency of each program the program's minimum fee and maximum, in the same minor units", async () => {
    const database = await createEmptyDatabase(dialect);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pp-migrations-"));
    try {
      copyMigrations(dialect, folder, "20261202029999");
      await migrate(database.url, folder);
      const db = openDatabase(database.url);
      try {
        await db.run("INSERT INTO merchants (id, name, created_at) VALUES ('mer_1', 'Store', 0)");
        const program = (id: string, minFee: number, maxCovered: number, currencies: string[]) =>
          db.run(
            `INSERT INTO protection_programs (id, merchant_id, mode, name, rate_bps, min_fee_cents, max_covered_cents,
               merchant_share_bps, currencies, created_at) VALUES (?, 'mer_1', 'test', 'P', 300, ?, ?, 2000, ?, 0)`,
            [id, minFee, maxCovered, JSON.stringify(currencies)],
          );
        await program("prog_a", 100, 500_000, ["USD", "JPY", "EUR"]);
        await program("prog_b", 250, 90_000, ["GBP"]);

        copyMigrations(dialect, folder, MIGRATION);
        assert.deepEqual(await migrate(database.url, folder), [MIGRATION]);

        const rows = await db.all<{ id: string; currencies: string; currency_limits: string }>(
          "SELECT * FROM protection_programs ORDER BY id",
        );
        assert.deepEqual(
          rows.map((row) => [row.id, JSON.parse(row.currencies), JSON.parse(row.currency_limits)]),
          [
            [
              "prog_a",
              ["USD", "JPY", "EUR"],
              // ¥100 was the minimum a JPY quote got before: 100 of the yen's minor unit (it has no smaller one).
              {
                USD: { minFeeCents: 100, maxCoveredCents: 500_000 },
                JPY: { minFeeCents: 100, maxCoveredCents: 500_000 },
                EUR: { minFeeCents: 100, maxCoveredCents: 500_000 },
              },
            ],
            ["prog_b", ["GBP"], { GBP: { minFeeCents: 250, maxCoveredCents: 90_000 } }],
          ],
        );
        assert.ok(!("min_fee_cents" in rows[0]) && !("max_covered_cents" in rows[0]), "the one pair is gone");
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      await database.drop();
    }
  });
});
