// Every buyer e-mail as the worker renders it (server/email/layout.ts, MJML): the plain-text part checked for what it
// must say and must not (internal ids, codes, hair spaces), the buyer's and the merchant's text kept exactly as
// written and escaped in the HTML; then each HTML document in Chromium at 390 px (no sideways scroll, the button
// above the fold) and 1280 px, with screenshots under test-artifacts/emails/ for a reviewer, and the button's address
// checked: the portal's coverage page of the plan, a token this service verifies, the claim named by its number.
// Where Debian's spamassassin is installed (apt-get install spamassassin), each message as nodemailer builds it is
// scored offline: no rule that adds points may fire.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { execFileSync, spawnSync } from "node:child_process";
import nodemailer from "nodemailer";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../support/widget/browser.ts";
import { coverageLinks } from "../../server/email/coverage-link.ts";
import { renderEmail, type EmailContext, type EmailTemplateRenderer } from "../../server/email/layout.ts";
import { welcomeProtected } from "../../server/email/welcome-protected.ts";
import { freeLookCancelled } from "../../server/email/free-look-cancelled.ts";
import { claimReceived } from "../../server/email/claim-received.ts";
import { claimInformationNeeded } from "../../server/email/claim-information-needed.ts";
import { claimDecided } from "../../server/email/claim-decided.ts";
import { claimPaid } from "../../server/email/claim-paid.ts";
import { APPROVAL_DECISION, DENIAL_REASONS } from "../../server/domain/claim-decisions.ts";
import type { EmailClaim, EmailPlan } from "../../server/store/emails.ts";
import { DAY, NOW, SAMPLE_REFERENCE as REFERENCE, sampleClaim, samplePlan } from "./samples.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/emails");
const PORTAL = "https://portal.example.test/portal";
const links = coverageLinks(randomBytes(32));

/** Text nobody at the service wrote, with everything that used to be altered or could break out of markup. */
const DESCRIPTION =
  'The left shoe\'s sole came off — "brand new", see https://example.com/photo & <b>this</b>.\nSecond line: 50% off? ' +
  `Tracking: https://carrier.example/track/${"X".repeat(120)}`;
const REQUEST =
  "Could you send a photo of the label? It's on the box's side, next to the \"fragile\" sticker.\n\n" +
  "A long question must not push the button below the fold. ".repeat(20);
const NOTE = "We checked with the carrier: it's confirmed.\nThanks for your patience!";

const plan = samplePlan;
const claim = (overrides: Partial<EmailClaim> = {}) => sampleClaim({ description: DESCRIPTION, ...overrides });

const insufficient = DENIAL_REASONS.find((reason) => reason.code === "insufficient_evidence")!;

