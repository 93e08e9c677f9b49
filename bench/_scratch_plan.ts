import { createTestDatabase } from "/work/main/test/support/databases.ts";
const d = await createTestDatabase("sqlite");
for (const sql of [
 "SELECT p.id FROM plans p JOIN orders o ON o.plan_id = p.id WHERE p.id = ? AND p.merchant_id = ? AND p.mode = ?",
 "SELECT id FROM orders WHERE merchant_id = ? AND mode = ? AND external_id = ?",
 "SELECT k.id FROM api_keys k JOIN merchants m ON m.id = k.merchant_id WHERE k.key_hash = ? AND k.revoked_at IS NULL",
]) console.log(sql.slice(0,60), await d.db.all("EXPLAIN QUERY PLAN " + sql, ["a","b","c"].slice(0, (sql.match(/\?/g)||[]).length)));
await d.drop();
