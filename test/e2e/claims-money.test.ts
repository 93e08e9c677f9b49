// Issue "deciding and paying claims" end to end, through the servers a buyer, the claims team and a merchant use: the
// web app's real process (`npm start` over the build: the API at /api/v1, the portal API, the claims console at /ops,
// the e-mail worker sending to a real SMTP server, the webhook worker posting to the merchant's endpoint) and, for the
// Shopify shop, the app's Shopify side in this process (its webhook route on loopback, where orders/create is posted
// signed as Shopify signs it; the payout jobs against the fake Admin API), both on one database.
//   1. Shopify orders: protected by orders/create; their buyers file claims in the portal (with a photo) — one the
//      program's rules approve at filing, one (another reason) a reviewer approves in the console — the payout jobs
//      refund each through refundCreate on its order's sale, the claims are paid, each buyer got an e-mail at each
//      step, the merchant's endpoint got claim.created/claim.updated in order, and the next statement shows the money.
//   2. Another cart: quote and confirm with the secret key, a claim reviewed in the console, confirmed paid through
// the resolution route; and a refund report's fee-share credit on the statement.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { DIALECTS } from "../support/databases.ts";
import { startShopifyApp, type ShopifyAppHarness } from "../support/shopify-app.ts";
import { startWebApp, type WebAppProcess } from "../support/web-app.ts";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp-server.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { variablesOf, webhookHeaders } from "../support/shopify.ts";
import { waitFor } from "../support/wait.ts";
import { PNG_BYTES } from "../portal/support.ts";
import { GATEWAY, protectedPaidOrder as paidShopifyOrder, setRules } from "../app/shopify-claim-payout-support.ts";
import type { Services } from "../../server/domain/context.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { createTestMerchant, mintApiKey, type NewMerchant } from "../../server/domain/merchants.ts";
import { closeEndedPeriods, periodContaining, SETTLEMENT_GRACE_MS } from "../../server/domain/settlements.ts";
import { ensureStaffAccount } from "../../server/domain/staff.ts";

const SHOP = "e2e-claims.myshopify.com";
const REVIEWER = `reviewer-${process.pid}@claims.example.com`;
/** What the web app's process must not inherit: without the Shopify ones it runs no Shopify side (this process does). */
const NOT_INHERITED = [
  "SHOPIFY_API_KEY",
  "SHOPIFY_API_SECRET",
  "SHOPIFY_APP_URL",
  "SCOPES",
  "HOST",
  "DEMO",
  "PORTAL_URL",
];

interface ApiAnswer {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire's JSON, asserted field by field
  body: any;
  headers: Headers;
}

interface StatementEntry {
  id: string;
  kind: string;
  amountCents: number;
  sourceId: string;
  planId: string | null;
  createdAt: string;
}