/** Each e-mail a buyer can get, in the states the templates tell apart. */
const CASES: { name: string; template: EmailTemplateRenderer; plan: EmailPlan; claim?: EmailClaim }[] = [
  { name: "welcome_protected", template: welcomeProtected, plan: plan() },
  {
    name: "free_look_cancelled",
    template: freeLookCancelled,
    plan: plan({ status: "cancelled", cancelledAt: NOW - 60_000 }),
  },
  { name: "claim_received", template: claimReceived, plan: plan(), claim: claim() },
  {
    name: "claim_information_needed",
    template: claimInformationNeeded,
    plan: plan(),
    claim: claim({ status: "needs_information", latestRequest: { actor: "claims_team", text: REQUEST } }),
  },
  {
    name: "claim_decided-approved-merchant",
    template: claimDecided,
    plan: plan(),
    claim: claim({
      status: "approved",
      decisionCode: APPROVAL_DECISION.code,
      decisionMessage: APPROVAL_DECISION.message,
      decidedAt: NOW,
      decisionNote: NOTE,
      remedy: "refund",
    }),
  },
  {
    name: "claim_decided-approved-shopify",
    template: claimDecided,
    plan: plan({ refundChannel: "shopify", feeRefundChannel: "shopify" }),
    claim: claim({
      status: "approved",
      decisionCode: APPROVAL_DECISION.code,
      decisionMessage: APPROVAL_DECISION.message,
      decidedAt: NOW,
      remedy: "refund",
    }),
  },
  {
    name: "claim_decided-replacement",
    template: claimDecided,
    plan: plan(),
    claim: claim({
      status: "approved",
      decisionCode: APPROVAL_DECISION.code,
      decisionMessage: APPROVAL_DECISION.message,
      decidedAt: NOW,
      remedy: "replacement",
    }),
  },
  {
    name: "claim_decided-denied",
    template: claimDecided,
    plan: plan({ orderName: null }),
    claim: claim({
      status: "denied",
      decisionCode: insufficient.code,
      decisionMessage: insufficient.message,
      decidedAt: NOW,
      decisionNote: NOTE,
    }),
  },
  {
    name: "claim_paid-refund",
    template: claimPaid,
    plan: plan(),
    claim: claim({
      status: "paid",
      decisionCode: APPROVAL_DECISION.code,
      decisionMessage: APPROVAL_DECISION.message,
      decidedAt: NOW - DAY,
      remedy: "refund",
      paidAmountCents: 12_000,
      resolution: { channel: "merchant", reference: "re_3Pq1x2", note: "Refunded to your card ending 4242." },
      resolvedAt: NOW,
    }),
  },
  {
    name: "claim_paid-replacement",
    template: claimPaid,
    plan: plan({ refundChannel: "shopify" }),
    claim: claim({
      status: "paid",
      decisionCode: APPROVAL_DECISION.code,
      decisionMessage: APPROVAL_DECISION.message,
      decidedAt: NOW - DAY,
      remedy: "replacement",
      paidAmountCents: 12_999,
      resolution: { channel: "shopify", reference: "gid://shopify/Order/99", note: null },
      resolvedAt: NOW,
    }),
  },
  {
    name: "claim_paid-replacement-merchant",
    template: claimPaid,
    plan: plan(),
    claim: claim({
      status: "paid",
      decisionCode: APPROVAL_DECISION.code,
      decisionMessage: APPROVAL_DECISION.message,
      decidedAt: NOW - DAY,
      remedy: "replacement",
      paidAmountCents: 12_999,
      resolution: { channel: "merchant", reference: "1Z999AA10123456784", note: null },
      resolvedAt: NOW,
    }),
  },
  // Who pays (docs/api.md "Who pays"): the store paid the whole fee of 3.70; or a split, the buyer paying 1.23 of it.
  {
    name: "welcome_protected-merchant-paid",
    template: welcomeProtected,
    plan: plan({ payer: "merchant", buyerFeeCents: 0 }),
  },
  { name: "welcome_protected-split", template: welcomeProtected, plan: plan({ payer: "split", buyerFeeCents: 123 }) },
  {
    name: "free_look_cancelled-split",
    template: freeLookCancelled,
    plan: plan({ payer: "split", buyerFeeCents: 123, status: "cancelled", cancelledAt: NOW - 60_000 }),
  },
  {
    name: "claim_received-merchant-paid",
    template: claimReceived,
    plan: plan({ payer: "merchant", buyerFeeCents: 0 }),
    claim: claim(),
  },
];
const caseNamed = (name: string) => CASES.find((entry) => entry.name === name)!;

/**
 * E-mails in other languages than English (docs/api.md "The buyer's language") and in the pseudo-locale (longer,
 * accented words), for the layout's checks in Chromium: longer words must not widen the e-mail or push the button down.
 */
const LANGUAGE_CASES: typeof CASES = [
  { ...caseNamed("welcome_protected"), name: "welcome_protected-fr", plan: plan({ locale: "fr-FR", currency: "EUR" }) },
  {
    ...caseNamed("claim_decided-approved-shopify"),
    name: "claim_decided-approved-shopify-de",
    plan: plan({ locale: "de-DE", timeZone: "Europe/Berlin", refundChannel: "shopify", feeRefundChannel: "shopify" }),
  },
  { ...caseNamed("claim_information_needed"), name: "claim_information_needed-es", plan: plan({ locale: "es-ES" }) },
  { ...caseNamed("claim_received"), name: "claim_received-nl", plan: plan({ locale: "nl-NL" }) },
  { ...caseNamed("welcome_protected"), name: "welcome_protected-pseudo", plan: plan({ locale: "en-XA" }) },
];

