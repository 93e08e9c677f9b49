// The buyer portal under test: the web app's real process (`npm start` over the build) on a fresh database, a test
// merchant, protected orders made through the app's own API as a storefront makes them, the welcome e-mails the
// e-mail worker writes to DATA_DIR/mail, and evidence files whose bytes are what they claim to be.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { createTestDatabase, type Dialect, type TestDatabase } from "../support/databases.ts";
import { startWebApp, type WebAppProcess } from "../support/web-app.ts";
import { waitFor } from "../support/wait.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

export const MERCHANT_NAME = "Harbour Lane Ceramics";
export const COMPANY_NAME = "Portal Test Guarantees Ltd";

/** The portal's tables and the ones a refused input must leave as they were. */
export const PORTAL_TABLES = [
  "plans",
  "claims",
  "claim_timeline",
  "claim_evidence",
  "portal_sessions",
  "fee_refunds",
  "events",
  "email_messages",
];

export interface PortalHarness {
  dialect: Dialect;
  database: TestDatabase;
  merchant: NewMerchant;
  app: WebAppProcess;
  dataDir: string;
  /**
   * A protected order bought by `email`; resolves with its reference number. `key: "secret"` quotes and confirms from
   * the merchant's server, as a merchant-paid program's orders must be (docs/api.md "Who pays").
   */
  protect(email: string, options?: { amountCents?: number; key?: "publishable" | "secret" }): Promise<string>;
  /** Backdates a plan by `days` (its purchase and free look), so that a claim can be about an earlier day. */
  backdate(referenceNumber: string, days: number): Promise<unknown>;
  /** The coverage link of the welcome e-mail sent for `referenceNumber` (waits for the e-mail worker). */
  coverageLink(referenceNumber: string): Promise<string>;
  close(): Promise<void>;
}

let orderSequence = 0;

/** `extraEnv`: more of the web app's environment (e.g. TRUST_PROXY). */
export async function startPortal(dialect: Dialect, extraEnv: Record<string, string> = {}): Promise<PortalHarness> {
  const database = await createTestDatabase(dialect);
  const services = {
    clock: Date.now,
    random: cryptoRandom,
    settings: { companyName: COMPANY_NAME, portalUrl: "https://portal.example.test" },
  };
  const merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: MERCHANT_NAME }));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-portal-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    COMPANY_NAME,
    // The edge WAF's 100/min per IP (a real WAF enforces it in front) would throttle a browser that loads every page
    // at two widths; the portal look-up's own limits (per IP, per e-mail) stay on.
    EDGE_LIMITS: "off",
  };
  for (const name of [
    "HOST",
    "DEMO",
    "SHOPIFY_API_KEY",
    "SHOPIFY_API_SECRET",
    "SHOPIFY_APP_URL",
    "SCOPES",
    "PORTAL_URL",
  ])
    delete env[name];
  const app = await startWebApp({ ...env, ...extraEnv });
  const api = `${app.origin}/api/v1`;

  async function post<T>(pathname: string, key: string, body: unknown): Promise<{ body: T; headers: Headers }> {
    const response = await fetch(`${api}${pathname}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": "application/json",
        "Idempotency-Key": `portal-test-${crypto.randomUUID()}`,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    assert.equal(response.status, 200, `${pathname}: ${text}`);
    return { body: JSON.parse(text) as T, headers: response.headers };
  }

  return {
    dialect,
    database,
    merchant,
    app,
    dataDir,
    backdate: (referenceNumber, days) =>
      database.db.run(
        "UPDATE plans SET purchased_at = purchased_at - ?, free_look_ends_at = free_look_ends_at - ? WHERE reference_number = ?",
        [days * 86_400_000, days * 86_400_000, referenceNumber],
      ),
    async protect(email, { amountCents = 12_000, key = "publishable" } = {}) {
      const orderId = `portal-order-${process.pid}-${++orderSequence}`;
      const apiKey = key === "secret" ? merchant.secretKey : merchant.publishableKey;
      const quote = await post<{ quoteId: string }>("/offers/quote", apiKey, {
        order_amount_cents: amountCents,
        order_id: orderId,
        protection_program_id: merchant.programId,
        customer_email: email,
      });
      const confirmation = await post<{ referenceNumber: string }>("/offers/confirm", apiKey, {
        quoteId: quote.body.quoteId,
        quoteToken: quote.headers.get("X-Service-Quote-Token"),
        order_context: {
          schema_version: "2026-01-01",
          order: {
            id: orderId,
            purchased_at: new Date().toISOString(),
            currency: "USD",
            covered_amount_cents: amountCents,
          },
          participants: { mode: "unnamed" },
        },
      });
      return confirmation.body.referenceNumber;
    },
    async coverageLink(referenceNumber) {
      const mailDir = path.join(dataDir, "mail");
      return waitFor(
        async () => {
          if (!fs.existsSync(mailDir)) return undefined;
          for (const file of fs.readdirSync(mailDir)) {
            const mail = await simpleParser(fs.readFileSync(path.join(mailDir, file)));
            const link = mail.text?.match(/https?:\/\/\S+\/coverage\/([^?\s]+)\?token=[\w.-]+/);
            if (link && decodeURIComponent(link[1]) === referenceNumber) return link[0];
          }
          return undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: `the welcome e-mail of ${referenceNumber}` },
      );
    },
    async close() {
      await app.stop();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A 1×1 PNG (real PNG bytes: the API recognises files by their bytes). */
export const PNG_BYTES = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A one-page PDF. */
export const PDF_BYTES = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

export const todayUtc = () => new Date().toISOString().slice(0, 10);
export const daysAgoUtc = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
