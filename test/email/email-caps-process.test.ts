// The e-mail caps in the process `npm run api` starts (node server/main.ts, its e-mail worker sending to a real SMTP
// server on loopback), on SQLite and PostgreSQL, as the red team spent them: 500 confirms with the page's public `wk_`
// key, to addresses of their choosing, spend the merchant's welcome cap for the hour. A real buyer's welcome is then
// held back (recorded as suppressed, with the cap), but nothing else is: their claim's receipt and the decision its
// rules make (the portal's own budget), the claims team's decision and the payment (the service's own notices, never
// capped) all reach them.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases.ts";
import { startApiProcess, type ApiProcess } from "../support/api-process.ts";
import { apiClient } from "../support/client.ts";
import { protectOrder } from "../support/protection-flows.ts";
import { waitFor } from "../support/wait.ts";
import { EMAIL_CAPS } from "../../server/domain/emails.ts";
import { approveClaim } from "../../server/domain/claim-decisions.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";

const services: Services = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Caps Test Ltd", portalUrl: "https://portal.example.test" },
};

describe.each(DIALECTS)("npm run api: a spent welcome cap holds back no claim notice (%s)", (dialect) => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let server: ApiProcess;
  let merchant: NewMerchant;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-email-caps-"));

  beforeAll(async () => {
    [database, smtp] = await Promise.all([createTestDatabase(dialect), startSmtpServer()]);
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Spent Store" }));
    // Lost parcels up to 100.00 are approved by the program's rules when filed.
    await database.db.run("UPDATE protection_programs SET claim_rules = ? WHERE merchant_id = ?", [
      JSON.stringify({ autoApprove: { maxAmountCentsByCurrency: { USD: 10_000 }, reasons: ["lost_in_transit"] } }),
      merchant.merchantId,
    ]);
    server = await startApiProcess({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      SMTP_URL: smtp.url,
      LOG_LEVEL: "info",
      WEBHOOK_WORKER: "off",
      // The red team's confirms came from many addresses; the request limits are not what this test is about.
      RATE_LIMITS: "off",
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const subjectsTo = (address: string) =>
    smtp.received
      .filter((message) => message.to.includes(address))
      .map((message) => message.mail.subject!.split(":")[0])
      .sort();

  it(`${EMAIL_CAPS.confirm.perMerchant.limit} confirms with the wk_ key, then a real buyer's claim: its receipt, both decisions and the payment are e-mailed`, async () => {
    const widget = apiClient(server.baseUrl, merchant.publishableKey);
    const secret = apiClient(server.baseUrl, merchant.secretKey);
    const confirms = Array.from({ length: EMAIL_CAPS.confirm.perMerchant.limit }, (_, i) => i);
    for (let batch = 0; batch < confirms.length; batch += 20)
      await Promise.all(
        confirms
          .slice(batch, batch + 20)
          .map((i) => protectOrder(widget, merchant.programId, { customer_email: `stranger-${i}@example.test` })),
      );

    const buyer = `buyer-${randomUUID()}@example.test`;
    const plans = [];
    for (let i = 0; i < 2; i++) {
      const { confirmation } = await protectOrder(widget, merchant.programId, { customer_email: buyer });
      plans.push({ planId: confirmation.planId as string, referenceNumber: confirmation.referenceNumber as string });
    }
    const welcomes = await database.db.all<{ status: string; last_error: string }>(
      "SELECT status, last_error FROM email_messages WHERE plan_id IN (?, ?)",
      plans.map((plan) => plan.planId),
    );
    assert.deepEqual(
      welcomes.map((row) => [row.status, row.last_error]),
      plans.map(() => ["suppressed", EMAIL_CAPS.confirm.perMerchant.reason]),
      "the cap holds back the buyer's welcomes",
    );

    // The buyer signs in to the portal and files on each plan: one claim the rules approve, one for the claims team.
    const claims: { id: string; status: string }[] = [];
    for (const [plan, reason] of [
      [plans[0], "lost_in_transit"],
      [plans[1], "damaged_in_transit"],
    ] as const) {
      const session = await apiClient(server.baseUrl).post(
        "/portal/lookup",
        { email: buyer, referenceNumber: plan.referenceNumber },
        { idempotencyKey: null },
      );
      assert.equal(session.status, 200, session.text);
      const filed = await apiClient(server.baseUrl, session.body.portalToken).post("/portal/claims", {
        referenceNumber: plan.referenceNumber,
        reason,
        occurredAt: new Date().toISOString(),
        description: "It never arrived in one piece.",
        amountCents: 5_000,
      });
      assert.equal(filed.status, 200, filed.text);
      claims.push(filed.body);
    }
    assert.deepEqual(
      claims.map((claim) => claim.status),
      ["approved", "submitted"],
    );
    // The claims team approves the second (the console's domain call, on the same database).
    const actor = { merchantId: merchant.merchantId, mode: "test" as const };
    await database.db.transaction((tx) =>
      approveClaim(tx, services, actor, claims[1].id, { kind: "staff", staffId: "stf_caps" }, {}),
    );
    // The merchant pays both and confirms it through the API.
    for (const claim of claims) {
      const paid = await secret.post(`/merchant/claims/${claim.id}/resolution`, { kind: "refund", reference: "re_1" });
      assert.equal(paid.status, 200, paid.text);
    }

    const expected = [
      "Decision on your refund request",
      "Decision on your refund request",
      "We received your refund request",
      "We received your refund request",
      "Your refund has been paid",
      "Your refund has been paid",
    ];
    await waitFor(() => subjectsTo(buyer).length >= expected.length || undefined, {
      timeoutMs: 120_000,
      intervalMs: 200,
      what: "the buyer's claim e-mails",
    });
    assert.deepEqual(subjectsTo(buyer), expected);
    const held = await database.db.get<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM email_messages WHERE merchant_id = ? AND status = 'suppressed' AND template <> 'welcome_protected'",
      [merchant.merchantId],
    );
    assert.equal(Number(held!.n), 0, "no claim notice suppressed");
  }, 300_000);
});