const contextOf = (entry: (typeof CASES)[number]): EmailContext => ({
  plan: entry.plan,
  claim: entry.claim,
  settings: { companyName: "Acme Guarantee Ltd.", portalUrl: PORTAL },
  coverageLink: links.linkFor(PORTAL, entry.plan.referenceNumber, NOW, entry.claim?.number),
});

async function render(entry: (typeof CASES)[number]) {
  const context = contextOf(entry);
  const content = entry.template(context);
  assert.ok(content, `${entry.name} renders`);
  return { context, content, email: await renderEmail(content, context) };
}

const DISCLOSURE = "This is not insurance. This is a contractual refund guarantee provided by Acme Guarantee Ltd.";

describe("buyer e-mails, rendered", () => {
  it("every text part: the merchant, the button's link, the footer; no internal id, code or hair space; no caller text in the Subject", async () => {
    for (const entry of CASES) {
      const { email, context } = await render(entry);
      const { text, subject } = email;
      assert.ok(text.startsWith("Harbour Lane Ceramics & Co.\n\n"), `${entry.name}: the merchant's name heads it`);
      assert.ok(text.includes(context.coverageLink), `${entry.name}: the button's link`);
      assert.ok(text.includes(DISCLOSURE), `${entry.name}: the disclosure`);
      assert.ok(!text.includes("Co.."), `${entry.name}: a name ending in a period ends the sentence`);
      assert.ok(text.includes(`sign in at ${PORTAL} with your e-mail address and your reference number ${REFERENCE}`));
      assert.doesNotMatch(text, /\b(clm|plan|qt|cte)_[0-9a-z]/, `${entry.name}: no internal id`);
      assert.doesNotMatch(text, /[\u200A\u200B]/, `${entry.name}: no inserted spaces`);
      assert.doesNotMatch(text, /insufficient_evidence|covered\)|Reason \(/, `${entry.name}: no decision code`);
      assert.ok(subject.endsWith(`: ${REFERENCE}`) && !/Harbour|#1001|shoe/.test(subject), `${entry.name}: ${subject}`);
    }
  });

  it("names a claim by its number on the plan, the order by the store's order name, money and dates as people write them", async () => {
    const received = await render(CASES[2]);
    assert.match(received.email.text, /We received your refund request, claim 2 on CLM-2026-7K3M9Q2X, for \$129\.99\./);
    assert.match(received.email.text, /Claim: Claim 2 on CLM-2026-7K3M9Q2X\nReason: Damaged in transit\n/);
    assert.match(received.email.text, /Order: #1001 from Harbour Lane Ceramics & Co\.\nFiled: 26 Nov 2026, 14:05 UTC/);
    assert.ok(received.email.text.includes(`What you told us:\n${DESCRIPTION}`), "the description as written");
    const welcome = await render(CASES[0]);
    assert.match(welcome.email.text, /Your order #1001 from Harbour Lane Ceramics & Co\. is protected\./);
    assert.match(
      welcome.email.text,
      /Covered amount: \$129\.99\nProtection fee: \$3\.70\nFree cancellation until: 27 Nov 2026, 14:05 UTC/,
    );
    const denied = await render(CASES[7]);
    assert.match(denied.email.text, /Order: gid-5550123 from/, "the order id when the store gave no order name");
    // An order id a mail client would link (a publishable key's holder chose it) is not shown: the order's date is.
    for (const orderId of [
      "WIN at www.prize.example",
      "http://prize.example/x",
      "ask@prize.example",
      "prize.example",
    ]) {
      const linkable = await render({ ...CASES[0], plan: plan({ orderName: null, orderId }) });
      assert.ok(!linkable.email.text.includes("prize") && !linkable.email.html.includes("prize"), orderId);
      assert.match(linkable.email.text, /Your order of 25 Nov 2026 from Harbour Lane Ceramics & Co\. is protected\./);
    }
  });

  it("the fee is what the buyer paid: a plan its store paid for says so, with no fee and no free look; a split's welcome and cancellation say the buyer's part", async () => {
    const paidByStore = await render(caseNamed("welcome_protected-merchant-paid"));
    for (const part of [paidByStore.email.text, paidByStore.email.html]) {
      assert.match(part, /Harbour Lane Ceramics (&#38;|&) Co\. protected this order for you at no cost\./);
      assert.doesNotMatch(
        part,
        /Protection fee|Free cancellation|Changed your mind|refund of the protection fee|\$3\.70/,
      );
      assert.match(
        part,
        /because Harbour Lane Ceramics (&#38;|&) Co\. added purchase protection to your order #1001\./,
      );
      assert.doesNotMatch(part, /because you added/);
    }
    // What stays: the reference, the coverage, the covered reasons and terms, the disclosure.
    const text = paidByStore.email.text;
    assert.match(text, /Your reference number is CLM-2026-7K3M9Q2X\./);
    assert.match(text, /Reference number: CLM-2026-7K3M9Q2X\nCovered amount: \$129\.99\n\n/);
    assert.match(text, /file a claim in the portal within 30 days/);
    assert.match(text, /Covered reasons:\n- Lost in transit\n/);
    assert.ok(text.includes(`Read the full terms: ${PORTAL}/terms`), text);
    assert.ok(text.includes(DISCLOSURE), text);
    const claimed = await render(caseNamed("claim_received-merchant-paid"));
    assert.match(
      claimed.email.text,
      /because Harbour Lane Ceramics & Co\. added purchase protection to your order #1001\./,
    );

    const split = await render(caseNamed("welcome_protected-split"));
    for (const part of [split.email.text, split.email.html]) {
      assert.match(part, /Protection fee(:|<\/[^>]+>[^$]*?)\s*\$1\.23/);
      assert.doesNotMatch(part, /\$3\.70|at no cost/);
    }
    assert.match(split.email.text, /Protection fee: \$1\.23\nFree cancellation until: 27 Nov 2026, 14:05 UTC/);
    assert.match(split.email.text, /Changed your mind\? You may cancel within 48 hours of purchase/);
    assert.match(
      split.email.text,
      /because you added purchase protection to order #1001 from Harbour Lane Ceramics & Co\./,
    );

    const cancelled = await render(caseNamed("free_look_cancelled-split"));
    for (const part of [cancelled.email.text, cancelled.email.html])
      assert.match(part, /The protection fee of \$1\.23 is refunded in full\./);
    assert.doesNotMatch(cancelled.email.html, /\$3\.70/);
  });

  it("the buyer's, the claims team's and the merchant's text is shown exactly as written and escaped in the HTML", async () => {
    for (const entry of CASES) {
      const { email } = await render(entry);
      const html = email.html;
      assert.ok(!html.includes("<b>this</b>") && !html.includes("Ceramics & Co."), `${entry.name}: escaped`);
      assert.ok(html.includes("Harbour Lane Ceramics &#38; Co."), `${entry.name}: the merchant, escaped`);
      const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1].replace(/&amp;|&#38;/g, "&"));
      for (const href of hrefs)
        assert.ok(href.startsWith(PORTAL), `${entry.name}: only our links, never caller text: ${href}`);
    }
    const received = await render(CASES[2]);
    assert.ok(received.email.text.includes("The left shoe's sole came off"), "no hair space after the apostrophe");
    assert.ok(
      received.email.html.includes(
        "The left shoe&#39;s sole came off — &#34;brand new&#34;, see https://example.com/photo &#38; &#60;b&#62;this&#60;/b&#62;.<br>Second line: 50% off? Tracking:",
      ),
      "escaped, line break kept",
    );
    const asked = await render(CASES[3]);
    assert.ok(asked.email.text.includes(`The claims team asks:\n${REQUEST}`), asked.email.text);
  });

  it("a decision says the published sentence and the reviewer's note, never the code; an approval the amount, the remedy, who pays and by when", async () => {
    const merchant = (await render(CASES[4])).email.text;
    assert.match(merchant, /Your refund request, claim 2 on CLM-2026-7K3M9Q2X, has been approved\./);
    assert.ok(
      merchant.includes(
        "You get $129.99 back. Harbour Lane Ceramics & Co. refunds you directly by 4 Dec 2026 (within 7 days of the approval).",
      ),
      merchant,
    );
    assert.match(
      merchant,
      /Amount: \$129\.99\nRemedy: A refund\nWho pays: Harbour Lane Ceramics & Co\.\nDue by: 4 Dec 2026/,
    );
    assert.ok(merchant.includes(`Why: ${APPROVAL_DECISION.message}`));
    assert.ok(merchant.includes(`Note from the claims team:\n${NOTE}`), "the reviewer's note as written");

    const shopify = (await render(CASES[5])).email.text;
    assert.ok(
      shopify.includes(
        "The refund goes back automatically to the payment method you used for the order, by 30 Nov 2026 (within 1 business day of the approval).",
      ),
      shopify,
    );
    assert.match(shopify, /Who pays: Harbour Lane Ceramics & Co\., automatically to the payment method you used/);
    assert.ok(!shopify.includes("Note from"), "no note, no note block");

    const replacement = (await render(CASES[6])).email.text;
    assert.match(
      replacement,
      /You get a replacement worth \$129\.99\. Harbour Lane Ceramics & Co\. sends you the replacement by 4 Dec 2026/,
    );
    assert.match(replacement, /Remedy: A replacement\nWho sends it: Harbour Lane Ceramics & Co\.\nDue by: 4 Dec 2026/);
    const shopifyReplacement = (await render({ ...CASES[6], plan: plan({ refundChannel: "shopify" }) })).email.text;
    assert.match(
      shopifyReplacement,
      /Who sends it: Harbour Lane Ceramics & Co\., as a free order placed for you automatically\nDue by: 30 Nov 2026/,
    );

    const denied = (await render(CASES[7])).email.text;
    assert.match(denied, /was not approved\.\n\nWhy: The information and files provided do not show what happened/);
    assert.ok(denied.includes(`Note from the claims team:\n${NOTE}`));
    assert.ok(!denied.includes("Amount:"), "a denial promises nothing");
  });

  it("a payment says what was paid, how and when, with the merchant's reference and note", async () => {
    const refund = (await render(CASES[8])).email.text;
    assert.ok(
      refund.includes(
        "Your refund of $120.00 for claim 2 on CLM-2026-7K3M9Q2X has been paid. Harbour Lane Ceramics & Co. refunded it to you directly and confirmed the refund to us. Your bank can take 5–10 business days to show it.",
      ),
      refund,
    );
    assert.match(refund, /Amount paid: \$120\.00\nPaid: 27 Nov 2026, 14:05 UTC\nStore's reference: re_3Pq1x2\n/);
    assert.match(refund, /Note from Harbour Lane Ceramics & Co\.:\nRefunded to your card ending 4242\./);

    const automatic = await render(CASES[9]);
    assert.equal(automatic.email.subject, `Your replacement order has been placed: ${REFERENCE}`);
    assert.ok(
      automatic.email.text.includes(
        "A free replacement order for your order #1001 has been placed for you, as approved for your refund request, claim 2 on CLM-2026-7K3M9Q2X. Harbour Lane Ceramics & Co. ships it like any order.",
      ),
      automatic.email.text,
    );
    assert.match(automatic.email.text, /Worth: \$129\.99\nSent: 27 Nov 2026, 14:05 UTC\n/);
    assert.ok(!automatic.email.text.includes("gid://"), "the app's own reference is not the buyer's");

    const sent = await render(CASES[10]);
    assert.equal(sent.email.subject, `Your replacement has been sent: ${REFERENCE}`);
    assert.match(
      sent.email.text,
      /Harbour Lane Ceramics & Co\. has sent you a replacement for your order #1001, as approved/,
    );
    assert.match(sent.email.text, /Store's reference: 1Z999AA10123456784\n/, "the tracking number");
  });

  it("the button opens the plan's coverage page with a token this service verifies, on the claim for a claim e-mail", async () => {
    for (const entry of CASES) {
      const { email } = await render(entry);
      const button = /<a\s+href="([^"]+)"[^>]*target="_blank"/.exec(email.html);
      assert.ok(button, `${entry.name}: a button`);
      const url = new URL(button[1].replace(/&amp;|&#38;/g, "&"));
      assert.equal(`${url.origin}${url.pathname}`, `${PORTAL}/coverage/${REFERENCE}`);
      assert.ok(links.verify(REFERENCE, url.searchParams.get("token")!, NOW), `${entry.name}: the token verifies`);
      assert.equal(url.searchParams.get("claim"), entry.claim ? String(entry.claim.number) : null);
    }
  });

  /** spamassassin on PATH (it is not part of the project's install: the check runs where a developer added it). */
  const spamassassin = spawnSync("sh", ["-c", "command -v spamassassin"]).status === 0;

  it.skipIf(!spamassassin)("SpamAssassin (offline rules) finds nothing that scores in any of them", async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    for (const entry of CASES) {
      const { email } = await render(entry);
      const built = await transport.sendMail({
        from: "Acme Guarantee <protection@acme.example>",
        to: "ada@example.com",
        ...email,
        headers: { "X-Service-Message-Id": "msg_01" },
      });
      const report = execFileSync("spamassassin", ["-t", "-L"], { input: built.message as Buffer }).toString();
      const details = report.slice(report.indexOf("Content analysis details"));
      const scoring = [...details.matchAll(/^\s*(-?\d+(?:\.\d+)?) ([A-Z0-9_]+)/gm)].filter(
        ([, points]) => Number(points) > 0,
      );
      assert.deepEqual(
        scoring.map(([, points, rule]) => `${rule} ${points}`),
        [],
        `${entry.name}:\n${details}`,
      );
    }
  });

  describe("in Chromium", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
      fs.mkdirSync(ARTIFACTS, { recursive: true });
    });
    afterAll(() => browser?.close());

    // The two widths at once: each waits mostly on Chromium's processes.
    it.concurrent.each([
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ])(
      "each e-mail at $width px: a document with a viewport, no sideways scroll, the button above the fold",
      async ({ width, height }) => {
        const context = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: false });
        const requests: string[] = [];
        context.on("request", (request) => requests.push(request.url()));
        try {
          // One page, each e-mail's document in turn.
          const page = await context.newPage();
          for (const entry of [...CASES, ...LANGUAGE_CASES]) {
            const { email } = await render(entry);
            assert.match(email.html, /^<!doctype html>/i, `${entry.name}: a document`);
            assert.match(email.html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
            await page.setContent(email.html, { waitUntil: "load" });
            const layout = await page.evaluate(() => ({
              scrollWidth: document.documentElement.scrollWidth,
              lang: document.documentElement.lang,
            }));
            assert.ok(layout.scrollWidth <= width, `${entry.name} at ${width} px: scrollWidth ${layout.scrollWidth}`);
            assert.equal(layout.lang, entry.plan.locale?.split("-")[0] ?? "en");
            const button = page.getByRole("link", { name: entry.template(contextOf(entry))!.button });
            const box = await button.boundingBox();
            assert.ok(box && box.y + box.height <= height, `${entry.name} at ${width} px: the button above the fold`);
            assert.ok(box.x >= 0 && box.x + box.width <= width, `${entry.name}: the button fits`);
            assert.equal(await button.getAttribute("href"), contextOf(entry).coverageLink, "the button opens our link");
            await page.screenshot({ path: path.join(ARTIFACTS, `${entry.name}-${width}.png`), fullPage: true });
          }
          assert.deepEqual(requests, [], "an e-mail loads nothing from another host (no web fonts, no images)");
        } finally {
          await context.close();
        }
      },
    );
  });
});
