// welcome_protected (spec §6: the service e-mails the buyer after opt-in) through nodemailer to a real SMTP server on
// loopback (smtp-server), on SQLite and PostgreSQL: queued in the confirm's transaction, sent once, with the contract's
// items and a tokenized coverage link; not queued without an address; retried after the SMTP server refuses; not sent
// for a plan voided meanwhile.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { coverageLinks } from "../../server/email/coverage-link.ts";
import { EMAIL_RETRY_DELAYS_MS } from "../../server/email/worker.ts";

interface Received {
  to: string[];
  mail: ParsedMail;
}

async function startSmtpServer() {
  const received: Received[] = [];
  let refuseNext = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuseNext > 0) {
        refuseNext--;
        return callback(Object.assign(new Error("Mailbox temporarily unavailable"), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), mail });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(count: number) {
      refuseNext = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const dialect of DIALECTS) {
  describe(`welcome_protected e-mail (${dialect})`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let t: TestApi;
    let secret: ReturnType<typeof apiClient>;

    before(async () => {
      smtp = await startSmtpServer();
      t = await startTestApi({
        dialect,
        companyName: "Acme Guarantee Ltd.",
        email: { transport: nodemailer.createTransport(smtp.url), from: "Acme Guarantee <protection@acme.example>" },
      });
      secret = apiClient(t.baseUrl, t.merchant.secretKey);
    });
    after(async () => {
      await t?.close();
      await smtp?.close();
    });

    async function protect(fields: Record<string, unknown> = {}) {
      const quoted = await secret.post("/headless/quote", {
        order_amount_cents: 12_345, order_id: `order-${randomUUID()}`, protection_program_id: t.merchant.programId, currency: "USD", ...fields,
      });
      assert.equal(quoted.status, 200, quoted.text);
      const confirmed = await secret.post("/headless/confirm", { quote_id: quoted.body.quote_id });
      assert.equal(confirmed.status, 200, confirmed.text);
      return confirmed.body;
    }
    const messagesOf = (planId: string) => t.database.db.all<any>("SELECT * FROM email_messages WHERE plan_id = ?", [planId]);

    it("queued with the plan, sent once to the buyer with the contract's items and a tokenized coverage link", async () => {
      const plan = await protect({ customer_email: "ada@example.com" });
      assert.deepEqual((await messagesOf(plan.plan_id)).map((row) => [row.template, row.recipient, row.status]), [["welcome_protected", "ada@example.com", "pending"]]);

      assert.equal(await t.api.email!.runOnce(), 1);
      assert.equal(await t.api.email!.runOnce(), 0, "nothing left to send");
      const [received] = smtp.received.filter((message) => message.mail.subject?.includes(plan.reference_number));
      assert.deepEqual(received.to, ["ada@example.com"]);
      assert.deepEqual(received.mail.from?.value.map(({ name, address }) => ({ name, address })), [{ name: "Acme Guarantee", address: "protection@acme.example" }]);
      const text = received.mail.text!;
      assert.match(text, new RegExp(`reference number is ${plan.reference_number}`));
      assert.ok(text.includes("This is not insurance. This is a contractual refund guarantee provided by Acme Guarantee Ltd."), text);
      assert.match(text, /cancel within 48 hours of purchase .* full refund of the protection fee at https:\/\/portal\.example\.test using your reference number/);
      assert.match(text, /within 30 days of the event/);
      assert.match(text, /Lost in transit/);
      assert.match(text, /Protection fee: 3\.70 USD\. Covered amount: 123\.45 USD\./);
      const link = /Your coverage details: (\S+)/.exec(text)![1];
      const url = new URL(link);
      assert.equal(`${url.origin}${url.pathname}`, `https://portal.example.test/coverage/${plan.reference_number}`);
      const links = coverageLinks(t.encryptionKey);
      assert.ok(links.verify(plan.reference_number, url.searchParams.get("token")!), "the token is this service's");
      assert.ok(!links.verify(plan.reference_number, "forged-token"));
      assert.ok(received.mail.html && received.mail.html.includes(`href="${link.replace(/&/g, "&amp;")}"`));
      const [row] = await messagesOf(plan.plan_id);
      assert.equal(row.status, "sent");
      assert.ok(row.message_id);
    });

    it("no address, no e-mail; a replayed confirm queues no second one", async () => {
      const plan = await protect();
      assert.deepEqual(await messagesOf(plan.plan_id), []);

      const quoted = await secret.post("/headless/quote", {
        order_amount_cents: 5_000, order_id: `order-${randomUUID()}`, protection_program_id: t.merchant.programId, currency: "USD", customer_email: "bob@example.com",
      });
      const key = randomUUID();
      const first = await secret.post("/headless/confirm", { quote_id: quoted.body.quote_id }, { idempotencyKey: key });
      const replay = await secret.post("/headless/confirm", { quote_id: quoted.body.quote_id }, { idempotencyKey: key });
      assert.equal(replay.headers.get("idempotent-replayed"), "true");
      assert.equal((await messagesOf(first.body.plan_id)).length, 1);
    });

    it("an SMTP refusal is retried after its backoff and the e-mail then arrives once", async () => {
      await t.api.email!.runOnce(); // what earlier tests left queued
      const plan = await protect({ customer_email: "cy@example.com" });
      smtp.refuse(1);
      await t.api.email!.runOnce();
      let [row] = await messagesOf(plan.plan_id);
      assert.equal(row.status, "pending");
      assert.equal(row.attempts, 1);
      assert.match(row.last_error, /451/);
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
      await t.api.email!.runOnce();
      const [row] = await messagesOf(plan.plan_id);
      assert.equal(row.status, "skipped");
      assert.equal(smtp.received.filter((message) => message.mail.subject?.includes(plan.reference_number)).length, 0);
    });
  });
}
