// Dashboard sign-up in the web app's real process (`npm start` over the build), its e-mail going to a real SMTP server
// on loopback, on SQLite and PostgreSQL. Asking creates nothing and sends one fixed e-mail: its Subject is a fixed
// sentence and its body carries nothing the caller typed (a business name with markup, a URL and "\r\nBcc:" text);
// the page says a link was sent. Only a POST from the link's page — once — creates the merchant and its owner, signed
// in; the name is then shown inert in the sign-in e-mail. Requests are limited per client address and per address,
// and accounts opened per client address.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSmtpServer, type Received, type TestSmtpServer } from "../email/smtp-server.ts";
import { createTestDatabase, DIALECTS, rowCounts, type TestDatabase } from "../support/databases.ts";
import { plainAppEnv, startWebApp, type WebAppProcess } from "../support/web-app.ts";
import { waitFor } from "../support/wait.ts";
import { MEMBER_SIGN_IN_SUBJECT, MEMBER_SIGN_UP_SUBJECT } from "../../server/email/member-sign-in.ts";

const TABLES = ["member_sign_ups", "merchants", "merchant_members", "member_sessions", "protection_programs"];
/** A name a mailer would want in someone's inbox: markup, a link, a header of its own. */
const HOSTILE_NAME =
  '<b>WIN</b> <a href="https://evil.example/p">https://evil.example/p</a>\r\nBcc: victim@example.org';

let sequence = 0;
const newAddress = (label: string) => `${label}-${process.pid}-${++sequence}@shop.example.com`;
/** A client address of its own for each limit tested (the server trusts one proxy's X-Forwarded-For here). */
const clientAddress = () => `198.51.100.${++sequence % 250}`;

