// The buyer e-mails' one button, followed end to end over the web app's real process (`npm start`, SQLite; its e-mail
// worker writes each message to DATA_DIR/mail): the e-mail as the worker wrote it is opened in Chromium at 390 px, its
// button's address is the portal's coverage page of the plan, and opening it and pressing "Open my coverage" signs the
// buyer in on the right page — the plan for the welcome, the claim itself (its question first) for a claim e-mail.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../support/widget/browser.ts";
import { waitFor } from "../support/wait.ts";
import { COMPANY_NAME, startPortal, type PortalHarness } from "../portal/support.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { requestInformation } from "../../server/domain/claim-decisions.ts";

const QUESTION = "Could you send a photo of the parcel's label? It's on the box's side.";

describe("the buyer e-mails' button opens the right portal page (sqlite)", () => {
  let portal: PortalHarness;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal("sqlite"), launchBrowser()]);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** The one e-mail with this Subject the worker wrote (waits for it). */
  function mailWith(subject: string): Promise<ParsedMail> {
    const dir = path.join(portal.dataDir, "mail");
    return waitFor(
      async () => {
        if (!fs.existsSync(dir)) return undefined;
        for (const file of fs.readdirSync(dir)) {
          const mail = await simpleParser(fs.readFileSync(path.join(dir, file)));
          if (mail.subject === subject) return mail;
        }
        return undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: `the e-mail "${subject}"` },
    );
  }

  /**
   * The e-mail's HTML in Chromium at 390 px: its button (the one link with that label) is visible, and its address is
   * the plan's coverage page. Then that address is opened (on the test app's origin: the app names its own as
   * PORTAL_URL's default host) and "Open my coverage" pressed; resolves with the page where the buyer lands.
   */
  async function followButton(mail: ParsedMail, label: string, reference: string) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.setContent(mail.html as string);
    const button = page.getByRole("link", { name: label });
    assert.ok(await button.isVisible(), `the "${label}" button`);
    const href = new URL((await button.getAttribute("href"))!);
    assert.equal(href.pathname, `/portal/coverage/${reference}`);
    assert.match(href.searchParams.get("token")!, /^\d+\.[\w-]{43}$/);
    await page.goto(`${portal.app.origin}${href.pathname}${href.search}`);
    await Promise.all([
      page.waitForURL(/\/portal\/(plan|claims\/\d+)$/),
      page.click("button:has-text('Open my coverage')"),
    ]);
    // The router moves the URL before it draws the page: wait for the coverage page's button to go.
    await page.waitForSelector("button:has-text('Open my coverage')", { state: "detached" });
    return { page, href, close: () => context.close() };
  }

  it("the welcome's button signs the buyer in on the plan; a claim e-mail's lands on the claim, its question first", async () => {
    const email = `links-${process.pid}@example.com`;
    const reference = await portal.protect(email);

    const welcome = await followButton(
      await mailWith(`Your purchase protection is active: ${reference}`),
      "See your coverage",
      reference,
    );
    assert.equal(welcome.href.searchParams.get("claim"), null);
    assert.equal(new URL(welcome.page.url()).pathname, "/portal/plan");
    assert.match((await welcome.page.textContent("main"))!, new RegExp(reference));
    await welcome.close();

    // The buyer files a claim; the claims team asks about it.
    const api = `${portal.app.origin}/api/v1`;
    const post = (pathname: string, body: unknown, token?: string) =>
      fetch(`${api}${pathname}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "Idempotency-Key": crypto.randomUUID(),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const lookup = await post("/portal/lookup", { email, referenceNumber: reference });
    assert.equal(lookup.status, 200, await lookup.clone().text());
    const { portalToken } = (await lookup.json()) as { portalToken: string };
    const filed = await post(
      "/portal/claims",
      {
        referenceNumber: reference,
        reason: "damaged_in_transit",
        occurredAt: new Date().toISOString().slice(0, 10),
        description: "The bowl arrived cracked.",
        amountCents: 5_000,
      },
      portalToken,
    );
    assert.equal(filed.status, 200, await filed.clone().text());
    const { id: claimId } = (await filed.json()) as { id: string };
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: COMPANY_NAME, portalUrl: "https://portal.example.test" },
    };
    await portal.database.db.transaction((tx) =>
      requestInformation(
        tx,
        services,
        { merchantId: portal.merchant.merchantId, mode: "test" },
        claimId,
        { kind: "staff", staffId: "stf_links" },
        { message: QUESTION },
      ),
    );

    const asked = await followButton(
      await mailWith(`More information needed for your refund request: ${reference}`),
      "Answer the claims team",
      reference,
    );
    assert.equal(asked.href.searchParams.get("claim"), "1", "the claim's number on the plan, never its id");
    assert.equal(new URL(asked.page.url()).pathname, "/portal/claims/1");
    assert.match((await asked.page.textContent("h1"))!, new RegExp(`Claim 1 on ${reference}`));
    assert.ok((await asked.page.textContent("#action"))!.includes(QUESTION), "the question waits at the top");
    await asked.close();
  });
});
