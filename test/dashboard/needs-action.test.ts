// What needs the merchant (server/domain/merchant-actions.ts), on SQLite and PostgreSQL: approved claims its own cart
// pays (the earliest due first, overdue marked, 7 days after the approval), free-look fees to refund (gone once
// confirmed), failing endpoints, a Shopify shop's payouts that gave up (not one still retrying), go-live steps; counts
// beyond the cap; nothing of another merchant or mode. And the team's digest (server/email/action-digest.ts) through a
// real SMTP server on the test clock: two new items within the window make one e-mail, nothing new makes none, the
// window holds a third item back until it has passed, an opted-out member and a developer (not opted in) get none.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import pino from "pino";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { insertClaimRow } from "../support/claim-rows.ts";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp-server.ts";
import { protectOrderHeadless } from "../support/protection-flows.ts";
import { merchantActions, listFeeRefundsToConfirm } from "../../server/domain/merchant-actions.ts";
import {
  chooseActionEmails,
  composeActionDigests,
  DIGEST_INTERVAL_MS,
  memberWantsActionEmails,
  teamActionEmails,
} from "../../server/domain/action-digests.ts";
import { loadTeam } from "../../app/dashboard/pages/team.server.ts";
import { shopifyChannelActions } from "../../app/shopify/channel-actions.server.ts";
import { owePlanFee, confirmFeeRefund } from "../../server/domain/fee-refunds.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { createActionDigestWorker, ACTION_DIGEST_SUBJECT } from "../../server/email/action-digest.ts";
import { DomainError } from "../../server/domain/errors.ts";
import type { Actor } from "../../server/vocabulary/actors.ts";
import { renderDashboardPage } from "../support/dashboard-page.ts";
import { loadOverview } from "../../app/dashboard/pages/overview.server.ts";
import type { PageContext } from "../../app/dashboard/viewer.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(DIALECTS)("needs your action (%s)", (dialect) => {
  let t: TestApi;
  let smtp: TestSmtpServer;
  let sequence = 0;

  beforeAll(async () => {
    [t, smtp] = await Promise.all([startTestApi({ dialect }), startSmtpServer()]);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const db = () => t.database.db;
  const actorOf = (merchant: NewMerchant): Actor => ({ merchantId: merchant.merchantId, mode: "test" });

  async function protect(merchant: NewMerchant) {
    const { confirmation } = await protectOrderHeadless(apiClient(t.baseUrl, merchant.secretKey), merchant.programId, {
      order_amount_cents: 12_345,
      currency: "USD",
      customer_email: "buyer@example.com",
    });
    return { planId: confirmation.plan_id, reference: confirmation.reference_number };
  }

  const approvedClaim = (merchant: NewMerchant, planId: string, approvedAt: number) =>
    insertClaimRow(db(), actorOf(merchant), {
      planId,
      status: "approved",
      decisionCode: "covered",
      decisionMessage: "Approved.",
      amountCents: 4_200,
      at: approvedAt,
    });

  async function owedFee(merchant: NewMerchant, planId: string, shopifyShop = false) {
    await db().transaction((tx) =>
      owePlanFee(tx, t.services, actorOf(merchant), { id: planId, buyerFeeCents: 250, currency: "USD", shopifyShop }),
    );
  }

  async function failingEndpoint(merchant: NewMerchant, since: number) {
    const id = `we_${++sequence}_${randomUUID().slice(0, 8)}`;
    await db().run(
      `INSERT INTO webhook_endpoints (id, merchant_id, mode, url, events, secret_sealed, status, failing_since, created_at, updated_at)
       VALUES (?, ?, 'test', ?, '["*"]', 'sealed', 'failing', ?, ?, ?)`,
      [id, merchant.merchantId, `https://hooks.example.com/${id}`, since, since, since],
    );
    return id;
  }

  async function member(merchant: NewMerchant, role: "owner" | "developer" | "support", status = "active") {
    const id = `mem_${++sequence}_${randomUUID().slice(0, 8)}`;
    const email = `${role}-${sequence}@shop.example.com`;
    await db().run(
      `INSERT INTO merchant_members (id, merchant_id, email, name, role, status, created_at, updated_at)
       VALUES (?, ?, ?, '', ?, ?, ?, ?)`,
      [id, merchant.merchantId, email, role, status, t.clock.now, t.clock.now],
    );
    return { id, email, merchantId: merchant.merchantId };
  }

  const actions = (merchant: NewMerchant, limit = 5, goLive = false) =>
    merchantActions(db(), t.services, actorOf(merchant), { limit, goLive });

  it("lists what needs a merchant on another cart: claims to pay (earliest due first, overdue marked), fees to refund, failing endpoints, go-live steps; capped with counts; none of another merchant", async () => {
    const merchant = await t.createMerchant(`Cart Store ${++sequence}`);
    const other = await t.createMerchant(`Other Store ${++sequence}`);
    assert.deepEqual(await actions(merchant), { total: 0, groups: [] });

    const now = t.clock.now;
    const fresh = await protect(merchant);
    const old = await protect(merchant);
    const cancelled = await protect(merchant);
    const recentClaim = await approvedClaim(merchant, fresh.planId, now - 1 * DAY_MS);
    const overdueClaim = await approvedClaim(merchant, old.planId, now - 8 * DAY_MS);
    await owedFee(merchant, cancelled.planId);
    const endpoint = await failingEndpoint(merchant, now - 4 * DAY_MS);
    // Another merchant's items are not this one's.
    await approvedClaim(other, (await protect(other)).planId, now - 9 * DAY_MS);

    const listed = await actions(merchant);
    assert.deepEqual(
      listed.groups.map((group) => [group.kind, group.count]),
      [
        ["claim_payout", 2],
        ["fee_refund", 1],
        ["webhook_endpoint", 1],
      ],
    );
    assert.equal(listed.total, 4);
    const [claims, fees, endpoints] = listed.groups;
    assert.deepEqual(
      claims.items.map((item) => [item.key, item.overdue, item.dueBy, item.link]),
      [
        [
          `claim_payout:${overdueClaim}:overdue`,
          true,
          new Date(now - 1 * DAY_MS).toISOString().slice(0, 10),
          { page: "claims", sub: `/${overdueClaim}` },
        ],
        [
          `claim_payout:${recentClaim}`,
          false,
          new Date(now + 6 * DAY_MS).toISOString().slice(0, 10),
          { page: "claims", sub: `/${recentClaim}` },
        ],
      ],
    );
    assert.match(claims.items[0].title, new RegExp(`^Claim 1 on ${old.reference}: refund \\$42\\.00$`));
    assert.match(claims.items[0].todo, /^Refund the buyer by .* \(overdue\), then confirm it on the claim\.$/);
    assert.deepEqual(fees.items[0].link, { page: "purchases", sub: `/${cancelled.planId}` });
    assert.match(fees.items[0].title, /fee \$2\.50$/);
    assert.deepEqual(endpoints.items[0].link, { page: "webhooks", sub: `/${endpoint}` });
    // No item's e-mail line carries the endpoint's URL or an internal id.
    for (const item of listed.groups.flatMap((group) => group.items))
      assert.doesNotMatch(item.brief, /https?:|clm_|plan_|we_/);

    // The cap: one of each, with the count of all.
    const capped = await actions(merchant, 1);
    assert.deepEqual(
      capped.groups.map((group) => [group.count, group.items.length]),
      [
        [2, 1],
        [1, 1],
        [1, 1],
      ],
    );

    // Go-live steps while the merchant is not live (the overview asks for them; the digest does not).
    const withGoLive = await actions(merchant, 5, true);
    const goLive = withGoLive.groups.find((group) => group.kind === "go_live")!;
    assert.ok(goLive.count >= 4);
    assert.ok(goLive.items.some((item) => item.title === "Mint a live secret key"));

    // Confirming the fee refund takes it off the list; the refunds page's list agrees.
    assert.equal((await listFeeRefundsToConfirm(db(), actorOf(merchant), 10)).count, 1);
    await db().transaction((tx) =>
      confirmFeeRefund(tx, t.services, actorOf(merchant), cancelled.planId, { reference: "re_1", channel: "merchant" }),
    );
    assert.deepEqual(
      (await actions(merchant)).groups.map((group) => group.kind),
      ["claim_payout", "webhook_endpoint"],
    );
    assert.equal((await listFeeRefundsToConfirm(db(), actorOf(merchant), 10)).count, 0);
    // Another mode has none of them.
    const live = await merchantActions(
      db(),
      t.services,
      { merchantId: merchant.merchantId, mode: "live" },
      { limit: 5, goLive: false },
    );
    assert.equal(live.total, 0);
  });

  it("a Shopify shop: its claims are the app's to pay (not listed) until a payout gives up; a fee refund the app owes is not the merchant's", async () => {
    const shop = `needs-${++sequence}.myshopify.com`;
    const merchant = await db().transaction((tx) =>
      createTestMerchant(tx, t.services, { name: "Shop Store", shopDomain: shop }),
    );
    const plan = await protect(merchant);
    const claimId = await approvedClaim(merchant, plan.planId, t.clock.now - DAY_MS);
    await db().run("UPDATE claims SET remedy = 'refund', payout_error = 'Refund failed: card expired' WHERE id = ?", [
      claimId,
    ]);
    const cancelled = await protect(merchant);
    await owedFee(merchant, cancelled.planId, true);
    // Where the app's payout job got, as the job keeps it on the claim.
    const job = (status: string) =>
      db().run("UPDATE claims SET payout_state = ?, payout_attempts = 3 WHERE id = ?", [status, claimId]);
    // The Shopify app lists them from its tables through the core's port (services.channelActions).
    const withApp = { ...t.services, channelActions: shopifyChannelActions };
    const shopActions = () => merchantActions(db(), withApp, actorOf(merchant), { limit: 5, goLive: false });
    await job("pending");
    assert.deepEqual(await shopActions(), { total: 0, groups: [] }, "retrying: the app's to finish");
    await job("dead");
    assert.deepEqual(
      await actions(merchant),
      { total: 0, groups: [] },
      "no channel's payouts where the app does not run",
    );
    const listed = await shopActions();
    assert.deepEqual(
      listed.groups.map((group) => [group.kind, group.count]),
      [["shopify_payout", 1]],
    );
    assert.equal(listed.groups[0].items[0].key, `shopify_payout:claim:${claimId}`);
    assert.match(listed.groups[0].items[0].todo, /card expired.*Shopify admin/);
  });

  it("the overview's card: nothing needs you; a kind beyond the cap says See all with its link; a kind the role cannot open is left out", async () => {
    const merchant = await t.createMerchant(`Card Store ${++sequence}`);
    const overview = () =>
      loadOverview({
        runtime: { db: db(), services: t.services },
        viewer: { shell: "embedded", merchantId: merchant.merchantId, mode: "test" },
        request: new Request("http://app.test/app"),
      } as unknown as PageContext);
    // The overview page both shells render (the admin's route adds the shop's part around it).
    const render = async (role: "owner" | "support" = "owner") =>
      renderDashboardPage(await overview(), { file: "dashboard._index.tsx", path: "/app" }, role);
    // Not live: the go-live steps (developers and owners open Go live; support does not).
    assert.match(await render("support"), /Nothing needs you right now\./);
    assert.match(await render(), /Go-live steps left/);

    for (let index = 0; index < 6; index++)
      await approvedClaim(merchant, (await protect(merchant)).planId, t.clock.now - index * DAY_MS);
    await failingEndpoint(merchant, t.clock.now - 4 * DAY_MS);
    const owner = await render();
    assert.match(owner, /Approved claims to refund or replace/);
    assert.match(owner, /href="\/app\/claims\?status=approved">See all 6<\/a>/);
    assert.equal((owner.match(/Refund the buyer by /g) ?? []).length, 5, "five of six");
    assert.match(owner, /Failing webhook endpoints/);
    const support = await render("support");
    assert.match(support, /Approved claims to refund or replace/);
    assert.doesNotMatch(support, /Failing webhook endpoints|Go-live steps left/, "pages support cannot open");
  });

  describe("the team's digest", () => {
    const worker = () =>
      createActionDigestWorker({
        db: db(),
        services: t.services,
        logger: pino({ level: "silent" }),
        transport: nodemailer.createTransport(smtp.url),
        from: "Purchase Protection <protection@example.com>",
        dashboardUrl: "https://merchant.example.test/dashboard",
      });
    const digestsTo = (email: string) => smtp.received.filter((received) => received.to.includes(email));

    it("two new items within the window make one e-mail to each member who wants it; nothing new makes none; a third waits for the window; opted out gets none", async () => {
      const merchant = await t.createMerchant(`Digest Store ${++sequence}`);
      const owner = await member(merchant, "owner");
      const optedOut = await member(merchant, "owner");
      const developer = await member(merchant, "developer");
      const optedIn = await member(merchant, "support");
      const invited = await member(merchant, "owner", "invited");
      await chooseActionEmails(db(), t.services, optedOut, { wanted: "off" });
      await chooseActionEmails(db(), t.services, optedIn, { wanted: "on" });
      assert.equal(await memberWantsActionEmails(db(), owner), true, "owners by default");
      assert.equal(await memberWantsActionEmails(db(), developer), false);
      await assert.rejects(
        chooseActionEmails(db(), t.services, owner, { wanted: "maybe" }),
        (error: DomainError) => error.code === "parameter_invalid",
      );
      assert.equal(await memberWantsActionEmails(db(), owner), true, "bad input changes nothing");
      // The Team page says who gets them.
      assert.deepEqual(await teamActionEmails(db(), merchant.merchantId), [owner.id, optedIn.id, invited.id].sort());
      const team = await renderDashboardPage(
        await loadTeam({
          runtime: { db: db(), services: t.services },
          viewer: {
            merchantId: merchant.merchantId,
            mode: "test",
            actor: { id: owner.id, email: owner.email },
            role: "owner",
          },
          request: new Request("http://app.test/dashboard/team"),
        } as unknown as PageContext),
        { file: "dashboard.team.tsx", path: "/dashboard/team" },
      );
      assert.match(team, /E-mails what needs action/);
      assert.equal((team.match(/>Yes</g) ?? []).length, 3);
      assert.equal((team.match(/>No</g) ?? []).length, 2);

      const w = worker();
      await w.runOnce();
      assert.equal(digestsTo(owner.email).length, 0, "nothing needs them: no e-mail");

      const first = await protect(merchant);
      const second = await protect(merchant);
      await approvedClaim(merchant, first.planId, t.clock.now);
      t.clock.advance(10 * 60 * 1000);
      await owedFee(merchant, second.planId);
      await w.runOnce();
      await w.runOnce();
      const [digest, ...more] = digestsTo(owner.email);
      assert.equal(more.length, 0, "one digest for two items");
      assert.equal(digest.mail.subject, ACTION_DIGEST_SUBJECT);
      assert.match(digest.mail.text!, new RegExp(`Claim 1 on ${first.reference}: refund \\$42\\.00 by `));
      assert.match(digest.mail.text!, new RegExp(`${second.reference}: refund the \\$2\\.50 protection fee`));
      assert.match(digest.mail.text!, /https:\/\/merchant\.example\.test\/dashboard/);
      assert.doesNotMatch(digest.mail.text!, /clm_|plan_|mem_/);
      assert.equal(digestsTo(optedIn.email).length, 1, "a support member who opted in");
      for (const none of [optedOut, developer, invited]) assert.equal(digestsTo(none.email).length, 0, none.email);

      // Nothing new, hours later: still one.
      t.clock.advance(DIGEST_INTERVAL_MS + 1);
      await w.runOnce();
      assert.equal(digestsTo(owner.email).length, 1, "nothing new: no e-mail");

      // A new item just after a digest waits for the window, then comes alone.
      await failingEndpoint(merchant, t.clock.now - 3 * DAY_MS);
      const third = await protect(merchant);
      await approvedClaim(merchant, third.planId, t.clock.now);
      await w.runOnce();
      assert.equal(digestsTo(owner.email).length, 2);
      const fourth = await protect(merchant);
      await approvedClaim(merchant, fourth.planId, t.clock.now);
      t.clock.advance(DIGEST_INTERVAL_MS - 60_000);
      await w.runOnce();
      assert.equal(digestsTo(owner.email).length, 2, "within the window: held back");
      t.clock.advance(120_000);
      await w.runOnce();
      const latest = digestsTo(owner.email);
      assert.equal(latest.length, 3);
      assert.match(latest[2].mail.text!, new RegExp(`Claim 1 on ${fourth.reference}`));
      assert.doesNotMatch(latest[2].mail.text!, new RegExp(`${first.reference}|${third.reference}`), "told once");
      assert.match(latest[2].mail.text!, /Approved claims to refund or replace \(1 new, 3 in all\)/);

      // A week on, the claims still unpaid are overdue: told once more, marked so.
      t.clock.advance(7 * DAY_MS);
      await w.runOnce();
      await w.runOnce();
      const reminders = digestsTo(owner.email);
      assert.equal(reminders.length, 4);
      assert.match(reminders[3].mail.text!, /Approved claims to refund or replace \(3 new, 3 in all\)/);
      assert.match(
        reminders[3].mail.text!,
        new RegExp(`Claim 1 on ${first.reference}: refund \\$42\\.00 by .* \\(overdue\\)`),
      );
    });

    it("a digest whose member opted out before it was sent is skipped; a refused send is retried", async () => {
      const merchant = await t.createMerchant(`Retry Store ${++sequence}`);
      const owner = await member(merchant, "owner");
      await approvedClaim(merchant, (await protect(merchant)).planId, t.clock.now);
      const w = worker();
      smtp.refuse(1);
      await w.runOnce();
      assert.equal(digestsTo(owner.email).length, 0);
      const [row] = await db().all<{ status: string; attempts: number | string }>(
        "SELECT status, attempts FROM member_action_digests WHERE member_id = ?",
        [owner.id],
      );
      assert.deepEqual([row.status, Number(row.attempts)], ["pending", 1]);
      t.clock.advance(60_000);
      await w.runOnce();
      assert.equal(digestsTo(owner.email).length, 1, "sent on the retry");

      const quitter = await member(merchant, "owner");
      t.clock.advance(60_000);
      // Queued for the quitter, who opts out before the send: composing and sending in separate rounds.
      assert.equal(await composeActionDigests(db(), t.services), 1);
      await chooseActionEmails(db(), t.services, quitter, { wanted: "off" });
      await w.runOnce();
      assert.equal(digestsTo(quitter.email).length, 0);
      const [skipped] = await db().all<{ status: string }>(
        "SELECT status FROM member_action_digests WHERE member_id = ?",
        [quitter.id],
      );
      assert.equal(skipped.status, "skipped");
    });
  });
});
