// docs/api.md "Money invariants" through the process that ships (`npm run api`: node server/main.ts), on both databases:
// issue 26's attack — file a claim the rules approve, cancel in the free look, get paid — and its variants.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases.ts";
import { startApiProcess, type ApiProcess } from "../support/api-process.ts";
import { apiClient, type ApiResponse } from "../support/client.ts";
import { assertError } from "../support/api-assertions.ts";
import { protectOrder } from "../support/protection-flows.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

const services = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Money Test Ltd", portalUrl: "https://portal.example.test" },
};

describe.each(DIALECTS)("npm run api: a plan refunds its buyer once (%s)", (dialect) => {
  let database: TestDatabase;
  let server: ApiProcess;
  let merchant: NewMerchant;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-money-"));

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Money Store" }));
    // The attack's "automatically": lost parcels are approved by the program's rules when filed.
    await database.db.run("UPDATE protection_programs SET claim_rules = ? WHERE merchant_id = ?", [
      JSON.stringify({ autoApprove: { maxAmountCentsByCurrency: { USD: 1_000_000 }, reasons: ["lost_in_transit"] } }),
      merchant.merchantId,
    ]);
    server = await startApiProcess({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "info",
      WEBHOOK_WORKER: "off",
      EMAIL_WORKER: "off",
      RATE_LIMITS: "off",
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A plan bought with the buyer's address, and the buyer signed in to the portal (what any wk_ holder can do). */
  async function signedInBuyer() {
    const email = `buyer-${randomUUID()}@example.test`;
    const widget = apiClient(server.baseUrl, merchant.publishableKey);
    const { confirmation } = await protectOrder(widget, merchant.programId, { customer_email: email });
    const session = await apiClient(server.baseUrl).post(
      "/portal/lookup",
      { email, referenceNumber: confirmation.referenceNumber },
      { idempotencyKey: null },
    );
    assert.equal(session.status, 200, session.text);
    const referenceNumber = confirmation.referenceNumber as string;
    const buyer = apiClient(server.baseUrl, session.body.portalToken);
    return {
      planId: confirmation.planId as string,
      orderId: confirmation.orderId as string,
      cancel: () => buyer.post("/portal/cancel", { referenceNumber }),
      file: () =>
        buyer.post("/portal/claims", {
          referenceNumber,
          reason: "lost_in_transit",
          occurredAt: new Date().toISOString(),
          description: "The parcel never came.",
        }),
    };
  }
  const secret = () => apiClient(server.baseUrl, merchant.secretKey);
  const pay = (claimId: string) =>
    secret().post(`/merchant/claims/${claimId}/resolution`, { kind: "refund", reference: "re_money" });
  const ledgerKinds = async (planId: string) =>
    (
      await database.db.all<{ kind: string }>("SELECT kind FROM ledger_entries WHERE plan_id = ? ORDER BY kind", [
        planId,
      ])
    ).map((row) => row.kind);
  const statusOf = (response: ApiResponse) =>
    response.status === 200 ? "200" : `${response.status} ${response.body?.error?.code}`;

  it("file (approved by the rules) → cancel is 409 plan_has_claims → paid → a refund report is 409 order_has_claim_payout", async () => {
    const plan = await signedInBuyer();
    const filed = await plan.file();
    assert.equal(filed.body.status, "approved", filed.text);
    assertError(await plan.cancel(), { status: 409, code: "plan_has_claims" });
    assert.equal((await pay(filed.body.id)).status, 200);
    assertError(await secret().post(`/orders/${plan.orderId}/refund`, {}), {
      status: 409,
      code: "order_has_claim_payout",
      param: "orderId",
    });
    assert.deepEqual(await ledgerKinds(plan.planId), ["claim_reimbursement", "fee_collected", "merchant_fee_share"]);
  });

  it("a claim approved, then the plan voided: its payment is 409 plan_not_active", async () => {
    const plan = await signedInBuyer();
    const filed = await plan.file();
    assert.equal(filed.body.status, "approved", filed.text);
    assert.equal((await secret().post("/offers/void", { planId: plan.planId })).status, 200);
    assertError(await pay(filed.body.id), { status: 409, code: "plan_not_active" });
    assert.deepEqual(await ledgerKinds(plan.planId), ["fee_collected", "merchant_fee_share"]);
  });

  it("a cancellation and a filing at once, on 10 plans: on each exactly one wins, and the ledger holds one path", async () => {
    const plans = await Promise.all(Array.from({ length: 10 }, () => signedInBuyer()));
    await Promise.all(
      plans.map(async (plan) => {
        const [cancelled, filed] = await Promise.all([plan.cancel(), plan.file()]);
        const outcome = `${statusOf(cancelled)} / ${statusOf(filed)}`;
        assert.ok(["200 / 409 plan_not_active", "409 plan_has_claims / 200"].includes(outcome), outcome);
        const kinds = await ledgerKinds(plan.planId);
        assert.ok(!(kinds.includes("fee_refunded") && filed.status === 200), `${outcome}: ${kinds}`);
        if (filed.status === 200) assert.equal((await pay(filed.body.id)).status, 200);
      }),
    );
  });
});
