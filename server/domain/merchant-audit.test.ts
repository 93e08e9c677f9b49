// The merchant audit log can be neither changed nor erased while its merchant exists (database triggers on SQLite
// and PostgreSQL), and goes with the merchant when the merchant is erased.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../../test/support/databases.ts";
import { cryptoRandom } from "./ids.ts";
import type { Services } from "./context.ts";
import { createTestMerchant } from "./merchants.ts";
import { appendMerchantAudit, listMerchantAudit, MERCHANT_AUDIT_PAGE_SIZE } from "./merchant-audit.ts";
import { eraseMerchantRows } from "../store/erasure.ts";

describe.each(DIALECTS)("the merchant audit log (%s)", (dialect) => {
  let t: TestDatabase;
  let now = Date.parse("2026-11-25T10:00:00.000Z");
  const services: Services = {
    clock: () => now,
    random: cryptoRandom,
    settings: { companyName: "Guarantor Inc.", portalUrl: "https://portal.example" },
  };
  let merchantId = "";
  const source = () => ({
    merchantId,
    mode: "test" as const,
    actor: { id: "mem_1", email: "owner@shop.example" },
    ip: "203.0.113.9",
  });
  const count = async () =>
    Number(
      (await t.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM merchant_audit_log WHERE merchant_id = ?", [
        merchantId,
      ]))!.n,
    );

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    merchantId = (await t.db.transaction((tx) => createTestMerchant(tx, services, { name: "Audited" }))).merchantId;
  });
  afterAll(() => t.drop());

  it("lists entries newest first, a page at a time, with who, what and from where", async () => {
    for (let i = 0; i < MERCHANT_AUDIT_PAGE_SIZE + 2; i++) {
      now += 1_000;
      await t.db.transaction((tx) =>
        appendMerchantAudit(tx, services, source(), {
          action: "api_key.minted",
          subject: `key_${i}`,
          detail: { last4: "ab12" },
        }),
      );
    }
    const first = await listMerchantAudit(t.db, merchantId);
    assert.equal(first.entries.length, MERCHANT_AUDIT_PAGE_SIZE);
    assert.equal(first.entries[0].subject, `key_${MERCHANT_AUDIT_PAGE_SIZE + 1}`);
    assert.deepEqual(first.entries[0].detail, { last4: "ab12" });
    assert.equal(first.entries[0].actorEmail, "owner@shop.example");
    assert.equal(first.entries[0].ip, "203.0.113.9");
    const rest = await listMerchantAudit(t.db, merchantId, first.nextBefore!);
    assert.deepEqual(
      rest.entries.map((entry) => entry.subject),
      ["key_1", "key_0"],
    );
    assert.equal(rest.nextBefore, null);
  });

  it("refuses an update and a delete while the merchant exists", async () => {
    const before = await count();
    await assert.rejects(t.db.run("UPDATE merchant_audit_log SET action = 'x' WHERE merchant_id = ?", [merchantId]));
    await assert.rejects(t.db.run("DELETE FROM merchant_audit_log WHERE merchant_id = ?", [merchantId]));
    assert.equal(await count(), before);
    assert.equal(
      Number((await t.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM merchant_audit_log WHERE action = 'x'"))!.n),
      0,
    );
  });

  it("goes with its merchant when the merchant is erased", async () => {
    await t.db.transaction((tx) => eraseMerchantRows(tx, merchantId));
    assert.equal(await count(), 0);
  });
});
