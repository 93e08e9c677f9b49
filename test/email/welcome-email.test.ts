// welcome_protected (docs/api.md "E-mail to buyers": the service e-mails the buyer after opt-in) through nodemailer to a real SMTP server on
// loopback (smtp-server), on SQLite and PostgreSQL: queued in the confirm's transaction, sent once, with the contract's
// items and a tokenized coverage link; not queued without an address; retried after the SMTP server refuses; not sent
// for a plan voided meanwhile. The address is the caller's, so: no caller text in the Subject, caller text inert in
// the body, caps per recipient and per merchant; and the address is stored sealed.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startMailingApi, type TestSmtpServer } from "./smtp-server.ts";
import { DIALECTS } from "../support/databases.ts";
import type { TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor } from "../support/client.ts";
import { createQuote } from "../support/api-assertions.ts";
import { confirmBody, protectOrder, protectOrderHeadless } from "../support/protection-flows.ts";
import { COVERAGE_LINK_LIFETIME_MS, coverageLinks } from "../../server/email/coverage-link.ts";
import { EMAIL_RETRY_DELAYS_MS } from "../../server/email/worker.ts";
import { EMAIL_CAPS } from "../../server/domain/emails.ts";
import { buyerEmailHash, sealClearBuyerEmails } from "../../server/domain/buyer-emails.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import type { Payer } from "../../server/vocabulary/plans.ts";

/** The columns of email_messages these tests read. */
interface MessageRow {
  template: string;
  recipient_sealed: string | null;
  status: string;
  message_id: string | null;
  attempts: number;
  last_error: string | null;
  cap_budget: string | null;
}

