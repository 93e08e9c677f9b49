// The buyer e-mails after the welcome (docs/api.md "E-mail to buyers"): free_look_cancelled, claim_received,
// claim_information_needed, claim_decided and claim_paid, through the e-mail worker and nodemailer to a real SMTP
// server on loopback, on SQLite and PostgreSQL. Each goes to the plan's buyer with a fixed Subject plus our reference
// number, rendered at send time from the plan, the claim and its timeline, as a multipart message (the plain text and
// the MJML document); text the service did not write (a buyer's description, a merchant's name) is shown as written,
// escaped in HTML, never a link of ours, and never reaches the Subject or a header; the button opens the claim. One
// e-mail per occasion; what a buyer's portal session sends counts toward its own caps, and the service's own notices
// (the claims team's requests and decisions, payments) toward none, so a spent welcome cap holds none of them back;
// an e-mail whose occasion no longer holds is skipped.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startMailingApi, type TestSmtpServer } from "./smtp-server.ts";
import { DIALECTS } from "../support/databases.ts";
import type { TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrder, protectOrderHeadless } from "../support/protection-flows.ts";
import { insertClaimRow, insertTimelineRow, updateClaimRow, type ClaimRow } from "../support/claim-rows.ts";
import { EMAIL_CAPS, queuePlanEmail, type EmailOccasion } from "../../server/domain/emails.ts";
import { approveClaim, requestInformation, resolveClaim } from "../../server/domain/claim-decisions.ts";
import type { Actor } from "../../server/vocabulary/actors.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";
import { coverageLinks } from "../../server/email/coverage-link.ts";

const PORTAL = "https://portal.example.test";
const DISCLOSURE = "This is not insurance. This is a contractual refund guarantee provided by Acme Guarantee Ltd.";

