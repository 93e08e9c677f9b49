// The per-IP rate limits on the web app's API (/api/v1 through Remix), in the process `npm start` runs: the web
// server hands the API the Node request, so the limits see the client's address as they do under `npm run api`.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { startWebApp, type WebAppProcess } from "../support/web-app.ts";
import { assertQuoteEdgeLimitApplies, NO_CLIENT_ADDRESS } from "../support/ip-limits.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { apiClient } from "../support/client.ts";
import { protectOrderHeadless } from "../support/protection-flows.ts";

describe("npm start: the API's per-IP rate limits", () => {
  let database: TestDatabase;
  let merchant: NewMerchant;
  let app: WebAppProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-web-limits-"));

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test", portalUrl: "https://portal.example.test" },
    };
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Limited Store" }));
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: "info" };
    // The socket's address, not a forwarded one, is the client's.
    for (const name of ["HOST", "DEMO", "TRUST_PROXY", "SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL"])
      delete env[name];
    app = await startWebApp(env);
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("the edge limit on quote applies: quotes from one address get 429 once 50 per 10 s are spent, and the limiter knows the address", async () => {
    await assertQuoteEdgeLimitApplies(`${app.origin}/api/v1`, merchant);
    assert.equal(app.output().includes(NO_CLIENT_ADDRESS), false, "per-IP limits are never skipped");
  });

  it("the portal's pages reach the API's portal-mutation limits (issue 26): the 11th change a minute from one session is 429", async () => {
    const email = `limited-${crypto.randomUUID()}@example.test`;
    const { confirmation } = await protectOrderHeadless(
      apiClient(`${app.origin}/api/v1`, merchant.secretKey),
      merchant.programId,
      {
        customer_email: email,
      },
    );
    // Signed in through the page, as a browser: its CSRF cookie and field, then the session cookie.
    const signInPage = await fetch(`${app.origin}/portal`);
    const csrfCookie = signInPage.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    const csrf = /name="csrf" value="([^"]+)"/.exec(await signInPage.text())![1];
    const post = (path: string, fields: Record<string, string>, cookies: string) =>
      fetch(`${app.origin}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: cookies, Origin: app.origin, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, ...fields }),
      });
    const signedIn = await post("/portal?index", { email, reference: confirmation.reference_number }, csrfCookie);
    assert.equal(signedIn.status, 302, await signedIn.text());
    const cookies = [csrfCookie, ...signedIn.headers.getSetCookie().map((cookie) => cookie.split(";")[0])].join("; ");
    // Filing through the page, as a browser posts its form: the first is filed, the next ones are refused by the
    // API (one open claim per reason) and shown with its status; each is a portal mutation of this session.
    const fileClaim = () =>
      post(
        "/portal/claims/new",
        {
          reason: "damaged_in_transit",
          occurredAt: new Date().toISOString().slice(0, 10),
          description: "It arrived broken.",
        },
        cookies,
      );
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await fileClaim()).status);
    assert.deepEqual(
      statuses,
      [302, 409, 409, 409, 409, 409, 409, 409, 409, 409],
      "filed, then refused as already open",
    );
    const limited = await fileClaim();
    assert.equal(limited.status, 429);
    assert.match(await limited.text(), /Too many attempts/);
  });
});
