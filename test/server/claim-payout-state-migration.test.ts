// Migration 20261129040000_claim_payout_state on SQLite and PostgreSQL: the claims table gains payout_state and
// payout_attempts, filled from each claim's newest pay_claim job on its merchant's shop (issue 29: the core reads a
// payout's state from the claim, never from the Shopify app's job table).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "../../server/store/migrations.ts";
import { openDatabase } from "../../server/store/open.ts";
import { createEmptyDatabase, DIALECTS } from "../support/databases.ts";
import { copyMigrations } from "../support/migrations.ts";

const MIGRATION = "20261129040000_claim_payout_state";

describe.each(DIALECTS)(`migration ${MIGRATION} (%s)`, (dialect) => {
  it("backfills each claim's payout state and attempts from its newest pay_claim job on its shop; other claims stay unqueued", async () => {
    const database = await createEmptyDatabase(dialect);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pp-migrations-"));
    try {
      copyMigrations(dialect, folder, "20261129039999");
      await migrate(database.url, folder);
      const db = openDatabase(database.url);
      try {
        await db.run("INSERT INTO merchants (id, name, shop_domain, created_at) VALUES (?, ?, ?, 0)", [
          "mer_shop",
          "Shop",
          "a.myshopify.com",
        ]);
        await db.run("INSERT INTO merchants (id, name, created_at) VALUES (?, ?, 0)", ["mer_api", "API"]);
        const claim = (id: string, merchantId: string) =>
          db.run(
            `INSERT INTO claims (id, merchant_id, mode, plan_id, reason, status, amount_cents, currency, created_at, updated_at)
             VALUES (?, ?, 'test', ?, 'lost_in_transit', 'approved', 1000, 'USD', 0, 0)`,
            [id, merchantId, `pln_${id}`],
          );
        const job = (id: string, shop: string, kind: string, subject: string, status: string, attempts: number) =>
          db.run(
            `INSERT INTO shopify_jobs (id, shop, kind, subject, payload, status, attempts, run_at, created_at, updated_at)
             VALUES (?, ?, ?, ?, '{}', ?, ?, 0, ?, 0)`,
            [id, shop, kind, subject, status, attempts, attempts],
          );
        for (const id of ["clm_dead", "clm_pending", "clm_done", "clm_none", "clm_other_kind"])
          await claim(id, "mer_shop");
        await claim("clm_api", "mer_api");
        await job("job_1", "a.myshopify.com", "pay_claim", "clm_dead", "dead", 5);
        await job("job_2", "a.myshopify.com", "pay_claim", "clm_pending", "pending", 2);
        await job("job_3", "a.myshopify.com", "pay_claim", "clm_done", "done", 1);
        await job("job_4", "a.myshopify.com", "refund_protection_fee", "clm_other_kind", "dead", 3);
        // Another shop's job never counts for this shop's claim, nor a job for a merchant with no shop.
        await job("job_5", "b.myshopify.com", "pay_claim", "clm_none", "dead", 4);
        await job("job_6", "b.myshopify.com", "pay_claim", "clm_api", "dead", 4);

        copyMigrations(dialect, folder, MIGRATION);
        assert.deepEqual(await migrate(database.url, folder), [MIGRATION]);

        const rows = await db.all<{ id: string; payout_state: string | null; payout_attempts: number | string }>(
          "SELECT id, payout_state, payout_attempts FROM claims ORDER BY id",
        );
        assert.deepEqual(
          rows.map((row) => [row.id, row.payout_state, Number(row.payout_attempts)]),
          [
            ["clm_api", null, 0],
            ["clm_dead", "dead", 5],
            ["clm_done", "done", 1],
            ["clm_none", null, 0],
            ["clm_other_kind", null, 0],
            ["clm_pending", "pending", 2],
          ],
        );
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      await database.drop();
    }
  });
});