describe.each(DIALECTS)("claims paid end to end, with the money on the statement (%s)", (dialect) => {
  let app: ShopifyAppHarness;
  let web: WebAppProcess;
  /** The Shopify side's webhook route on loopback, where Shopify posts. */
  let shopifyOrigin: string;
  let shopifyServer: ReturnType<typeof serve>;
  let smtp: TestSmtpServer;
  let receiver: Receiver;
  let services: Services;
  /** The reviewer's console session cookie, signed in through the e-mailed link. */
  let consoleCookie: string;

  beforeAll(async () => {
    [smtp, receiver] = await Promise.all([startSmtpServer(), startReceiver()]);
    // Only the web app's process sends e-mails and webhooks: what it sends is what users get.
    app = await startShopifyApp({
      dialect,
      shops: [SHOP],
      env: { EMAIL_WORKER: "off", WEBHOOK_WORKER: "off", SMTP_URL: smtp.url },
    });
    await app.install(SHOP);
    shopifyServer = serve({ fetch: app.handle, port: 0, hostname: "127.0.0.1" });
    await once(shopifyServer, "listening");
    shopifyOrigin = `http://127.0.0.1:${(shopifyServer.address() as AddressInfo).port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // The same database and data directory (its key unseals the buyers' addresses the Shopify side sealed).
      DATABASE_URL: app.database.url,
      DATA_DIR: process.env.DATA_DIR,
      LOG_LEVEL: "info",
      SMTP_URL: smtp.url,
      EMAIL_WORKER: "on",
      WEBHOOK_WORKER: "on",
      WEBHOOK_ALLOW_PRIVATE_URLS: "on",
      EDGE_LIMITS: "off",
    };
    for (const name of NOT_INHERITED) delete env[name];
    web = await startWebApp(env);
    services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "E2E Guarantees", portalUrl: `${web.origin}/portal` },
    };
    await app.database.db.transaction((tx) =>
      ensureStaffAccount(tx, services, { email: REVIEWER, role: "reviewer" }, "test"),
    );
    consoleCookie = await signInToConsole();
  }, 300_000);

  afterAll(async () => {
    await web?.stop();
    shopifyServer?.close();
    await app?.close();
    await receiver?.close();
    await smtp?.close();
  });

  const db = () => app.database.db;

  async function api(
    method: string,
    pathname: string,
    options: { key?: string; json?: unknown; form?: FormData } = {},
  ): Promise<ApiAnswer> {
    const headers: Record<string, string> = {};
    if (options.key) headers.Authorization = `Bearer ${options.key}`;
    if (method === "POST") headers["Idempotency-Key"] = randomUUID();
    if (options.json !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(`${web.origin}/api/v1${pathname}`, {
      method,
      headers,
      body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
    });
    const text = await response.text();
    const json = response.headers.get("content-type")?.includes("json");
    return {
      status: response.status,
      text,
      body: json && text ? JSON.parse(text) : undefined,
      headers: response.headers,
    };
  }

  async function ok(answer: Promise<ApiAnswer>): Promise<ApiAnswer> {
    const done = await answer;
    assert.equal(done.status, 200, done.text);
    return done;
  }

  /** Asks for a sign-in link on the console's page, opens the e-mailed link and presses "Sign in". */
  async function signInToConsole(): Promise<string> {
    const asked = await fetch(`${web.origin}/ops/sign-in`, {
      method: "POST",
      headers: { Origin: web.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: REVIEWER }),
      redirect: "manual",
    });
    assert.equal(asked.status, 302);
    const mail = await waitFor(() => smtp.received.find((received) => received.to.includes(REVIEWER)), {
      timeoutMs: 15_000,
      what: "the console's sign-in e-mail",
    });
    const token = mail.mail.text?.match(/\/ops\/sign-in\/([\w-]{43})/)?.[1];
    assert.ok(token, "the e-mail carries the sign-in link");
    const link = `${web.origin}/ops/sign-in/${token}`;
    assert.equal((await fetch(link)).status, 200);
    const signedIn = await fetch(link, {
      method: "POST",
      headers: { Origin: web.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
      redirect: "manual",
    });
    assert.equal(signedIn.status, 302);
    assert.equal(signedIn.headers.get("location"), "/ops");
    const cookie = signedIn.headers.getSetCookie().find((value) => value.startsWith("ops_session="));
    assert.ok(cookie, "the session cookie is set");
    return cookie.split(";")[0];
  }

  /** The reviewer opens the claim in the console and approves a refund with a note (the page's form, as sent). */
  async function approveInConsole(claimId: string, note: string) {
    const page = await fetch(`${web.origin}/ops/claims/${claimId}`, { headers: { Cookie: consoleCookie } });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Approve the claim/, "the console offers the approval");
    assert.match(html, /parcel\.png/, "with the buyer's photo");
    const posted = await fetch(`${web.origin}/ops/claims/${claimId}`, {
      method: "POST",
      headers: {
        Cookie: consoleCookie,
        Origin: web.origin,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ action: "approve", remedy: "refund", "approve-note": note }),
      redirect: "manual",
    });
    assert.equal(posted.status, 302, await posted.text());
    assert.equal(posted.headers.get("location"), `/ops/claims/${claimId}?notice=approve`);
    const audit = await db().all<{ action: string; staff_email: string; ip: string }>(
      "SELECT action, staff_email, ip FROM staff_audit_log WHERE subject = ?",
      [claimId],
    );
    assert.deepEqual(audit, [{ action: "claim.approved", staff_email: REVIEWER, ip: "127.0.0.1" }]);
  }

  /** An order of 120.00 of goods with the protection line, posted to the app signed as Shopify does; then paid. */
  const protectedPaidOrder = () =>
    paidShopifyOrder(app, SHOP, async (order) => {
      const body = JSON.stringify(order);
      const delivered = await fetch(`${shopifyOrigin}/webhooks/orders/create`, {
        method: "POST",
        headers: webhookHeaders({ shop: SHOP, topic: "orders/create" }, body),
        body,
      });
      assert.equal(delivered.status, 200, await delivered.text());
      return delivered.status;
    });

  /** The buyer signs in to the portal with e-mail + reference number and files a claim with a photo. */
  async function fileWithPhoto(
    buyer: { email: string; referenceNumber: string },
    claim: { reason: string; amountCents: number; description: string },
  ) {
    const lookup = await ok(
      api("POST", "/portal/lookup", { json: { email: buyer.email, referenceNumber: buyer.referenceNumber } }),
    );
    const form = new FormData();
    form.append("referenceNumber", buyer.referenceNumber);
    form.append("reason", claim.reason);
    form.append("occurredAt", new Date().toISOString().slice(0, 10));
    form.append("description", claim.description);
    form.append("amountCents", String(claim.amountCents));
    form.append("evidence", new Blob([PNG_BYTES as Uint8Array<ArrayBuffer>], { type: "image/png" }), "parcel.png");
    const filed = await ok(api("POST", "/portal/claims", { key: lookup.body.portalToken, form }));
    return filed.body as { id: string; status: string };
  }

  const claimRow = async (claimId: string) =>
    (await db().get<{
      status: string;
      decided_by: string | null;
      paid_amount_cents: number | string;
      resolution: string | null;
    }>("SELECT status, decided_by, paid_amount_cents, resolution FROM claims WHERE id = ?", [claimId]))!;

  /** Waits for the buyer's e-mails with these subjects (each as many times as listed); resolves with their texts. */
  async function buyerEmails(email: string, subjects: string[]) {
    const wanted = [...subjects].sort();
    const subjectsTo = () =>
      smtp.received
        .filter((received) => received.to.includes(email))
        .map((received) => received.mail.subject ?? "")
        .sort();
    try {
      await waitFor(() => subjectsTo().length >= wanted.length, { timeoutMs: 20_000, intervalMs: 100 });
    } catch {
      assert.fail(`the e-mails to ${email}: got ${JSON.stringify(subjectsTo())}, want ${JSON.stringify(wanted)}`);
    }
    assert.deepEqual(subjectsTo(), wanted);
    return smtp.received
      .filter((received) => received.to.includes(email))
      .map((received) => ({ subject: received.mail.subject!, text: received.mail.text ?? "" }));
  }

  /** Closes the period that holds now (a clock just past its end and the grace) and returns its statement. */
  async function closedStatement(secretKey: string) {
    const { end } = periodContaining("weekly", Date.now());
    const open = await ok(api("GET", "/settlements", { key: secretKey }));
    assert.deepEqual(open.body.data, [], "no statement while the period is open");
    await closeEndedPeriods(db(), { ...services, clock: () => end + SETTLEMENT_GRACE_MS + 1 });
    const listed = await ok(api("GET", "/settlements", { key: secretKey }));
    assert.equal(listed.body.data.length, 1, "one statement: the period that closed");
    const statement = (await ok(api("GET", `/settlements/${listed.body.data[0].id}`, { key: secretKey }))).body;
    assert.equal(statement.periodEnd, new Date(end).toISOString());
    const entries: StatementEntry[] = statement.entries;
    assert.equal(statement.entryCount, entries.length);
    assert.equal(
      statement.netCents,
      entries.reduce((sum, entry) => sum + entry.amountCents, 0),
      "the net is the sum of the entries",
    );
    assert.equal(statement.closingBalanceCents, statement.openingBalanceCents + statement.netCents);
    const csv = await api("GET", `/settlements/${statement.id}/entries.csv`, { key: secretKey });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-type")!, /^text\/csv/);
    const rows = csv.text.trimEnd().split("\r\n");
    assert.equal(rows[0], "entry_id,created_at,kind,amount_cents,currency,source_id,plan_id,note");
    assert.deepEqual(
      rows.slice(1).map((row) => row.split(",")),
      entries.map((entry) => [
        entry.id,
        entry.createdAt,
        entry.kind,
        String(entry.amountCents),
        statement.currency,
        entry.sourceId,
        entry.planId ?? "",
        "",
      ]),
      "one CSV row per entry",
    );
    return { statement, entries };
  }

  it("Shopify orders: a claim auto-approved at filing, another approved in the console; each refunded once through refundCreate, paid, e-mailed at each step and announced in order; the statement shows the money", async () => {
    // Two protected, paid orders of the shop, by two buyers.
    const first = await protectedPaidOrder();
    const second = await protectedPaidOrder();
    const actor = { merchantId: first.plan.merchant_id, mode: first.plan.mode };
    // The merchant's secret key (shown once in the dashboard) and its webhook endpoint.
    const secretKey = (await db().transaction((tx) => mintApiKey(tx, services, actor, "secret"))).key;
    const endpoint = await ok(
      api("POST", "/webhooks/endpoints", {
        key: secretKey,
        json: { url: receiver.url, events: ["claim.created", "claim.updated"] },
      }),
    );
    assert.ok(endpoint.body.id);
    // "Not delivered" claims up to 50.00 are approved at filing.
    await setRules(app, first.plan, {
      autoApprove: { maxAmountCentsByCurrency: { USD: 5_000 }, reasons: ["lost_in_transit"] },
    });
    const buyerOf = ({ order, plan }: typeof first) => ({
      email: order.email as string,
      referenceNumber: plan.reference_number,
    });

    const automatic = await fileWithPhoto(buyerOf(first), {
      reason: "lost_in_transit",
      amountCents: 3_000,
      description: "The tracking stopped a week ago.",
    });
    assert.equal(automatic.status, "approved", "the rules approved it at filing");
    assert.equal((await claimRow(automatic.id)).decided_by, "rule:auto_approve");

    const reviewed = await fileWithPhoto(buyerOf(second), {
      reason: "damaged_in_transit",
      amountCents: 4_000,
      description: "The vase arrived broken.",
    });
    assert.equal(reviewed.status, "submitted", "no rule decides a damaged parcel: it waits in the queue");
    await approveInConsole(reviewed.id, "The photo shows the breakage.");
    const approved = await claimRow(reviewed.id);
    assert.equal(approved.status, "approved");
    assert.match(approved.decided_by ?? "", /^staff:stf_/);

    // The app's periodic look queues one payout job per approved claim; the jobs refund on Shopify.
    const { queueApprovedClaimPayouts } = await import("../../app/shopify/claim-payouts.server.ts");
    const refundCallsOf = () => app.admin.calls.filter((call) => call.operationName === "RefundClaim");
    const refundsBefore = refundCallsOf().length;
    assert.equal(await queueApprovedClaimPayouts(app.runtime().deps), 2);
    await app.settled();
    assert.equal(await queueApprovedClaimPayouts(app.runtime().deps), 0, "paid claims are not queued again");
    const refundCalls = refundCallsOf().slice(refundsBefore);
    assert.equal(refundCalls.length, 2, "exactly one refundCreate per claim");
    for (const [claimId, { order, sale }, amount] of [
      [automatic.id, first, "30.00"],
      [reviewed.id, second, "40.00"],
    ] as const) {
      const calls = refundCalls.filter(
        (call) => variablesOf(call, "RefundClaim").input.orderId === order.admin_graphql_api_id,
      );
      assert.equal(calls.length, 1, `one refund for ${claimId}`);
      const { input } = variablesOf(calls[0], "RefundClaim");
      assert.match(input.note ?? "", new RegExp(`claim ${claimId} refunded$`));
      assert.deepEqual(
        input.transactions.map(({ parentId, gateway, kind, amount: refunded }) => ({
          parentId,
          gateway,
          kind,
          amount: refunded,
        })),
        [{ parentId: sale.id, gateway: GATEWAY, kind: "REFUND", amount }],
        "the claim's amount, against the order's sale",
      );
      const refund = app.admin.refunds.find((candidate) => candidate.input.orderId === order.admin_graphql_api_id)!;
      assert.match(refund.id, /^gid:\/\/shopify\/Refund\/\d+$/);
      const row = await claimRow(claimId);
      assert.equal(row.status, "paid");
      assert.equal(Number(row.paid_amount_cents), Math.round(Number(amount) * 100));
      assert.equal(JSON.parse(row.resolution!).reference, refund.id);
      const shown = await ok(api("GET", `/merchant/claims/${claimId}`, { key: secretKey }));
      assert.equal(shown.body.status, "paid");
      assert.deepEqual(
        {
          channel: shown.body.resolution.channel,
          status: shown.body.resolution.status,
          reference: shown.body.resolution.reference,
        },
        { channel: "shopify", status: "done", reference: refund.id },
      );
      assert.equal(shown.body.decision.decidedBy, claimId === automatic.id ? "rule" : "claims_team");
    }

    // Each buyer was e-mailed at each step: protected, claim received, decided (approved, with its reason), paid.
    for (const [{ order, plan }, amount] of [
      [first, "$30.00"],
      [second, "$40.00"],
    ] as const) {
      const reference = plan.reference_number;
      const mails = await buyerEmails(order.email as string, [
        `Your purchase protection is active: ${reference}`,
        `We received your refund request: ${reference}`,
        `Decision on your refund request: ${reference}`,
        `Your refund has been paid: ${reference}`,
      ]);
      const decision = mails.find((mail) => mail.subject.startsWith("Decision"))!;
      assert.match(decision.text, /has been approved/);
      assert.match(decision.text, /Why: What happened is covered by your plan/);
      assert.doesNotMatch(decision.text, /\(covered\)|clm_/, "never the code or the claim's id");
      const paidMail = mails.find((mail) => mail.subject.startsWith("Your refund"))!;
      assert.ok(
        paidMail.text.includes(`Your refund of ${amount} for claim 1 on ${reference} has been paid.`),
        paidMail.text,
      );
      assert.match(paidMail.text, /went back automatically to the payment method you used/);
    }

    // The merchant's endpoint got each claim's events in the order they happened.
    const statusesOf = (claimId: string) =>
      receiver.received
        .filter((received) => (received.event.data.object as { id?: string }).id === claimId)
        .map((received) => `${received.event.type}:${(received.event.data.object as { status: string }).status}`);
    await waitFor(
      () =>
        statusesOf(reviewed.id).includes("claim.updated:paid") &&
        statusesOf(automatic.id).includes("claim.updated:paid"),
      { timeoutMs: 15_000, what: "the claims' webhooks" },
    );
    for (const claimId of [automatic.id, reviewed.id])
      assert.deepEqual(statusesOf(claimId), [
        "claim.created:submitted",
        "claim.updated:approved",
        "claim.updated:paid",
      ]);
    const sequence = receiver.received.map((received) => received.event.created);
    assert.deepEqual(
      sequence,
      [...sequence].sort((a, b) => a - b),
      "delivered in the order they happened",
    );

    // The period closes: its statement has each plan's fee and the merchant's share, and both reimbursements.
    const { statement, entries } = await closedStatement(secretKey);
    assert.deepEqual(
      entries.map((entry) => `${entry.kind}:${entry.sourceId}`).sort(),
      [
        `claim_reimbursement:${automatic.id}`,
        `claim_reimbursement:${reviewed.id}`,
        `fee_collected:${first.plan.id}`,
        `fee_collected:${second.plan.id}`,
        `merchant_fee_share:${first.plan.id}`,
        `merchant_fee_share:${second.plan.id}`,
      ].sort(),
    );
    const amountOf = (kind: string, sourceId: string) =>
      entries.find((entry) => entry.kind === kind && entry.sourceId === sourceId)!.amountCents;
    let fees = 0;
    for (const { plan } of [first, second]) {
      assert.equal(amountOf("fee_collected", plan.id), -plan.fee_cents);
      const share = amountOf("merchant_fee_share", plan.id);
      assert.ok(share > 0 && share < plan.fee_cents, "the merchant keeps a share of the fee");
      fees += share - plan.fee_cents;
    }
    assert.equal(amountOf("claim_reimbursement", automatic.id), 3_000);
    assert.equal(amountOf("claim_reimbursement", reviewed.id), 4_000);
    assert.equal(statement.totals.claim_reimbursement, 7_000);
    assert.equal(statement.netCents, 7_000 + fees);
    assert.equal(statement.direction, "payable_to_merchant");
  });

  it("another cart: quote and confirm with the secret key, a claim approved in the console and confirmed paid through the resolution route; a refund report's credit; both on the statement", async () => {
    const merchant: NewMerchant = await db().transaction((tx) =>
      createTestMerchant(tx, services, { name: "Harbour Lane Ceramics" }),
    );
    const key = merchant.secretKey;
    async function confirmOrder(email: string) {
      const orderId = `e2e-order-${randomUUID()}`;
      const quote = await ok(
        api("POST", "/headless/quote", {
          key,
          json: {
            order_amount_cents: 8_000,
            order_id: orderId,
            protection_program_id: merchant.programId,
            customer_email: email,
          },
        }),
      );
      const confirmed = await ok(api("POST", "/headless/confirm", { key, json: { quote_id: quote.body.quote_id } }));
      return {
        orderId,
        referenceNumber: confirmed.body.reference_number as string,
        planId: confirmed.body.plan_id as string,
      };
    }

    const email = `buyer-${randomUUID()}@example.com`;
    const claimed = await confirmOrder(email);
    const refunded = await confirmOrder(`buyer-${randomUUID()}@example.com`);

    const claim = await fileWithPhoto(
      { email, referenceNumber: claimed.referenceNumber },
      { reason: "damaged_in_transit", amountCents: 2_500, description: "The lid arrived cracked." },
    );
    assert.equal(claim.status, "submitted", "the default rules decide nothing");
    await approveInConsole(claim.id, "Refund the lid.");

    // The approved claim tells the merchant what to do: refund 25.00 through its own channel.
    const pending = await ok(api("GET", `/merchant/claims/${claim.id}`, { key }));
    assert.equal(pending.body.status, "approved");
    assert.deepEqual(
      {
        remedy: pending.body.resolution.remedy,
        amountCents: pending.body.resolution.amountCents,
        channel: pending.body.resolution.channel,
        status: pending.body.resolution.status,
      },
      { remedy: "refund", amountCents: 2_500, channel: "merchant", status: "pending" },
    );
    const resolved = await ok(
      api("POST", `/merchant/claims/${claim.id}/resolution`, {
        key,
        json: { kind: "refund", reference: "RF-2041" },
      }),
    );
    assert.equal(resolved.body.status, "paid");
    assert.equal(resolved.body.resolution.reference, "RF-2041");
    assert.equal(resolved.body.resolution.status, "done");
    const again = await ok(
      api("POST", `/merchant/claims/${claim.id}/resolution`, { key, json: { kind: "refund", reference: "RF-2041" } }),
    );
    assert.deepEqual(again.body, resolved.body, "a second confirmation changes nothing");

    const report = await ok(api("POST", `/orders/${refunded.orderId}/refund`, { key, json: {} }));
    assert.ok(report.body.settlementCredit.amountCents > 0);

    await buyerEmails(email, [
      `Your purchase protection is active: ${claimed.referenceNumber}`,
      `We received your refund request: ${claimed.referenceNumber}`,
      `Decision on your refund request: ${claimed.referenceNumber}`,
      `Your refund has been paid: ${claimed.referenceNumber}`,
    ]);

    const { statement, entries } = await closedStatement(key);
    const reimbursements = entries.filter((entry) => entry.kind === "claim_reimbursement");
    assert.deepEqual(
      reimbursements.map((entry) => [entry.sourceId, entry.amountCents]),
      [[claim.id, 2_500]],
    );
    const credits = entries.filter((entry) => entry.kind === "merchant_refund_credit");
    const shareOf = (planId: string) =>
      entries.find((entry) => entry.kind === "merchant_fee_share" && entry.planId === planId)!.amountCents;
    assert.deepEqual(
      credits.map((entry) => [entry.planId, entry.amountCents]),
      [[refunded.planId, shareOf(refunded.planId)]],
      "the refund report credits the plan's fee share",
    );
    assert.equal(credits[0].amountCents, report.body.settlementCredit.amountCents);
    assert.equal(entries.filter((entry) => entry.kind === "fee_collected").length, 2, "each plan's fee once");
    assert.equal(statement.totals.merchant_refund_credit, credits[0].amountCents);
    assert.equal(statement.totals.claim_reimbursement, 2_500);
  });
});
