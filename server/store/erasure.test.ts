// The erase list is the one place that knows which tables hold a merchant's rows: a table added with a merchant_id
// column and left out of it would survive a shop/redact.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../../test/support/databases.ts";
import { AFTER_MERCHANT_TABLES, MERCHANT_TABLES, PLAN_TABLES, SHOP_TABLES } from "./erasure.ts";

describe.each(DIALECTS)("the merchant erase list (%s)", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
  });
  afterAll(() => t.drop());

  /** The tables that have a column of this name. */
  const tablesWithColumn = async (column: string) =>
    (dialect === "sqlite"
      ? await t.db.all<{ name: string }>(
          "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = ?",
          [column],
        )
      : await t.db.all<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = ?",
          [column],
        )
    ).map((row) => row.name);

  it("names every table with a merchant_id column (or erases it with the shop)", async () => {
    const keyedByMerchant = (await tablesWithColumn("merchant_id")).sort();
    assert.ok(keyedByMerchant.includes("claims"));
    assert.deepEqual(
      keyedByMerchant.filter(
        (table) => ![...MERCHANT_TABLES, ...AFTER_MERCHANT_TABLES, ...SHOP_TABLES].includes(table as never),
      ),
      [],
    );
  });

  it("erases with the plans every table keyed by a plan alone", async () => {
    const withMerchant = new Set(await tablesWithColumn("merchant_id"));
    const planOnly = (await tablesWithColumn("plan_id")).filter(
      (table) => !withMerchant.has(table) && !table.startsWith("shop"),
    );
    assert.deepEqual(planOnly.sort(), [...PLAN_TABLES].sort());
  });
});