describe.each(DIALECTS)("dashboard sign-up (%s)", (dialect) => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let app: WebAppProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-sign-up-"));

  beforeAll(async () => {
    [database, smtp] = await Promise.all([createTestDatabase(dialect), startSmtpServer()]);
    const env = plainAppEnv({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      LOG_LEVEL: "info",
      TRUST_PROXY: "1",
    });
    app = await startWebApp(env);
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const counts = () => rowCounts(database.db, TABLES);

  function post(pathname: string, form: Record<string, string>, ip: string, origin = app.origin) {
    return fetch(`${app.origin}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip },
      body: new URLSearchParams(form).toString(),
    });
  }

  const signUp = (email: string, ip = clientAddress(), businessName = "Harbour Lane Ceramics") =>
    post("/dashboard/sign-up", { email, businessName }, ip);

  const receivedBy = (address: string) => smtp.received.filter((message) => message.to.includes(address));

  /** The one e-mail to `address` (after `already` earlier ones), once it arrives. */
  async function nextEmail(address: string, already = 0): Promise<Received> {
    return waitFor(() => receivedBy(address)[already], {
      timeoutMs: 15_000,
      intervalMs: 50,
      what: `e-mail to ${address}`,
    });
  }

  /** Links in both parts as a mail client shows them (the text part linked as clients do). */
  const hrefsOf = (mail: Received["mail"]) =>
    [mail.html as string, mail.textAsHtml!].flatMap((html) =>
      [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]),
    );

  /** Nothing the caller typed reaches the e-mail as text a client would show as markup, a link or a header. */
  function assertInert({ to, mail }: Received, address: string) {
    assert.deepEqual(to, [address], "no other recipient");
    assert.equal(mail.bcc, undefined);
    assert.equal(mail.headers.has("bcc"), false);
    const visible = `${mail.text}\n${mail.html}`;
    for (const raw of ["evil.example", "<b>", "victim@example.org"])
      assert.ok(!visible.includes(raw), `no "${raw}" in the body`);
    for (const href of hrefsOf(mail)) assert.match(href, /\/dashboard\/sign-(up|in)\/[A-Za-z0-9_-]{43}$/, href);
  }

  const tokenIn = (mail: Received["mail"], kind: "up" | "in") =>
    new RegExp(`/dashboard/sign-${kind}/([A-Za-z0-9_-]{43})`).exec(mail.text ?? "")![1];

  it("asking creates nothing and sends one fixed, inert e-mail; only its link's POST — once — opens the account, signed in", async () => {
    const address = newAddress("owner");
    const ip = clientAddress();
    const before = await counts();
    const asked = await signUp(address, ip, HOSTILE_NAME);
    assert.equal(asked.status, 302);
    assert.equal(asked.headers.get("location"), "/dashboard/sign-up?notice=sent");
    // The page after it names the address the link went to (not in the URL) and offers to start again, not the form.
    const sentCookie = asked.headers.get("set-cookie")!.split(";")[0];
    const sentPage = await (
      await fetch(`${app.origin}/dashboard/sign-up?notice=sent`, { headers: { Cookie: sentCookie } })
    ).text();
    assert.ok(sentPage.includes(`We sent a link to ${address}. Open it to continue.`), "the notice names the address");
    assert.match(sentPage, /<a href="\/dashboard\/sign-up">Start again<\/a>/);
    assert.ok(!sentPage.includes("<form"), "no form under the notice");
    assert.ok(!sentPage.includes("Harbour") && !sentPage.includes("evil.example"), "nothing typed is shown again");
    // Without the cookie (cookies off) the notice cannot name it; starting again shows the form and forgets the address.
    const withoutCookie = await (await fetch(`${app.origin}/dashboard/sign-up?notice=sent`)).text();
    assert.match(withoutCookie, /We sent a link to the address you entered\. Open it to continue\./);
    const startedAgain = await fetch(`${app.origin}/dashboard/sign-up`, { headers: { Cookie: sentCookie } });
    const formPage = await startedAgain.text();
    assert.ok(formPage.includes('name="email"') && !formPage.includes(address), "an empty form");
    assert.match(startedAgain.headers.get("set-cookie") ?? "", /^dashboard_sign_up_sent=; Max-Age=0/);

    const confirmation = await nextEmail(address);
    assert.equal(confirmation.mail.subject, MEMBER_SIGN_UP_SUBJECT);
    assertInert(confirmation, address);
    assert.ok(!confirmation.mail.text!.includes("WIN"), "the business name is not in the confirmation at all");
    assert.deepEqual(await counts(), { ...before, member_sign_ups: before.member_sign_ups + 1 }, "no merchant yet");

    // Opening the link (as a mail scanner would) spends nothing; the page shows the name, escaped.
    const token = tokenIn(confirmation.mail, "up");
    const page = await fetch(`${app.origin}/dashboard/sign-up/${token}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes("&lt;b&gt;WIN&lt;/b&gt;"), "the name is shown as text");
    assert.ok(!html.includes('<a href="https://evil.example'));
    assert.deepEqual(await counts(), { ...before, member_sign_ups: before.member_sign_ups + 1 });

    // A POST from another site opens nothing.
    assert.equal((await post(`/dashboard/sign-up/${token}`, {}, ip, "https://evil.example")).status, 403);
    assert.deepEqual(await counts(), { ...before, member_sign_ups: before.member_sign_ups + 1 });

    const opened = await post(`/dashboard/sign-up/${token}`, {}, ip);
    assert.equal(opened.status, 302);
    assert.equal(opened.headers.get("location"), "/dashboard");
    const cookie = opened.headers.get("set-cookie")!.split(";")[0];
    assert.match(cookie, /^dashboard_session=/);
    const overview = await fetch(`${app.origin}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
    assert.equal(overview.status, 200, "signed in");
    const member = await database.db.get<{ role: string; name: string }>(
      "SELECT m.role, b.name FROM merchant_members m JOIN merchants b ON b.id = m.merchant_id WHERE m.email = ?",
      [address],
    );
    assert.deepEqual({ ...member }, { role: "owner", name: HOSTILE_NAME.replace(/\s+/g, " ") });
    const afterOpen = await counts();
    assert.equal(afterOpen.merchants, before.merchants + 1);

    const again = await post(`/dashboard/sign-up/${token}`, {}, ip);
    assert.equal(again.status, 404, "the link works once");
    assert.deepEqual(await counts(), afterOpen);

    // The address now has an account: asking again sends its sign-in link, the name inert, the Subject fixed.
    // The page answers as it did for the new address: it tells nobody that this one has an account.
    const askedAgain = await signUp(address, clientAddress(), "Another Name");
    assert.equal(askedAgain.status, 302);
    assert.equal(askedAgain.headers.get("location"), "/dashboard/sign-up?notice=sent");
    const againCookie = askedAgain.headers.get("set-cookie")!.split(";")[0];
    const againPage = await (
      await fetch(`${app.origin}/dashboard/sign-up?notice=sent`, { headers: { Cookie: againCookie } })
    ).text();
    assert.equal(againPage, sentPage, "the same page for an existing address");
    const signIn = await nextEmail(address, 1);
    assert.equal(signIn.mail.subject, MEMBER_SIGN_IN_SUBJECT);
    assertInert(signIn, address);
    assert.match(signIn.mail.text!.replace(/\u200A/g, ""), /the <b>WIN<\/b>/, "named, as text");
    assert.equal((await counts()).merchants, afterOpen.merchants, "no second merchant");
  });

  it("limits: 3 requests an hour per client address and per address, 3 accounts a day opened from one client address", async () => {
    const ip = clientAddress();
    const before = await counts();
    const addresses = [newAddress("a"), newAddress("b"), newAddress("c"), newAddress("d")];
    const answers = [];
    for (const address of addresses) answers.push((await signUp(address, ip)).status);
    assert.deepEqual(answers, [302, 302, 302, 429], "per client address");
    const refusedPage = await (await signUp(newAddress("e"), ip)).text();
    assert.match(refusedPage, /Too many requests\. Try again in \d+ minutes?\./);
    await Promise.all(addresses.slice(0, 3).map((address) => nextEmail(address)));
    assert.equal(receivedBy(addresses[3]).length, 0, "the refused request sends nothing");
    assert.equal((await counts()).member_sign_ups, before.member_sign_ups + 3, "and stores nothing");

    const target = newAddress("target");
    const perAddress = [];
    for (let i = 0; i < 4; i++) perAddress.push((await signUp(target, clientAddress())).status);
    assert.deepEqual(perAddress, [302, 302, 302, 429], "per address, whatever the client address");

    // Three links and a fourth (asked from elsewhere), all opened from one client address.
    const opener = clientAddress();
    const tokens = [];
    for (const address of [...addresses.slice(0, 3), newAddress("fourth")]) {
      if (!receivedBy(address).length) assert.equal((await signUp(address)).status, 302);
      tokens.push(tokenIn((await nextEmail(address)).mail, "up"));
    }
    const beforeOpening = await counts();
    const opened = [];
    for (const token of tokens) opened.push((await post(`/dashboard/sign-up/${token}`, {}, opener)).status);
    assert.deepEqual(opened, [302, 302, 302, 429]);
    assert.equal((await counts()).merchants, beforeOpening.merchants + 3);
  });
});
