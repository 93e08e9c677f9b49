// A suppressed e-mail is visible to the merchant: the purchase's page in the dashboard (the web app's real process,
// `npm start`, on SQLite and PostgreSQL) lists the buyer's e-mails with what became of each, and one a sending cap
// held back says so at the top of the page and names the cap. Both shells render the same page
// (app/dashboard/pages/PurchasePage.tsx), so the embedded /app shows the same from the same loader data.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases.ts";
import { plainAppEnv, startWebApp, type WebAppProcess } from "../support/web-app.ts";
import { apiClient } from "../support/client.ts";
import { protectOrder } from "../support/protection-flows.ts";
import { renderDashboardPage } from "../support/dashboard-page.ts";
import { EMAIL_CAPS, listPurchaseEmails } from "../../server/domain/emails.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { requestMemberSignInLinks } from "../../server/domain/members.ts";
import { insertMember } from "../../server/store/members.ts";
import { getPurchase } from "../../server/domain/purchases.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";

const services: Services = {
  clock: Date.now,
  random: cryptoRandom,
  settings: { companyName: "Visible Caps Ltd", portalUrl: "https://portal.example.test" },
};
const BANNER = "An e-mail to the buyer was not sent";
const { perRecipient } = EMAIL_CAPS.confirm;

describe.each(DIALECTS)("a purchase's e-mails in the dashboard (%s)", (dialect) => {
  let database: TestDatabase;
  let app: WebAppProcess;
  let merchant: NewMerchant;
  let cookie: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-purchase-emails-"));

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Visible Store" }));
    const env = plainAppEnv({ DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: "info" });
    app = await startWebApp(env);
    // The merchant's owner, signed in through the link's page.
    const [link] = await database.db.transaction(async (tx) => {
      await insertMember(tx, {
        id: "mem_visible_owner",
        merchantId: merchant.merchantId,
        email: "owner@visible.example",
        name: "",
        role: "owner",
        status: "invited",
        invitedBy: null,
        createdAt: Date.now(),
      });
      return requestMemberSignInLinks(tx, services, { email: "owner@visible.example" });
    });
    const signedIn = await fetch(`${app.origin}/dashboard/sign-in/${link.token}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: app.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    assert.equal(signedIn.status, 302);
    cookie = signedIn.headers.get("set-cookie")!.split(";")[0];
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const purchasePage = async (planId: string) => {
    const response = await fetch(`${app.origin}/dashboard/purchases/${planId}`, { headers: { Cookie: cookie } });
    assert.equal(response.status, 200);
    return response.text();
  };

  it(`the welcome a cap held back (${perRecipient.limit} to one address a day) is on its purchase, with the cap; the others say sent or waiting`, async () => {
    const widget = apiClient(`${app.origin}/api/v1`, merchant.publishableKey);
    const planIds = [];
    for (let i = 0; i <= perRecipient.limit; i++) {
      const { confirmation } = await protectOrder(widget, merchant.programId, { customer_email: "twice@example.test" });
      planIds.push(confirmation.planId as string);
    }
    const held = await purchasePage(planIds.at(-1)!);
    assert.ok(held.includes(BANNER), "the banner");
    assert.ok(held.includes(`Not sent: ${perRecipient.reason}`), "the cap, by the e-mail");
    assert.ok(held.includes("E-mails to the buyer"));

    const first = await purchasePage(planIds[0]);
    assert.ok(!first.includes(BANNER));
    assert.match(first, /Protection active \(welcome\), [^<]+UTC<\/dt><dd>(Sent [^<]+ UTC|Waiting to be sent)<\/dd>/);

    // The embedded shell's page, from the same loader data.
    const actor = { merchantId: merchant.merchantId, mode: "test" as const };
    const data = {
      purchase: await getPurchase(database.db, actor, planIds.at(-1)!),
      emails: await listPurchaseEmails(database.db, actor, planIds.at(-1)!),
    };
    const embedded = await renderDashboardPage(data, {
      file: "app.purchases_.$id.tsx",
      path: `/app/purchases/${planIds.at(-1)}`,
    });
    assert.ok(embedded.includes(BANNER) && embedded.includes(`Not sent: ${perRecipient.reason}`));
    // Another merchant's purchase shows none of its e-mails.
    const other = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Other Store" }));
    assert.deepEqual(
      await listPurchaseEmails(database.db, { merchantId: other.merchantId, mode: "test" }, planIds[0]),
      [],
    );
  });
});