describe.each(DIALECTS)("buyer e-mails after the welcome (%s)", (dialect) => {
  let smtp: TestSmtpServer;
  let t: TestApi;

  beforeAll(async () => {
    ({ smtp, t } = await startMailingApi(dialect));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const actorOf = (merchant: NewMerchant): Actor => ({ merchantId: merchant.merchantId, mode: "test" });

  /** A protected order bought by `email`; its welcome e-mail already sent. */
  async function protect(email: string, merchant = t.merchant) {
    const { confirmation } = await protectOrderHeadless(apiClient(t.baseUrl, merchant.secretKey), merchant.programId, {
      order_amount_cents: 12_345,
      currency: "USD",
      customer_email: email,
    });
    await drain();
    return { planId: confirmation.plan_id, reference: confirmation.reference_number, actor: actorOf(merchant) };
  }
  type Plan = Awaited<ReturnType<typeof protect>>;

  const queue = (plan: Plan, occasion: Omit<EmailOccasion, "planId">) =>
    t.database.db.transaction((tx) => queuePlanEmail(tx, t.services, plan.actor, { ...occasion, planId: plan.planId }));
  const claim = (plan: Plan, row: Omit<ClaimRow, "planId" | "at">) =>
    insertClaimRow(t.database.db, plan.actor, { planId: plan.planId, at: t.clock.now, ...row });
  const rowsOf = (planId: string, template: string) =>
    t.database.db.all<{ status: string; last_error: string | null; claim_id: string | null }>(
      "SELECT status, last_error, claim_id FROM email_messages WHERE plan_id = ? AND template = ? ORDER BY created_at, id",
      [planId, template],
    );
  async function drain() {
    while ((await t.api.email!.runOnce()) > 0);
  }
  /** The one e-mail with this Subject; fails on none or several. */
  function receivedWith(subject: string) {
    const found = smtp.received.filter((message) => message.mail.subject === subject);
    assert.equal(found.length, 1, `one e-mail "${subject}", got ${found.length}`);
    return found[0];
  }
  /** The HTML part's links: ours only. */
  const hrefsOf = (mail: (typeof smtp.received)[number]["mail"]) =>
    [...(mail.html as string).matchAll(/href="([^"]*)"/g)].map((match) => match[1].replace(/&amp;|&#38;/g, "&"));
  /** The button's address, read from the text part ("<label>: <url>"). */
  const buttonOf = (text: string, label: string) => new URL(new RegExp(`^${label}: (\\S+)$`, "m").exec(text)![1]);

  it("free_look_cancelled: to the buyer, the fee and who refunds it (the merchant on other carts, automatically on Shopify)", async () => {
    const plan = await protect("cancel-other@example.com");
    await queue(plan, { template: "free_look_cancelled" });
    await drain();
    assert.deepEqual(await rowsOf(plan.planId, "free_look_cancelled"), [
      { status: "skipped", last_error: null, claim_id: null },
    ]);
    assert.equal(
      smtp.received.filter((message) => message.mail.subject?.endsWith(`cancelled: ${plan.reference}`)).length,
      0,
      "an active plan is not told it was cancelled",
    );

    const cancelled = await protect("cancel-other@example.com");
    await t.database.db.run("UPDATE plans SET status = 'cancelled', cancelled_at = ? WHERE id = ?", [
      t.clock.now,
      cancelled.planId,
    ]);
    await queue(cancelled, { template: "free_look_cancelled" });
    await drain();
    const { to, mail } = receivedWith(`Your purchase protection is cancelled: ${cancelled.reference}`);
    assert.deepEqual(to, ["cancel-other@example.com"]);
    const text = mail.text!;
    assert.match(text, new RegExp(`Your reference number is ${cancelled.reference}\\.`));
    assert.match(text, /from Test Store/);
    assert.match(text, /The protection fee of \$3\.70 is refunded in full\. Test Store refunds it to you directly/);
    assert.match(mail.html as string, /^<!doctype html>/i, "a document beside the text part");
    assert.ok(text.includes(DISCLOSURE), text);
    assert.ok(text.includes(`sign in at ${PORTAL}`), text);
    assert.ok(hrefsOf(mail).every((href) => href.startsWith(PORTAL)));

    const shop = await t.createMerchant("Harbour Lane Ceramics");
    await t.database.db.run("UPDATE merchants SET shop_domain = ? WHERE id = ?", [
      `harbour-${randomUUID()}.myshopify.com`,
      shop.merchantId,
    ]);
    const shopify = await protect("cancel-shopify@example.com", shop);
    await t.database.db.run("UPDATE plans SET status = 'cancelled', cancelled_at = ? WHERE id = ?", [
      t.clock.now,
      shopify.planId,
    ]);
    await queue(shopify, { template: "free_look_cancelled" });
    await drain();
    const shopifyMail = receivedWith(`Your purchase protection is cancelled: ${shopify.reference}`);
    assert.match(
      shopifyMail.mail.text!,
      /is refunded in full\. It is refunded automatically to the payment method you used for the order\./,
    );
  });

  it('free_look_cancelled of a split plan: the buyer\'s part refunded, not the whole fee (docs/api.md "Who pays")', async () => {
    // 3 % of 123.45 is 370 cents; the buyer's share of 33.33 % of it is 123.32 → 123 cents.
    const merchant = await t.createMerchant("Split Store");
    await t.database.db.run("UPDATE protection_programs SET payer = 'split', buyer_share_bps = 3333 WHERE id = ?", [
      merchant.programId,
    ]);
    const split = await protect("cancel-split@example.com", merchant);
    await t.database.db.run("UPDATE plans SET status = 'cancelled', cancelled_at = ? WHERE id = ?", [
      t.clock.now,
      split.planId,
    ]);
    await queue(split, { template: "free_look_cancelled" });
    await drain();
    const { mail } = receivedWith(`Your purchase protection is cancelled: ${split.reference}`);
    for (const part of [mail.text!, mail.html as string]) {
      assert.match(part, /The protection fee of \$1\.23 is refunded in full\. Split Store refunds it to you directly/);
      assert.doesNotMatch(part, /\$3\.70/);
    }
  });

  it("claim_received: the claim's name (never its id), the reason's name, what happens next and when, the button onto the claim; the buyer's text as written, escaped in HTML", async () => {
    const plan = await protect("received@example.com");
    const description =
      '<script>alert("x")</script> Box crushed, see http://evil-prize.example/win or <a href="http://evil-prize.example">here</a>';
    const claimId = await claim(plan, { reason: "damaged_in_transit", description, amountCents: 5_000 });
    await queue(plan, { template: "claim_received", claimId });
    await drain();
    const { to, mail } = receivedWith(`We received your refund request: ${plan.reference}`);
    assert.deepEqual(to, ["received@example.com"]);
    const text = mail.text!;
    assert.ok(
      text.includes(
        `We received your refund request, claim 1 on ${plan.reference}, for $50.00. The claims team reviews it within 5 business days.`,
      ),
      text,
    );
    assert.match(text, new RegExp(`Claim: Claim 1 on ${plan.reference}\nReason: Damaged in transit\n`));
    assert.ok(!text.includes(claimId) && !text.includes(plan.planId), "no internal id");
    assert.ok(text.includes(`What you told us:\n${description}`), "the description is shown as written");
    assert.ok(!/[\u200A\u200B]/.test(text), "nothing inserted");
    assert.ok(text.includes(DISCLOSURE));
    const html = mail.html as string;
    assert.ok(!html.includes("<script"), "escaped in the HTML part");
    assert.ok(html.includes("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;"), html);
    for (const href of hrefsOf(mail)) assert.ok(href.startsWith(PORTAL), `only our links in the HTML: ${href}`);
    // The button opens the plan's coverage page with a token of ours, on the claim (its number on the plan).
    const button = buttonOf(text, "Follow your request");
    assert.equal(`${button.origin}${button.pathname}`, `${PORTAL}/coverage/${plan.reference}`);
    assert.ok(coverageLinks(t.encryptionKey).verify(plan.reference, button.searchParams.get("token")!, t.clock.now));
    assert.equal(button.searchParams.get("claim"), "1");
    assert.ok(hrefsOf(mail).includes(button.href), "the same link behind the HTML button");
    assert.deepEqual(await rowsOf(plan.planId, "claim_received"), [
      { status: "sent", last_error: null, claim_id: claimId },
    ]);
  });

  it("CR/LF in a buyer's description and a merchant's name never reach the Subject or a header", async () => {
    const merchant = await t.createMerchant("Evil Store\r\nBcc: victim@example.com\r\nSubject: You won");
    const plan = await protect("headers@example.com", merchant);
    const claimId = await claim(plan, {
      description: "Broken.\r\nBcc: victim2@example.com\r\nX-Injected: yes\r\n\r\n<b>body</b>",
    });
    await queue(plan, { template: "claim_received", claimId });
    await drain();
    const { to, mail } = receivedWith(`We received your refund request: ${plan.reference}`);
    assert.deepEqual(to, ["headers@example.com"], "no other envelope recipient");
    assert.equal(mail.bcc, undefined);
    assert.equal(mail.headers.get("x-injected"), undefined);
    assert.deepEqual(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((address) => address.address) : [], [
      "headers@example.com",
    ]);
    const welcome = receivedWith(`Your purchase protection is active: ${plan.reference}`);
    assert.deepEqual(welcome.to, ["headers@example.com"]);
    assert.match(mail.text!, /from Evil Store Bcc: victim@example\.com Subject: You won/, "a name is one line");
  });

  it("claim_information_needed: what the claims team asked, the portal link to answer; skipped once the buyer answered", async () => {
    const plan = await protect("info@example.com");
    const claimId = await claim(plan, { status: "needs_information" });
    await insertTimelineRow(t.database.db, plan.actor, {
      claimId,
      actor: "buyer",
      kind: "submitted",
      text: "It arrived broken.",
      at: t.clock.now,
    });
    t.clock.advance(1_000);
    const entry = await insertTimelineRow(t.database.db, plan.actor, {
      claimId,
      actor: "claims_team",
      kind: "status_changed",
      status: "needs_information",
      text: "Please send a photo of the parcel's label.",
      at: t.clock.now,
    });
    await queue(plan, { template: "claim_information_needed", claimId, occasion: entry });
    await drain();
    const { to, mail } = receivedWith(`More information needed for your refund request: ${plan.reference}`);
    assert.deepEqual(to, ["info@example.com"]);
    const text = mail.text!;
    assert.ok(text.includes(`question about your refund request, claim 1 on ${plan.reference}.`), text);
    assert.ok(text.includes("The claims team asks:\nPlease send a photo of the parcel's label."), text);
    assert.ok(!text.includes(claimId));
    assert.match(
      text,
      new RegExp(`Answer the claims team: ${PORTAL}/coverage/${plan.reference}\\?token=\\S+&claim=1$`, "m"),
    );

    // Asked again; the buyer answers before the e-mail goes out: it is not sent.
    t.clock.advance(1_000);
    const again = await insertTimelineRow(t.database.db, plan.actor, {
      claimId,
      actor: "claims_team",
      kind: "message",
      text: "And the invoice, please.",
      at: t.clock.now,
    });
    await queue(plan, { template: "claim_information_needed", claimId, occasion: again });
    await updateClaimRow(t.database.db, claimId, { status: "under_review", at: t.clock.now });
    await drain();
    assert.deepEqual(
      (await rowsOf(plan.planId, "claim_information_needed")).map((row) => row.status),
      ["sent", "skipped"],
    );
  });

  it("claim_reopened: the parcel moved again, the approval withdrawn, what changed and the review's promise; skipped once decided again", async () => {
    const plan = await protect("reopened@example.com");
    const claimId = await claim(plan, { status: "under_review", reason: "lost_in_transit" });
    const entry = await insertTimelineRow(t.database.db, plan.actor, {
      claimId,
      actor: "service",
      kind: "status_changed",
      status: "under_review",
      text: "The carrier scanned your parcel again on 2026-11-27 (in transit): it is not lost after all.",
      at: t.clock.now,
    });
    await queue(plan, { template: "claim_reopened", claimId, occasion: entry });
    await drain();
    const { to, mail } = receivedWith(`Your refund request is back under review: ${plan.reference}`);
    assert.deepEqual(to, ["reopened@example.com"]);
    const text = mail.text!;
    assert.ok(
      text.includes(`after your refund request, claim 1 on ${plan.reference}, was approved as lost in transit`),
      text,
    );
    assert.ok(text.includes("What changed:\nThe carrier scanned your parcel again on 2026-11-27 (in transit)"), text);
    assert.ok(text.includes("The claims team decides within 5 business days."), text);

    // Decided again before the e-mail goes out: it is not sent.
    t.clock.advance(1_000);
    const again = await insertTimelineRow(t.database.db, plan.actor, {
      claimId,
      actor: "service",
      kind: "status_changed",
      status: "under_review",
      text: "Scanned again.",
      at: t.clock.now,
    });
    await queue(plan, { template: "claim_reopened", claimId, occasion: again });
    await updateClaimRow(t.database.db, claimId, { status: "approved", at: t.clock.now });
    await drain();
    assert.deepEqual(
      (await rowsOf(plan.planId, "claim_reopened")).map((row) => row.status),
      ["sent", "skipped"],
    );
  });

  it("the same occasion queued twice is one e-mail; another occasion is another", async () => {
    const plan = await protect("dedupe@example.com");
    const claimId = await claim(plan, { status: "needs_information" });
    const occasion = `cte_${randomUUID()}`;
    await queue(plan, { template: "claim_information_needed", claimId, occasion });
    await queue(plan, { template: "claim_information_needed", claimId, occasion });
    await queue(plan, { template: "claim_received", claimId });
    await queue(plan, { template: "claim_received", claimId });
    assert.equal((await rowsOf(plan.planId, "claim_information_needed")).length, 1);
    assert.equal((await rowsOf(plan.planId, "claim_received")).length, 1);
    await drain();
    receivedWith(`More information needed for your refund request: ${plan.reference}`);
    await queue(plan, { template: "claim_information_needed", claimId, occasion });
    await drain();
    receivedWith(`More information needed for your refund request: ${plan.reference}`);

    await queue(plan, { template: "claim_information_needed", claimId, occasion: `cte_${randomUUID()}` });
    await drain();
    assert.equal(
      smtp.received.filter(
        (message) => message.mail.subject === `More information needed for your refund request: ${plan.reference}`,
      ).length,
      2,
    );
  });

  it("claim_decided: approved with the amount, who pays it and by when, and the reason's sentence; denied with its sentence; never the code", async () => {
    const plan = await protect("decided@example.com");
    const approvedId = await claim(plan, {
      reason: "lost_in_transit",
      status: "approved",
      amountCents: 8_000,
      decisionCode: "carrier_confirmed_loss",
      decisionMessage: "The carrier confirmed that the parcel was lost.",
    });
    const deniedId = await claim(plan, {
      reason: "arrived_defective",
      status: "denied",
      decisionCode: "outside_claim_window",
      decisionMessage: "The problem was reported more than 30 days after it happened.",
    });
    await queue(plan, { template: "claim_decided", claimId: approvedId });
    await drain();
    const { to, mail } = receivedWith(`Decision on your refund request: ${plan.reference}`);
    assert.deepEqual(to, ["decided@example.com"]);
    const text = mail.text!;
    assert.match(text, new RegExp(`Your refund request, claim 1 on ${plan.reference}, has been approved\\.`));
    assert.ok(text.includes("Why: The carrier confirmed that the parcel was lost."), text);
    assert.ok(!text.includes("carrier_confirmed_loss"), "never the code");
    assert.ok((mail.html as string).includes("The carrier confirmed that the parcel was lost."));
    assert.match(
      text,
      /You get \$80\.00 back\. Test Store refunds you directly by \d+ \w+ \d{4} \(within 7 days of the approval\)\./,
    );
    assert.match(text, /Amount: \$80\.00\nRemedy: A refund\nWho pays: Test Store\nDue by: /);
    assert.ok(text.includes("Reason: Lost in transit") && !text.includes(approvedId));

    await queue(plan, { template: "claim_decided", claimId: deniedId });
    await drain();
    const decisions = smtp.received.filter(
      (message) => message.mail.subject === `Decision on your refund request: ${plan.reference}`,
    );
    assert.equal(decisions.length, 2, "one e-mail per claim decided");
    const denied = decisions[1].mail.text!;
    assert.match(denied, /claim 2 on \S+, was not approved\./);
    assert.ok(denied.includes("Why: The problem was reported more than 30 days after it happened."), denied);
    assert.ok(!denied.includes("outside_claim_window"), "never the code");
    assert.ok(!denied.includes("You get"));
  });

  it("claim_decided without the decision's reason is never sent: it fails (retried) instead of a silent decision", async () => {
    const plan = await protect("no-reason@example.com");
    const claimId = await claim(plan, { status: "denied" });
    await queue(plan, { template: "claim_decided", claimId });
    await drain();
    const [row] = await rowsOf(plan.planId, "claim_decided");
    assert.equal(row.status, "pending");
    assert.match(row.last_error!, /without a decision reason/);
    assert.equal(
      smtp.received.filter((message) => message.mail.subject === `Decision on your refund request: ${plan.reference}`)
        .length,
      0,
    );
  });

  it("claim_paid: the amount paid, how and by whom", async () => {
    const plan = await protect("paid@example.com");
    const claimId = await claim(plan, {
      status: "paid",
      amountCents: 9_000,
      paidAmountCents: 8_500,
      decisionCode: "carrier_confirmed_damage",
      decisionMessage: "The carrier confirmed the damage.",
    });
    const notYet = await claim(plan, {
      reason: "missing_items",
      status: "approved",
      decisionCode: "c",
      decisionMessage: "m",
    });
    await queue(plan, { template: "claim_paid", claimId });
    await queue(plan, { template: "claim_paid", claimId: notYet });
    await drain();
    const { to, mail } = receivedWith(`Your refund has been paid: ${plan.reference}`);
    assert.deepEqual(to, ["paid@example.com"]);
    const text = mail.text!;
    assert.match(text, new RegExp(`Your refund of \\$85\\.00 for claim 1 on ${plan.reference} has been paid\\.`));
    assert.match(text, /Test Store refunded it to you directly and confirmed the refund to us\./);
    assert.deepEqual(
      new Map((await rowsOf(plan.planId, "claim_paid")).map((row) => [row.claim_id, row.status])),
      new Map([
        [claimId, "sent"],
        [notYet, "skipped"],
      ]),
      "a claim not paid is not told it was",
    );
  });

  it("a claim e-mail for a redacted customer, or a claim that is gone, is skipped", async () => {
    const plan = await protect("redacted@example.com");
    const claimId = await claim(plan, { description: "Mine." });
    await queue(plan, { template: "claim_received", claimId });
    // customers/redact as it leaves the plan (server/store/erasure.ts); the leased row keeps its status.
    await t.database.db.run("UPDATE plans SET customer_email_sealed = NULL, customer_email_hash = NULL WHERE id = ?", [
      plan.planId,
    ]);
    await t.database.db.run("UPDATE claims SET description = '[redacted]' WHERE id = ?", [claimId]);
    const other = await protect("gone@example.com");
    await queue(other, { template: "claim_received", claimId: `clm_${randomUUID()}` });
    await drain();
    assert.deepEqual(
      (await rowsOf(plan.planId, "claim_received")).map((row) => row.status),
      ["skipped"],
    );
    assert.deepEqual(
      (await rowsOf(other.planId, "claim_received")).map((row) => row.status),
      ["skipped"],
    );
    const subjects = smtp.received
      .filter((message) => message.to.includes("redacted@example.com") || message.to.includes("gone@example.com"))
      .map((message) => message.mail.subject);
    assert.deepEqual(subjects, [
      `Your purchase protection is active: ${plan.reference}`,
      `Your purchase protection is active: ${other.reference}`,
    ]);
  });

  it(`what a buyer's portal session sends counts toward its own cap of ${EMAIL_CAPS.portal.perRecipient.limit} per recipient per 24 h; the claims team's requests toward none`, async () => {
    const address = `capped-${randomUUID()}@example.com`;
    const plan = await protect(address); // the welcome: the confirm budget
    const claimId = await claim(plan, { status: "needs_information" });
    for (let i = 0; i < EMAIL_CAPS.portal.perRecipient.limit + 1; i++)
      await queue(plan, { template: "claim_received", claimId, occasion: `cte_received_${i}` });
    const received = await rowsOf(plan.planId, "claim_received");
    assert.deepEqual(received.map((row) => row.status).sort(), [
      ...Array(EMAIL_CAPS.portal.perRecipient.limit).fill("pending"),
      "suppressed",
    ]);
    assert.deepEqual(
      received.filter((row) => row.status === "suppressed").map((row) => row.last_error),
      [EMAIL_CAPS.portal.perRecipient.reason],
    );
    for (let i = 0; i < 3; i++)
      await queue(plan, { template: "claim_information_needed", claimId, occasion: `cte_request_${i}` });
    assert.deepEqual(
      (await rowsOf(plan.planId, "claim_information_needed")).map((row) => row.status),
      ["pending", "pending", "pending"],
    );
  });

  it(`a merchant whose ${EMAIL_CAPS.confirm.perMerchant.limit} welcome e-mails of the hour are spent still sends every claim notice: the receipt, the rules' and the claims team's decisions, the request for information, the payment`, async () => {
    const merchant = await t.createMerchant("Spent Store");
    const now = t.clock.now;
    // Whoever holds the merchant's publishable key confirmed 500 orders to addresses of their choice this hour.
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < EMAIL_CAPS.confirm.perMerchant.limit; i++)
        await tx.run(
          `INSERT INTO email_messages (id, merchant_id, mode, template, plan_id, dedupe_key, recipient_sealed, recipient_hash, status, attempts, next_attempt_at, created_at, sent_at, cap_budget)
           VALUES (?, ?, 'test', 'welcome_protected', ?, ?, 'sealed', ?, 'sent', 1, ?, ?, ?, 'confirm')`,
          [
            `msg_spent_${merchant.merchantId}_${i}`,
            merchant.merchantId,
            `plan_spent_${merchant.merchantId}_${i}`,
            `welcome_protected:plan_spent_${merchant.merchantId}_${i}`,
            `hash-spent-${i}`,
            now - 1_000,
            now - 1_000,
            now - 1_000,
          ],
        );
    });
    const address = `real-buyer-${randomUUID()}@example.com`;
    // The real buyer opts in on the same storefront page (a secret key's confirm is never capped).
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, merchant.publishableKey), merchant.programId, {
      customer_email: address,
    });
    const plan = { planId: confirmation.planId, reference: confirmation.referenceNumber, actor: actorOf(merchant) };
    assert.deepEqual(
      (await rowsOf(plan.planId, "welcome_protected")).map((row) => [row.status, row.last_error]),
      [["suppressed", EMAIL_CAPS.confirm.perMerchant.reason]],
      "the welcome is held back",
    );
    // A filing the program's rules approve at once (its receipt and decision: the portal's budget)…
    const decidedByRules = await claim(plan, { status: "submitted", amountCents: 1_000 });
    await queue(plan, { template: "claim_received", claimId: decidedByRules });
    const rules = { kind: "rule", ruleId: "auto_approve", basis: [] } as const;
    await t.database.db.transaction((tx) => approveClaim(tx, t.services, plan.actor, decidedByRules, rules, {}));
    // …and one the claims team asks about, approves, and the merchant pays (the service's own notices).
    const claimId = await claim(plan, { status: "under_review", reason: "lost_in_transit", amountCents: 1_000 });
    const staff = { kind: "staff", staffId: "stf_cap_test" } as const;
    await t.database.db.transaction((tx) =>
      requestInformation(tx, t.services, plan.actor, claimId, staff, { message: "A photo of the box, please." }),
    );
    await updateClaimRow(t.database.db, claimId, { status: "under_review", at: t.clock.now }); // the buyer answered
    await t.database.db.transaction((tx) => approveClaim(tx, t.services, plan.actor, claimId, staff, {}));
    await t.database.db.transaction((tx) =>
      resolveClaim(tx, t.services, plan.actor, claimId, { channel: "merchant", kind: "refund", reference: "re_cap" }),
    );
    const statuses = await t.database.db.all<{ template: string; status: string; cap_budget: string | null }>(
      "SELECT template, status, cap_budget FROM email_messages WHERE plan_id = ? AND template <> 'welcome_protected' ORDER BY template",
      [plan.planId],
    );
    assert.deepEqual(statuses.map((row) => `${row.template} ${row.status} ${row.cap_budget}`).sort(), [
      "claim_decided pending null",
      "claim_decided pending portal",
      "claim_information_needed pending null",
      "claim_paid pending null",
      "claim_received pending portal",
    ]);
    await drain();
    const subjects = smtp.received
      .filter((message) => message.to.includes(address))
      .map((message) => message.mail.subject?.split(":")[0])
      .sort();
    assert.ok(subjects.includes("Your refund has been paid"), subjects.join(", "));
    assert.equal(subjects.filter((subject) => subject === "Decision on your refund request").length, 2);
    assert.ok(!subjects.includes("Your purchase protection is active"), "the suppressed welcome never goes");
  });
});
