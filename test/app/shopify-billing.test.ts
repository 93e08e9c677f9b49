// Charges through Shopify's Billing API, over the app's real wiring and the fake Admin API's billing
// (test/support/shopify-billing.ts): the usage subscription created at install and approved by the merchant (a
// development store's is a test one), go-live refused until it is active, one usage record per closed live statement
// the merchant owes (once, however often its job runs), a credit carried forward and netted, a charge past the cap
// waiting until the merchant approves a raised one, and a cancelled subscription pausing new live protection (test mode
// unaffected) without losing what is owed. Statements are closed by the settlements worker's own function over ledger
// entries stamped in past weeks.
import { it, beforeAll } from "vitest";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import {
  appSubscriptionsUpdatePayload,
  closeLiveWeek,
  makeShopLive,
  WEEK_MS,
  type FakeSubscription,
} from "../support/shopify-billing.ts";
import { mintKeyPair } from "../../server/domain/merchants.ts";
import { periodContaining } from "../../server/domain/settlements.ts";
import { insertStatementCharge } from "../../app/shopify/store/billing.ts";
import { ServiceHttpError } from "../../packages/sdk/src/index.ts";
import { DomainError } from "../../server/domain/errors.ts";
import { adminOverview, adminRequest, adminShopOverview, callRoute } from "../support/admin-routes.ts";
import { renderDashboardPage } from "../support/dashboard-page.ts";

const SHOP = "billed-goods.myshopify.com";
const DEV_SHOP = "dev-goods.myshopify.com";

