import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { DIALECTS, createEmptyDatabase, type Dialect } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, type UntypedBody } from "../support/client.ts";
import { outbox, protectOrder, sha256Hex } from "../support/protection-flows.ts";
import { newPortalToken } from "../../server/domain/portal.ts";
import { claimName, claimTitle } from "../../server/domain/claim-name.ts";
import { insertPortalSession } from "../../server/store/portal-sessions.ts";
import { migrate, migrationsFolder } from "../../server/store/migrations.ts";
import { openDatabase } from "../../server/store/open.ts";

// A claim's number on its plan (claims.number: 1, 2, … in filing order), its name for people ("claim 2 on
// CLM-2026-…", claimName), and the migration that numbered the claims filed before it.

const DAY = 24 * 60 * 60 * 1000;
const NUMBERING_MIGRATION = "20261128010000_claim_numbers";

describe("claimName", () => {
  it("names a claim by its number and its plan's reference number", () => {
    assert.equal(claimName("CLM-2026-7K3M9Q2X", 2), "claim 2 on CLM-2026-7K3M9Q2X");
    assert.equal(claimTitle("CLM-2026-7K3M9Q2X", 1), "Claim 1 on CLM-2026-7K3M9Q2X");
  });
});

describe.each(DIALECTS)("claim numbers (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t.close());

  async function newBuyer() {
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const { confirmation } = await protectOrder(widget, t.merchant.programId, { customer_email: "buyer@example.com" });
    const token = newPortalToken();
    await t.database.db.transaction((tx) =>
      insertPortalSession(tx, {
        id: `pss_${randomUUID().replaceAll("-", "")}`,
        tokenHash: sha256Hex(token),
        merchantId: t.merchant.merchantId,
        mode: "test",
        planId: confirmation.planId,
        via: "lookup",
        createdAt: t.clock.now,
        expiresAt: t.clock.now + DAY,
      }),
    );
    return { portal: apiClient(t.baseUrl, token), referenceNumber: confirmation.referenceNumber as string };
  }

  const file = (buyer: Awaited<ReturnType<typeof newBuyer>>, reason: string) =>
    buyer.portal.post("/portal/claims", {
      referenceNumber: buyer.referenceNumber,
      reason,
      occurredAt: new Date(t.clock.now).toISOString(),
      description: "It happened.",
      amountCents: 100,
    });

  it("numbers a plan's claims 1, 2, … in filing order, each plan on its own", async () => {
    const first = await newBuyer();
    const other = await newBuyer();
    const one = await file(first, "damaged_in_transit");
    assert.equal(one.status, 200, one.text);
    const elsewhere = await file(other, "damaged_in_transit");
    // A second later: the listing is newest first, and within one millisecond ids have no order.
    t.clock.advance(1_000);
    const two = await file(first, "lost_in_transit");
    assert.equal(two.status, 200, two.text);
    assert.deepEqual([one.body.number, two.body.number, elsewhere.body.number], [1, 2, 1]);

    const listed = await first.portal.get("/claims");
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.data.map((claim: UntypedBody) => [claim.id, claim.number]),
      [
        [two.body.id, 2],
        [one.body.id, 1],
      ],
    );
  });

  it("the merchant reads the number the buyer names the claim by: its API and the claim.created event", async () => {
    const buyer = await newBuyer();
    const filed = await file(buyer, "damaged_in_transit");
    assert.equal(filed.status, 200, filed.text);
    const read = await apiClient(t.baseUrl, t.merchant.secretKey).get(`/merchant/claims/${filed.body.id}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.number, 1);
    const [event] = (await outbox(t.database.db, t.merchant.merchantId, "claim.created")).filter(
      (row) => row.data.id === filed.body.id,
    );
    assert.equal(event.data.number, 1);
  });

  it("a refused filing takes no number: the next claim has the next one", async () => {
    const buyer = await newBuyer();
    assert.equal((await file(buyer, "damaged_in_transit")).status, 200);
    const refused = await file(buyer, "damaged_in_transit");
    assert.equal(refused.status, 409, "one open claim per plan and reason");
    const next = await file(buyer, "wrong_item_delivered");
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body.number, 2);
  });
});

describe.each(DIALECTS)("the claim-numbering migration (%s)", (dialect: Dialect) => {
  it("numbers the claims filed before it per plan by created_at, then id", async () => {
    const empty = await createEmptyDatabase(dialect);
    const source = migrationsFolder(empty.url);
    const before = fs.mkdtempSync(path.join(os.tmpdir(), "pp-migrations-"));
    try {
      for (const name of fs.readdirSync(source).filter((entry) => entry < NUMBERING_MIGRATION))
        fs.cpSync(path.join(source, name), path.join(before, name), { recursive: true });
      await migrate(empty.url, before);
      const db = openDatabase(empty.url);
      try {
        const insert = (id: string, planId: string, reason: string, createdAt: number) =>
          db.run(
            `INSERT INTO claims (id, merchant_id, mode, plan_id, reason, status, amount_cents, currency, created_at, updated_at)
             VALUES (?, 'mer_1', 'test', ?, ?, 'submitted', 100, 'USD', ?, ?)`,
            [id, planId, reason, createdAt, createdAt],
          );
        await insert("clm_c", "plan_a", "lost_in_transit", 2_000);
        await insert("clm_a", "plan_a", "damaged_in_transit", 1_000);
        await insert("clm_e", "plan_a", "wrong_item_delivered", 2_000);
        await insert("clm_d", "plan_b", "damaged_in_transit", 5_000);
        fs.cpSync(path.join(source, NUMBERING_MIGRATION), path.join(before, NUMBERING_MIGRATION), {
          recursive: true,
        });
        assert.deepEqual(await migrate(empty.url, before), [NUMBERING_MIGRATION]);
        const rows = await db.all<{ id: string; number: number }>("SELECT id, number FROM claims ORDER BY id");
        assert.deepEqual(
          rows.map((row) => [row.id, Number(row.number)]),
          [
            ["clm_a", 1],
            ["clm_c", 2],
            ["clm_d", 1],
            ["clm_e", 3],
          ],
        );
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(before, { recursive: true, force: true });
      await empty.drop();
    }
  });
});