describe.each(DIALECTS)("welcome_protected e-mail (%s)", (dialect) => {
  let smtp: TestSmtpServer;
  let t: TestApi;
  let secret: ReturnType<typeof apiClient>;
  let sealer: ReturnType<typeof createSealer>;

  beforeAll(async () => {
    ({ smtp, t } = await startMailingApi(dialect));
    secret = apiClient(t.baseUrl, t.merchant.secretKey);
    sealer = createSealer(t.encryptionKey);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function protect(fields: Record<string, unknown> = {}, merchant = t.merchant) {
    const { confirmation } = await protectOrderHeadless(apiClient(t.baseUrl, merchant.secretKey), merchant.programId, {
      order_amount_cents: 12_345,
      currency: "USD",
      ...fields,
    });
    return confirmation;
  }
  /** A storefront's opt-in: quote and confirm with the page's publishable key (the confirms the welcome caps are for). */
  async function protectOnPage(fields: Record<string, unknown>, merchant = t.merchant) {
    const { confirmation } = await protectOrder(
      apiClient(t.baseUrl, merchant.publishableKey),
      merchant.programId,
      fields,
    );
    return { plan_id: confirmation.planId };
  }
  const messagesOf = (planId: string) =>
    t.database.db.all<MessageRow>("SELECT * FROM email_messages WHERE plan_id = ?", [planId]);
  const receivedBy = (address: string) =>
    smtp.received.filter((message) => message.to.some((to) => to.toLowerCase() === address.toLowerCase()));
  /** Sends everything due. */
  async function drain() {
    while ((await t.api.email!.runOnce()) > 0);
  }

  it("queued with the plan, sent once to the buyer with the contract's items and a tokenized coverage link", async () => {
    await drain(); // what the tests before left queued: the counts below are this plan's
    const plan = await protect({ customer_email: "ada@example.com" });
    assert.deepEqual(
      (await messagesOf(plan.plan_id)).map((row) => [row.template, sealer.open(row.recipient_sealed!), row.status]),
      [["welcome_protected", "ada@example.com", "pending"]],
    );

    assert.equal(await t.api.email!.runOnce(), 1);
    assert.equal(await t.api.email!.runOnce(), 0, "nothing left to send");
    const [received] = smtp.received.filter((message) => message.mail.subject?.includes(plan.reference_number));
    assert.deepEqual(received.to, ["ada@example.com"]);
    assert.equal(received.mail.subject, `Your purchase protection is active: ${plan.reference_number}`);
    assert.deepEqual(
      received.mail.from?.value.map(({ name, address }) => ({ name, address })),
      [{ name: "Acme Guarantee", address: "protection@acme.example" }],
    );
    const text = received.mail.text!;
    assert.match(text, new RegExp(`reference number is ${plan.reference_number}`));
    assert.match(
      text,
      /^Test Store\n\nYour order is protected\n\nYour order order-\S+ from Test Store is protected\./,
      "the merchant's name heads it",
    );
    assert.match(received.mail.html as string, /^<!doctype html>/i, "an HTML document beside the text part");
    assert.ok(
      text.includes("This is not insurance. This is a contractual refund guarantee provided by Acme Guarantee Ltd."),
      text,
    );
    assert.match(
      text,
      /cancel within 48 hours of purchase \(until \d+ \w+ \d{4}, \d\d:\d\d UTC\) for a full refund of the protection fee, in the portal with your reference number/,
    );
    assert.match(text, /file a claim in the portal within 30 days of what happened/);
    assert.ok(
      text.includes("sign in at https://portal.example.test with your e-mail address and your reference number"),
    );
    assert.match(text, /Lost in transit/);
    assert.match(text, /Covered amount: \$123\.45\nProtection fee: \$3\.70\n/);
    const link = /See your coverage: (\S+)/.exec(text)![1];
    const url = new URL(link);
    assert.equal(`${url.origin}${url.pathname}`, `https://portal.example.test/coverage/${plan.reference_number}`);
    const links = coverageLinks(t.encryptionKey);
    const token = url.searchParams.get("token")!;
    const now = t.clock.now;
    assert.ok(links.verify(plan.reference_number, token, now), "the token is this service's");
    assert.ok(!links.verify(plan.reference_number, "forged-token", now));
    // It carries its expiry: 180 days from the e-mail, then refused; an old token without one is refused.
    const expiry = Number(token.split(".")[0]) * 1000;
    assert.equal(expiry, Math.floor((now + COVERAGE_LINK_LIFETIME_MS) / 1000) * 1000);
    assert.ok(links.verify(plan.reference_number, token, expiry - 1));
    assert.ok(!links.verify(plan.reference_number, token, expiry));
    assert.ok(!links.verify(plan.reference_number, token.split(".")[1], now), "no expiry, no entry");
    assert.ok(
      !links.verify(plan.reference_number, `${expiry / 1000 + 86_400}.${token.split(".")[1]}`, now),
      "expiry is signed",
    );
    assert.ok(!links.verify("CLM-2026-00000000", token, now), "bound to its reference");
    assert.ok(received.mail.html && received.mail.html.includes(`href="${link.replace(/&/g, "&amp;")}"`));
    const [row] = await messagesOf(plan.plan_id);
    assert.equal(row.status, "sent");
    assert.ok(row.message_id);
  });

  it("a replayed confirm queues no second one", async () => {
    const quoted = await secret.post("/headless/quote", {
      order_amount_cents: 5_000,
      order_id: `order-${randomUUID()}`,
      protection_program_id: t.merchant.programId,
      currency: "USD",
      customer_email: "bob@example.com",
    });
    const key = randomUUID();
    const first = await secret.post("/headless/confirm", { quote_id: quoted.body.quote_id }, { idempotencyKey: key });
    const replay = await secret.post("/headless/confirm", { quote_id: quoted.body.quote_id }, { idempotencyKey: key });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.equal((await messagesOf(first.body.plan_id)).length, 1);
  });

  it("follows who paid (docs/api.md \"Who pays\"): the store's gift says so with no fee or free look; a split shows the buyer's part", async () => {
    /** A merchant whose program is paid as given. */
    async function merchantPaying(payer: Payer, buyerShareBps: number | null) {
      const merchant = await t.createMerchant(`Paid by ${payer}`);
      await t.database.db.run("UPDATE protection_programs SET payer = ?, buyer_share_bps = ? WHERE id = ?", [
        payer,
        buyerShareBps,
        merchant.programId,
      ]);
      return merchant;
    }
    // 3 % of 123.45 is 370 cents; a buyer share of 33.33 % of it is 123.32 → 123 cents.
    const paidByStore = await protect({ customer_email: "gift@example.com" }, await merchantPaying("merchant", null));
    const split = await protect({ customer_email: "split@example.com" }, await merchantPaying("split", 3_333));
    await drain();

    const [gift] = receivedBy("gift@example.com");
    for (const part of [gift.mail.text!, gift.mail.html as string]) {
      assert.match(part, /Paid by merchant protected this order for you at no cost\./);
      assert.match(part, new RegExp(`reference number is ${paidByStore.reference_number}`));
      assert.doesNotMatch(part, /Protection fee|Free cancellation|Changed your mind|\$3\.70|\$0\.00/);
      assert.match(part, /because Paid by merchant added purchase protection to your order/);
    }
    assert.match(gift.mail.text!, /Covered amount: \$123\.45\n\n/);
    assert.match(gift.mail.text!, /Lost in transit/);
    assert.ok(
      gift.mail.text!.includes(
        "This is not insurance. This is a contractual refund guarantee provided by Acme Guarantee Ltd.",
      ),
    );

    const [shared] = receivedBy("split@example.com");
    assert.equal(shared.mail.subject, `Your purchase protection is active: ${split.reference_number}`);
    assert.match(shared.mail.text!, /Covered amount: \$123\.45\nProtection fee: \$1\.23\nFree cancellation until: /);
    assert.match(shared.mail.text!, /cancel within 48 hours of purchase/);
    assert.match(shared.mail.html as string, /\$1\.23/);
    assert.doesNotMatch(`${shared.mail.text}${shared.mail.html}`, /\$3\.70/);
  });

  it("an SMTP refusal is retried after its backoff and the e-mail then arrives once", async () => {
    await drain(); // what earlier tests left queued
    const plan = await protect({ customer_email: "cy@example.com" });
    smtp.refuse(1);
    await t.api.email!.runOnce();
    let [row] = await messagesOf(plan.plan_id);
    assert.equal(row.status, "pending");
    assert.equal(row.attempts, 1);
    assert.match(row.last_error!, /451 <\[address\]>: Mailbox temporarily unavailable/);
    assert.ok(!row.last_error!.includes("cy@example.com"), "the refusal quoted the address; the row does not keep it");
    assert.equal(await t.api.email!.runOnce(), 0, "not before its backoff");
    t.clock.advance(EMAIL_RETRY_DELAYS_MS[0]);
    assert.equal(await t.api.email!.runOnce(), 1);
    [row] = await messagesOf(plan.plan_id);
    assert.equal(row.status, "sent");
    assert.equal(smtp.received.filter((message) => message.mail.subject?.includes(plan.reference_number)).length, 1);
  });

  it("a plan voided before its welcome e-mail went out is not welcomed", async () => {
    const plan = await protect({ customer_email: "dee@example.com" });
    const voided = await secret.post("/offers/void", { planId: plan.plan_id, reason: "order_cancelled" });
    assert.equal(voided.status, 200, voided.text);
    await drain();
    const [row] = await messagesOf(plan.plan_id);
    assert.equal(row.status, "skipped");
    assert.equal(smtp.received.filter((message) => message.mail.subject?.includes(plan.reference_number)).length, 0);
  });

  it("a publishable-key quote naming a stranger: the Subject carries none of the caller's text, and an order id a mail client would link is not shown", async () => {
    const stranger = `stranger-${randomUUID()}@example.com`;
    const pitch =
      'WIN a FREE phone: http://win.evil-prize.com/claim, www.evil-prize.com or prize@evil-prize.com <a href="http://evil-prize.com">here</a>';
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const quoted = await widget.post("/offers/quote", {
      order_amount_cents: 12_345,
      order_id: pitch,
      protection_program_id: t.merchant.programId,
      currency: "USD",
      customer_email: stranger,
    });
    assert.equal(quoted.status, 200, quoted.text);
    const confirmed = await widget.post("/offers/confirm", {
      quoteId: quoted.body.quoteId,
      quoteToken: quoted.headers.get("x-service-quote-token"),
      order_context: orderContextFor(quoted.body),
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    await drain();

    const [{ mail }] = receivedBy(stranger);
    assert.equal(mail.subject, `Your purchase protection is active: ${confirmed.body.referenceNumber}`);
    // The text part as a mail client shows it: mailparser's textAsHtml links what linkify-it (as clients do) takes
    // for a URL, a domain or an address. The only links are ours.
    const hrefs = [mail.html as string, mail.textAsHtml!].flatMap((html) =>
      [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]),
    );
    assert.ok(hrefs.length >= 2, "our coverage link, in both parts");
    for (const href of hrefs) assert.ok(href.startsWith("https://portal.example.test"), `only our links: ${href}`);
    // Shown altered it would not be the order's id; shown as written it would be the caller's link: the order is
    // named by its date instead.
    assert.ok(!mail.text!.includes("WIN a FREE phone") && !(mail.html as string).includes("evil-prize"));
    assert.match(mail.text!, /Your order of \d+ \w+ \d{4} from Test Store is protected\./);
  });

  it(`at most ${EMAIL_CAPS.confirm.perRecipient.limit} welcome e-mails per recipient per 24 h: the plan beyond is confirmed, its e-mail recorded as suppressed and never sent`, async () => {
    await drain();
    const stranger = `stranger-${randomUUID()}@example.com`;
    const plans = [];
    // Any case, one recipient (the cap counts by the hash of the lower-cased address).
    for (let i = 0; i <= EMAIL_CAPS.confirm.perRecipient.limit; i++)
      plans.push(await protectOnPage({ customer_email: i % 2 ? stranger.toUpperCase() : stranger }));
    const rows = (await Promise.all(plans.map((plan) => messagesOf(plan.plan_id)))).flat();
    assert.deepEqual(
      rows.map((row) => row.status),
      [...Array(EMAIL_CAPS.confirm.perRecipient.limit).fill("pending"), "suppressed"],
    );
    assert.equal(rows.at(-1)!.last_error, EMAIL_CAPS.confirm.perRecipient.reason);
    await drain();
    assert.equal(receivedBy(stranger).length, EMAIL_CAPS.confirm.perRecipient.limit);

    t.clock.advance(EMAIL_CAPS.confirm.perRecipient.windowMs);
    await drain();
    assert.equal((await messagesOf(plans.at(-1)!.plan_id))[0].status, "suppressed", "never sent later");
    const later = await protectOnPage({ customer_email: stranger });
    await drain();
    assert.equal((await messagesOf(later.plan_id))[0].status, "sent", "a day later the address gets e-mail again");
    assert.equal(receivedBy(stranger).length, EMAIL_CAPS.confirm.perRecipient.limit + 1);
  });

  it("concurrent confirms to one address queue exactly the cap", async () => {
    const stranger = `stranger-${randomUUID()}@example.com`;
    const page = apiClient(t.baseUrl, t.merchant.publishableKey);
    const quotes = [];
    for (let i = 0; i < 2 * EMAIL_CAPS.confirm.perRecipient.limit; i++)
      quotes.push(await createQuote(page, t.merchant.programId, { customer_email: stranger }));
    const confirmed = await Promise.all(
      quotes.map(({ quote, token }) => page.post("/offers/confirm", confirmBody(quote, token))),
    );
    assert.deepEqual(
      confirmed.map((response) => response.status),
      quotes.map(() => 200),
    );
    const statuses = await t.database.db.all<{ status: string; n: number }>(
      "SELECT status, COUNT(*) AS n FROM email_messages WHERE recipient_hash = ? GROUP BY status ORDER BY status",
      [buyerEmailHash(sealer, stranger)],
    );
    assert.deepEqual(
      statuses.map((row) => [row.status, Number(row.n)]),
      [
        ["pending", EMAIL_CAPS.confirm.perRecipient.limit],
        ["suppressed", EMAIL_CAPS.confirm.perRecipient.limit],
      ],
    );
  });

  it(`at most ${EMAIL_CAPS.confirm.perMerchant.limit} welcome e-mails per merchant per hour (both modes together)`, async () => {
    await drain();
    const merchant = await t.createMerchant("Busy Store");
    const now = t.clock.now;
    // The e-mails the merchant sent in the last hour, as rows (sending them through the API would take minutes).
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < EMAIL_CAPS.confirm.perMerchant.limit; i++) {
        await tx.run(
          `INSERT INTO email_messages (id, merchant_id, mode, template, plan_id, dedupe_key, recipient_sealed, recipient_hash, status, attempts, next_attempt_at, created_at, sent_at, cap_budget)
           VALUES (?, ?, ?, 'welcome_protected', ?, ?, ?, ?, 'sent', 1, ?, ?, ?, 'confirm')`,
          [
            `msg_earlier_${merchant.merchantId}_${i}`,
            merchant.merchantId,
            i % 2 ? "live" : "test",
            `plan_earlier_${merchant.merchantId}_${i}`,
            `welcome_protected:plan_earlier_${merchant.merchantId}_${i}`,
            sealer.seal(`earlier-${i}@example.com`),
            buyerEmailHash(sealer, `earlier-${i}@example.com`),
            now - 1_000,
            now - 1_000,
            now - 1_000,
          ],
        );
      }
    });
    const over = await protectOnPage({ customer_email: `over-${randomUUID()}@example.com` }, merchant);
    const [row] = await messagesOf(over.plan_id);
    assert.equal(row.status, "suppressed");
    assert.equal(row.last_error, EMAIL_CAPS.confirm.perMerchant.reason);
    assert.equal(row.cap_budget, null, "a held-back e-mail spends no budget");
    // The merchant's own server (a secret key: its backend, a Shopify order) is not capped: a busy store's buyers
    // all get their welcome, and more than the per-recipient cap to one buyer too.
    const repeatBuyer = `repeat-${randomUUID()}@example.com`;
    for (let i = 0; i <= EMAIL_CAPS.confirm.perRecipient.limit; i++) {
      const fromServer = await protect({ customer_email: repeatBuyer }, merchant);
      assert.equal((await messagesOf(fromServer.plan_id))[0].status, "pending", "a secret key's confirm is not capped");
    }
    const mine = await protectOnPage({ customer_email: `other-merchant-${randomUUID()}@example.com` });
    assert.equal((await messagesOf(mine.plan_id))[0].status, "pending", "another merchant is not held back");

    t.clock.advance(EMAIL_CAPS.confirm.perMerchant.windowMs);
    const address = `next-hour-${randomUUID()}@example.com`;
    const next = await protectOnPage({ customer_email: address }, merchant);
    await drain();
    assert.equal((await messagesOf(over.plan_id))[0].status, "suppressed", "never sent later");
    assert.equal((await messagesOf(next.plan_id))[0].status, "sent");
    assert.equal(receivedBy(address).length, 1);
  });

  it("addresses are stored sealed with their keyed hash; ones left in clear by the migration are sealed at start, then e-mailed", async () => {
    const address = `legacy-${randomUUID()}@example.com`;
    const plan = await protect({ customer_email: address });
    const { quote_id: quoteId } = (await t.database.db.get<{ quote_id: string }>(
      "SELECT quote_id FROM plans WHERE id = ?",
      [plan.plan_id],
    ))!;
    const columns = [
      ["quotes", "customer_email_sealed", "customer_email_hash", "id", quoteId],
      ["plans", "customer_email_sealed", "customer_email_hash", "id", plan.plan_id],
      ["email_messages", "recipient_sealed", "recipient_hash", "plan_id", plan.plan_id],
    ];
    const stored = () =>
      Promise.all(
        columns.map(
          async ([table, sealed, hash, key, id]) =>
            (await t.database.db.get<{ sealed: string; hash: string | null }>(
              `SELECT ${sealed} AS sealed, ${hash} AS hash FROM ${table} WHERE ${key} = ?`,
              [id],
            ))!,
        ),
      );
    for (const row of await stored()) {
      assert.ok(!row.sealed.includes("@"), "sealed");
      assert.equal(sealer.open(row.sealed), address);
      assert.equal(row.hash, buyerEmailHash(sealer, address));
    }
    // As a database migrated from clear addresses holds them until the service starts.
    for (const [table, sealed, hash, key, id] of columns)
      await t.database.db.run(`UPDATE ${table} SET ${sealed} = ?, ${hash} = NULL WHERE ${key} = ?`, [address, id]);

    t.api.startBackgroundJobs();
    await t.api.stopBackgroundJobs(0); // resolves once the sealing has run
    for (const row of await stored()) {
      assert.equal(sealer.open(row.sealed), address);
      assert.equal(row.hash, buyerEmailHash(sealer, address));
    }
    assert.equal(await sealClearBuyerEmails(t.database.db, sealer), 0, "nothing left in clear");
    await drain();
    assert.equal(receivedBy(address).length, 1);
  });

  describe("in the plan's language (docs/api.md \"The buyer's language\")", () => {
    /** Sends everything due, then the one e-mail whose Subject names the reference. */
    async function welcomeFor(reference: string) {
      await drain();
      const matching = smtp.received.filter((message) => message.mail.subject?.endsWith(reference));
      assert.equal(matching.length, 1, `one e-mail for ${reference}`);
      return matching[0].mail;
    }

    it("a storefront confirm with customer_locale fr-FR: the welcome in French, the fee as 12,34 €, the French disclosure", async () => {
      const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
      const { quote, token } = await createQuote(widget, t.merchant.programId, {
        currency: "EUR",
        order_amount_cents: 41_134,
        customer_email: "camille@example.com",
      });
      const confirmed = await widget.post<{ referenceNumber: string; buyerFeeCents: number }>("/offers/confirm", {
        ...confirmBody(quote, token),
        customer_locale: "fr-FR",
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      const fee = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }).format(
        confirmed.body.buyerFeeCents / 100,
      );
      assert.match(fee, /^\d+,\d\d\u00a0€$/, "a fee written the French way");
      const mail = await welcomeFor(confirmed.body.referenceNumber);
      assert.equal(mail.subject, `Votre protection d’achat est active : ${confirmed.body.referenceNumber}`);
      const text = mail.text!;
      for (const sentence of [
        `Frais de protection: ${fee}`,
        "Votre commande est protégée",
        "Vous avez changé d’avis ? Vous pouvez résilier dans les 48 heures",
        "Perdu pendant le transport",
        "Voir votre couverture: https://portal.example.test/coverage/",
        "Ceci n’est pas une assurance. Il s’agit d’une garantie de remboursement contractuelle fournie par Acme Guarantee Ltd.",
      ])
        assert.ok(text.includes(sentence), `${sentence}\n---\n${text}`);
      assert.match(text, /jusqu’au \d+ \S+ \d{4}, \d\d:\d\d UTC\)/, "the free look's end in UTC, said so");
      assert.match(mail.html as string, /<html[^>]* lang="fr"/);
    });

    it("a headless confirm with de-DE and Europe/Berlin: German, the times in Berlin's zone, named", async () => {
      // The language goes on the confirm (protectOrderHeadless sends its fields on the quote).
      const quote = await secret.post<{ quote_id: string }>("/headless/quote", {
        order_amount_cents: 10_000,
        order_id: `order-${randomUUID()}`,
        protection_program_id: t.merchant.programId,
        currency: "EUR",
        customer_email: "jonas@example.com",
      });
      const confirmed = await secret.post<{ reference_number: string }>("/headless/confirm", {
        quote_id: quote.body.quote_id,
        customer_locale: "de-DE",
        customer_time_zone: "Europe/Berlin",
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      const mail = await welcomeFor(confirmed.body.reference_number);
      assert.equal(mail.subject, `Ihr Käuferschutz ist aktiv: ${confirmed.body.reference_number}`);
      assert.ok(mail.text!.includes("Ihre Bestellung ist geschützt"), mail.text);
      assert.match(mail.text!, /Kostenlos kündbar bis: \d+\. \S+ \d{4}, \d\d:\d\d MEZ/, "Berlin's winter time, named");
    });
  });
});