describeShopifyApp(
  "Shopify app (%s): charges through Shopify's Billing API",
  { shops: [SHOP, DEV_SHOP], installed: [], inOrder: true },
  (app) => {
    let billing: typeof import("../../app/shopify/billing.server.ts");
    let goLive: typeof import("../../app/shopify/go-live.server.ts");
    let merchantId: string;
    /**
     * Each step's entries go in a week of their own, the next after the last; the statement closer runs with a clock
     * past that week's end (it closes what has ended by its clock).
     */
    const firstWeek = periodContaining("weekly", Date.now()).end;
    let week = 0;

    beforeAll(async () => {
      app.admin.billing.setShop(DEV_SHOP, { partnerDevelopment: true });
      await app.install(SHOP);
      billing = await import("../../app/shopify/billing.server.ts");
      goLive = await import("../../app/shopify/go-live.server.ts");
      merchantId = (await db().get<{ merchant_id: string }>(
        "SELECT merchant_id FROM shop_installations WHERE shop = ?",
        [SHOP],
      ))!.merchant_id;
    });

    const db = () => app.database.db;
    const deps = () => app.runtime().deps;
    const subscriptionRow = (shop = SHOP) =>
      db().get<{ subscription_id: string; status: string; confirmation_url: string | null; test: unknown }>(
        "SELECT * FROM shopify_subscriptions WHERE shop = ?",
        [shop],
      );
    const fakeSubscription = (id: string) => app.admin.billing.subscriptions.find((s) => s.id === id)!;
    const notify = (subscription: FakeSubscription) =>
      app.deliver({
        topic: "app_subscriptions/update",
        shop: subscription.shop,
        payload: appSubscriptionsUpdatePayload(subscription),
      });
    const charges = () =>
      db().all<{
        statement_id: string;
        balance_cents: number;
        amount_cents: number;
        carried_forward_cents: number;
        status: string;
        usage_record_id: string | null;
      }>("SELECT * FROM shopify_statement_charges WHERE shop = ? ORDER BY statement_id", [SHOP]);
    const usageCalls = () => app.admin.calls.filter((call) => call.operationName === "AppUsageRecordCreate");
    /** The overview's action in the Shopify admin, as App Bridge posts it. */
    const overviewAction = async (intent: string) => {
      const route = await import("../../app/routes/app._index.tsx");
      return callRoute(route.action, adminRequest("/app", SHOP, { intent }));
    };
    /** The statement's page in the Shopify admin, and its CSV's lines. */
    const statementPage = async (statementId: string) => {
      const page = await import("../../app/routes/app.settlements_.$id.tsx");
      const csv = await import("../../app/routes/app.settlements_.$id.entries[.csv].ts");
      const { data } = await callRoute<{ shopifyCharge: Record<string, unknown> | null }>(
        page.loader,
        adminRequest(`/app/settlements/${statementId}`, SHOP),
      );
      const response = (await csv.loader({
        request: adminRequest(`/app/settlements/${statementId}/entries.csv`, SHOP),
        params: {},
        context: {},
      })) as Response;
      return { charge: data.shopifyCharge, csvLines: (await response.text()).trimEnd().split("\r\n") };
    };

    /** Live ledger entries of the next week, then that week's statement closed and charged. */
    async function closeWeek(amountsCents: number[]): Promise<string> {
      const weekStart = firstWeek + week++ * WEEK_MS;
      const statementId = await closeLiveWeek(db(), deps().services, { merchantId, weekStart, amountsCents });
      await billing.chargeClosedStatements(deps());
      await app.settled();
      return statementId;
    }

    it("install creates a pending usage subscription (cap, terms naming the fee share, return URL); go-live is refused until the merchant approves it", async () => {
      const created = app.admin.calls.filter((call) => call.operationName === "AppSubscriptionCreate");
      assert.equal(created.length, 1);
      const variables = created[0].variables as {
        name: string;
        returnUrl: string;
        test: boolean;
        lineItems: { plan: { appUsagePricingDetails: { cappedAmount: { amount: string }; terms: string } } }[];
      };
      assert.equal(variables.test, false);
      assert.equal(variables.returnUrl, `https://${SHOP}/admin/apps/purchase-protection`);
      const usage = variables.lineItems[0].plan.appUsagePricingDetails;
      assert.equal(usage.cappedAmount.amount, "1000.00");
      assert.match(usage.terms, /less your 20 % share/);
      const row = (await subscriptionRow())!;
      assert.equal(row.status, "PENDING");
      assert.equal(row.confirmation_url, fakeSubscription(row.subscription_id).confirmationUrl);
      // The overview asks for the approval, with a link out of the admin's iframe to Shopify's confirmation page.
      const overview = await adminOverview(SHOP);
      assert.equal(overview.shop.billing.subscription!.status, "PENDING");
      const html = await renderDashboardPage(overview);
      assert.ok(html.includes("Approve the app&#x27;s usage charges"));
      assert.ok(html.includes(`href="${row.confirmation_url}"`) && html.includes('target="_top"'));

      const before = await db().get("SELECT mode, program_id FROM shop_installations WHERE shop = ?", [SHOP]);
      await assert.rejects(
        goLive.goLiveShop(
          deps(),
          SHOP,
          { merchantId, mode: "test", actor: { id: "shopify:42", email: "" }, ip: "127.0.0.1" },
          { confirmationEmail: "yes" },
        ),
        (error: unknown) => error instanceof DomainError && error.code === "billing_not_active",
      );
      assert.deepEqual(
        await db().get("SELECT mode, program_id FROM shop_installations WHERE shop = ?", [SHOP]),
        before,
      );

      // The merchant approves at the confirmation URL; Shopify reports it.
      assert.equal(await notify(app.admin.billing.approve(row.confirmation_url!)), 200);
      await app.settled();
      const active = (await subscriptionRow())!;
      assert.equal(active.status, "ACTIVE");
      assert.equal(active.confirmation_url, null);
      await makeShopLive(db(), deps().services, SHOP, merchantId);
    });

    it("a development store's subscription is a test one (Shopify charges nothing for it)", async () => {
      await app.install(DEV_SHOP);
      const row = (await subscriptionRow(DEV_SHOP))!;
      assert.ok(Boolean(row.test));
      assert.equal(fakeSubscription(row.subscription_id).test, true);
    });

    it("a statement the merchant owes becomes one usage record, keyed by the statement, even when the answer is lost and the job runs again; what was settled before billing is not charged", async () => {
      const { deps: runtimeDeps, queue } = app.runtime();
      app.admin.loseNextResponse("AppUsageRecordCreate");
      // A statement closed before billing existed (the migration marks it): what it carries was settled outside
      // Shopify and is not charged again.
      const weekStart = firstWeek + week++ * WEEK_MS;
      const before = await closeLiveWeek(db(), deps().services, { merchantId, weekStart, amountsCents: [-5_000] });
      const now = Date.now();
      await insertStatementCharge(db(), {
        statementId: before,
        shop: SHOP,
        merchantId,
        currency: "USD",
        balanceCents: -5_000,
        amountCents: 0,
        carriedForwardCents: 0,
        status: "before_billing",
        usageRecordId: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
      });
      const statementId = await closeWeek([-40_000]);
      const [charge] = (await charges()).filter((row) => row.statement_id === statementId);
      assert.equal(charge.amount_cents, 40_000);
      assert.equal(charge.status, "pending", "the answer was lost: not recorded as charged");
      // The retry, without waiting for the backoff.
      await db().run("UPDATE shopify_jobs SET run_at = 0 WHERE kind = 'charge_statement' AND subject = ?", [
        statementId,
      ]);
      await queue.runDue();
      await app.settled();
      const records = app.admin.billing.usageRecords.filter(
        (record) => record.idempotencyKey === `statement:${statementId}`,
      );
      assert.equal(records.length, 1, "Shopify made one record for the statement");
      assert.equal(usageCalls().length, 2);
      assert.deepEqual(records[0].price, { amount: "400.00", currencyCode: "USD" });
      const charged = (await charges()).find((row) => row.statement_id === statementId)!;
      assert.equal(charged.status, "charged");
      assert.equal(charged.usage_record_id, records[0].id);
      // A second scan finds nothing more to charge.
      assert.equal(await billing.chargeClosedStatements(runtimeDeps), 0);
      assert.equal(usageCalls().length, 2);
      // The statement shows its Shopify charge (id, amount, status), on its page and as its CSV's last row.
      const { charge: shown, csvLines } = await statementPage(statementId);
      assert.deepEqual(shown, {
        status: "charged",
        amountCents: 40_000,
        carriedForwardCents: 0,
        currency: "USD",
        usageRecordId: records[0].id,
        lastError: null,
      });
      assert.equal(csvLines.length, 3, "header, the entry, the charge");
      assert.equal(
        csvLines[2],
        `${records[0].id},,shopify_charge,,USD,${statementId},,Shopify charge charged; 40000 USD charged; 0 USD carried forward`,
      );
    });

    it("a balance owed to the merchant is carried forward and netted against the next charge", async () => {
      const credit = await closeWeek([5_000, -2_000]);
      const carried = (await charges()).find((row) => row.statement_id === credit)!;
      assert.deepEqual(
        { amount: carried.amount_cents, carried: carried.carried_forward_cents, status: carried.status },
        { amount: 0, carried: 3_000, status: "none" },
      );
      const calls = usageCalls().length;
      const next = await closeWeek([-10_000]);
      const netted = (await charges()).find((row) => row.statement_id === next)!;
      assert.equal(netted.amount_cents, 7_000);
      assert.equal(netted.status, "charged");
      assert.equal(usageCalls().length, calls + 1);
      assert.equal(app.admin.billing.usageRecords.at(-1)!.price.amount, "70.00");
      assert.equal((await statementPage(credit)).charge!.carriedForwardCents, 3_000);
    });

    it("a charge past the cap waits; the merchant approves a raised cap; then it goes through", async () => {
      const records = app.admin.billing.usageRecords.length;
      // 1,000.00 cap, 470.00 used: 800.00 would pass it.
      const statementId = await closeWeek([-80_000]);
      assert.equal((await charges()).find((row) => row.statement_id === statementId)!.status, "waiting_cap");
      assert.equal(app.admin.billing.usageRecords.length, records, "nothing charged past the cap");

      const asking = await adminShopOverview(SHOP);
      assert.deepEqual(
        asking.billing.waiting.map((charge) => [charge.statementId, charge.status]),
        [[statementId, "waiting_cap"]],
      );
      assert.ok((await renderDashboardPage(await adminOverview(SHOP))).includes("Raise the cap"));
      // Bad input asks Shopify nothing and changes nothing.
      const before = app.admin.calls.length;
      assert.equal((await overviewAction("billing-raise-everything")).status, 400);
      assert.equal(app.admin.calls.length, before);
      assert.equal((await subscriptionRow())!.confirmation_url, null);

      assert.equal((await overviewAction("billing-raise-cap")).status, 200);
      const url = (await adminShopOverview(SHOP)).billing.subscription!.confirmationUrl!;
      assert.ok(url);
      const raise = app.admin.calls.filter((call) => call.operationName === "AppSubscriptionLineItemUpdate").at(-1)!;
      assert.deepEqual((raise.variables as { cappedAmount: unknown }).cappedAmount, {
        amount: "2000.00",
        currencyCode: "USD",
      });
      assert.equal((await subscriptionRow())!.confirmation_url, url);

      assert.equal(await notify(app.admin.billing.approve(url)), 200);
      await app.settled();
      const charged = (await charges()).find((row) => row.statement_id === statementId)!;
      assert.equal(charged.status, "charged");
      assert.equal((await subscriptionRow())!.confirmation_url, null);
      assert.equal(app.admin.billing.usageRecords.at(-1)!.price.amount, "800.00");
    });

    it("a charge waiting for a higher cap is tried again after a while: a new billing cycle has room", async () => {
      // 2,000.00 cap, 1,270.00 used: 900.00 would pass it.
      const statementId = await closeWeek([-90_000]);
      const status = async () => (await charges()).find((row) => row.statement_id === statementId)!.status;
      assert.equal(await status(), "waiting_cap");
      assert.equal(await billing.statementChargeTask(deps()).task(), 0, "not tried again at once");
      app.admin.billing.newCycle((await subscriptionRow())!.subscription_id);
      await db().run("UPDATE shopify_statement_charges SET updated_at = ? WHERE statement_id = ?", [
        Date.now() - billing.CAP_RECHECK_MS - 1,
        statementId,
      ]);
      assert.equal(await billing.statementChargeTask(deps()).task(), 1);
      await app.settled();
      assert.equal(await status(), "charged");
    });

    it("a retry after a lost answer that now reads past the cap takes the record Shopify made, and does not wait", async () => {
      // 900.00 used of 2,000.00: 1,000.00 fits; its answer is lost, and the retry sees 1,900.00 used.
      app.admin.loseNextResponse("AppUsageRecordCreate");
      const statementId = await closeWeek([-100_000]);
      await db().run("UPDATE shopify_jobs SET run_at = 0 WHERE kind = 'charge_statement' AND subject = ?", [
        statementId,
      ]);
      await app.runtime().queue.runDue();
      await app.settled();
      const charged = (await charges()).find((row) => row.statement_id === statementId)!;
      const records = app.admin.billing.usageRecords.filter(
        (record) => record.idempotencyKey === `statement:${statementId}`,
      );
      assert.equal(records.length, 1);
      assert.deepEqual([charged.status, charged.usage_record_id], ["charged", records[0].id]);
    });

    it("a cancelled subscription pauses new live protection with the reason (test mode unaffected) and keeps what is owed until a new one is approved", async () => {
      const { secretKey: liveKey } = await db().transaction((tx) =>
        mintKeyPair(tx, deps().services, { merchantId, mode: "live" }),
      );
      const installation = (await deps().installation(SHOP))!;
      const testProgramId = (await db().get<{ id: string }>(
        "SELECT id FROM protection_programs WHERE merchant_id = ? AND mode = 'test'",
        [merchantId],
      ))!.id;
      const client = (secretKey: string) => deps().protectionClient({ ...installation, secretKey });
      const quote = (secretKey: string, programId: string) =>
        client(secretKey).headless.quote(
          { order_amount_cents: 5_000, order_id: randomUUID(), protection_program_id: programId, currency: "USD" },
          randomUUID(),
        );

      const current = fakeSubscription((await subscriptionRow())!.subscription_id);
      // An update about another subscription (an older one) changes nothing.
      assert.equal(await notify({ ...current, id: "gid://shopify/AppSubscription/1", status: "CANCELLED" }), 200);
      await app.settled();
      assert.equal((await subscriptionRow())!.status, "ACTIVE");

      assert.equal(await notify(app.admin.billing.setStatus(current.id, "CANCELLED")), 200);
      await app.settled();
      assert.equal((await subscriptionRow())!.status, "CANCELLED");
      await assert.rejects(quote(liveKey, "prog_any"), (error: unknown) => {
        assert.ok(error instanceof ServiceHttpError);
        assert.equal(error.httpStatus, 403);
        assert.equal(error.code, "live_protection_paused");
        assert.match(error.message, /subscription is cancelled/);
        return true;
      });
      // Test mode is not paused.
      await quote(installation.secretKey, testProgramId);

      // Owed meanwhile: kept, waiting for a subscription.
      const statementId = await closeWeek([-1_000]);
      const waiting = (await charges()).find((row) => row.statement_id === statementId)!;
      assert.deepEqual(
        { status: waiting.status, amount: waiting.amount_cents },
        { status: "waiting_subscription", amount: 1_000 },
      );

      // The overview says why, and what waits.
      const paused = await adminOverview(SHOP);
      assert.equal(paused.shop.billing.subscription!.status, "CANCELLED");
      assert.deepEqual(
        paused.shop.billing.waiting.map((charge) => charge.amountCents),
        [1_000],
      );
      assert.ok(
        (await renderDashboardPage(paused)).includes("Live protection is paused: your subscription is cancelled"),
      );

      // The merchant sets up a new subscription and approves it: protection resumes, the waiting charge goes through.
      assert.equal((await overviewAction("billing-subscribe")).status, 200);
      const renewed = (await subscriptionRow())!;
      assert.equal(renewed.status, "PENDING");
      assert.notEqual(renewed.subscription_id, current.id);
      assert.equal(await notify(app.admin.billing.approve(renewed.confirmation_url!)), 200);
      await app.settled();
      assert.equal((await charges()).find((row) => row.statement_id === statementId)!.status, "charged");
      assert.equal(
        (await db().get<{ live_paused_reason: string | null }>(
          "SELECT live_paused_reason FROM merchants WHERE id = ?",
          [merchantId],
        ))!.live_paused_reason,
        null,
      );
    });

    it("asking to raise the cap with nothing waiting is refused and asks Shopify nothing", async () => {
      const calls = app.admin.calls.length;
      const refused = await overviewAction("billing-raise-cap");
      assert.equal(refused.status, 409);
      assert.equal(app.admin.calls.length, calls);
      assert.equal((await adminShopOverview(SHOP)).billing.subscription!.confirmationUrl, null);
    });
  },
);
