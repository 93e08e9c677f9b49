// The overview in the Shopify admin over the app's real wiring: a shop installed through afterAuth's path and the fake
// Admin API, orders through the webhook route, webhook endpoints the real delivery worker marked failing (its receiver
// kept answering 500 past the 3 days) and disabled (410), a job that gave up, a customer data request. Then the loader
// data, the Polaris page rendered from it, and the export download authenticated with a session token.
import { it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { renderDashboardPage } from "../support/dashboard-page.ts";
import { orderPayload, TEST_APP } from "../support/shopify.ts";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import { waitFor } from "../support/wait.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { checkEndpointUrl, createWebhookEndpoint } from "../../server/domain/webhook-endpoints.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import type { ShopOverview } from "../../app/shopify/dashboard.server.ts";
import type { OverviewData } from "../../app/dashboard/pages/overview.server.ts";
import { adminRequest, callRoute } from "../support/admin-routes.ts";

const SHOP = "dashboard-goods.myshopify.com";
const OTHER_SHOP = "someone-else.myshopify.com";
const COMPANY_NAME = "Dashboard Test Guarantees Ltd";
const THREE_DAYS_MS = 3 * 24 * 60 * 60 * 1000;

/** What React does to text it renders. */
const escapeHtml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");

describeShopifyApp(
  "merchant dashboard (%s)",
  { shops: [SHOP, OTHER_SHOP], installed: [SHOP], env: { COMPANY_NAME, WEBHOOK_ALLOW_PRIVATE_URLS: "on" } },
  (app) => {
    let down: Receiver;
    let gone: Receiver;
    let dashboard: ShopOverview;
    let overview: OverviewData;
    let references: { accepted: string; mismatched: string; unwritten: string };
    let dataRequestId: string;

    const db = () => app.database.db;
    const referenceOf = async (orderId: number) =>
      (await db().get<{ reference_number: string }>("SELECT reference_number FROM shopify_orders WHERE order_id = ?", [
        String(orderId),
      ]))!.reference_number;

    beforeAll(async () => {
      // The receivers below listen on loopback: this test's operator opts in, as for local development.
      const installation = (await db().get<{ merchant_id: string; product_id: string; tiers: string }>(
        "SELECT * FROM shop_installations WHERE shop = ?",
        [SHOP],
      ))!;
      const tiers: { priceCents: number; variantId: string }[] = JSON.parse(installation.tiers);

      // The merchant's endpoints, made as POST /webhooks/endpoints makes them. One receiver is down; its endpoint is
      // taken as failing for 3 days already, so its next failed attempt is the one that gives up. The other is gone.
      [down, gone] = await Promise.all([startReceiver(), startReceiver()]);
      down.reply = () => 500;
      gone.reply = () => 410;
      const { protectionRuntime } = await import("../../app/protection-api.server.ts");
      const { services, encryptionKey } = protectionRuntime();
      const actor = { merchantId: installation.merchant_id, mode: "test" as const };
      for (const receiver of [down, gone]) {
        const url = await checkEndpointUrl(services, actor, receiver.url);
        await db().transaction((tx) =>
          createWebhookEndpoint(tx, services, createSealer(encryptionKey), actor, { url, events: ["*"] }),
        );
      }
      await db().run("UPDATE webhook_endpoints SET failing_since = ? WHERE url = ?", [
        Date.now() - THREE_DAYS_MS - 1_000,
        down.url,
      ]);

      // Orders: one on its fee's tier; one whose line is a stale tier (fee mismatch); one whose reference write-back
      // gave up after every retry.
      const line = (feeCents: number) => {
        const tier = tiers.find((candidate) => candidate.priceCents >= feeCents)!;
        return {
          productId: installation.product_id,
          variantId: tier.variantId,
          price: (tier.priceCents / 100).toFixed(2),
        };
      };
      const accepted = orderPayload({
        lines: [{ productId: 111, price: "100.00" }, line(300)],
        attributes: { _protection: "accepted" },
      });
      // Quoted when the cart held 40.00 (fee 1.20), then items were added: the plan is on 90.00 (fee 2.70).
      const mismatched = orderPayload({ lines: [{ productId: 111, price: "90.00" }, line(120)] });
      for (const order of [accepted, mismatched])
        assert.equal(await app.deliver({ topic: "orders/create", shop: SHOP, payload: order }), 200);
      await app.settled();

      const { RETRY_DELAYS_MS } = await import("../../app/shopify/jobs.server.ts");
      const unwritten = orderPayload({
        lines: [{ productId: 111, price: "60.00" }, line(180)],
        attributes: { _protection: "accepted" },
      });
      app.admin.failNext("ProtectionReference", 502);
      assert.equal(await app.deliver({ topic: "orders/create", shop: SHOP, payload: unwritten }), 200);
      const job = await waitFor(() =>
        db().get<{ id: string }>(
          "SELECT id FROM shopify_jobs WHERE kind = 'write_reference' AND attempts = 1 AND status = 'pending'",
        ),
      );
      // Its retries have all passed: the next failure is its last.
      await db().run("UPDATE shopify_jobs SET attempts = ?, run_at = 0 WHERE id = ?", [RETRY_DELAYS_MS.length, job.id]);
      app.admin.failNext("ProtectionReference", 502);
      await app.runtime().queue.runDue();
      await waitFor(() => db().get("SELECT id FROM shopify_jobs WHERE id = ? AND status = 'dead'", [job.id]));

      const customer = { id: 7_000_001, email: "buyer@example.com", phone: null };
      await app.deliver({
        topic: "customers/data_request",
        shop: SHOP,
        payload: { shop_id: 7, shop_domain: SHOP, orders_requested: [accepted.id], customer, data_request: { id: 99 } },
      });
      await app.settled();
      dataRequestId = (await db().get<{ id: string }>("SELECT id FROM shopify_data_requests WHERE shop = ?", [SHOP]))!
        .id;

      // The plans' events reach both receivers through the real worker, which marks the endpoints.
      await waitFor(async () => {
        const rows = await db().all<{ status: string }>(
          "SELECT status FROM webhook_endpoints WHERE merchant_id = ? ORDER BY url",
          [installation.merchant_id],
        );
        return rows.every((row) => row.status !== "enabled") ? rows : undefined;
      });
      references = {
        accepted: await referenceOf(accepted.id),
        mismatched: await referenceOf(mismatched.id),
        unwritten: await referenceOf(unwritten.id),
      };

      const route = await import("../../app/routes/app._index.tsx");
      const { status, data } = await callRoute<OverviewData & { shop: ShopOverview }>(
        route.loader,
        adminRequest("/app", SHOP),
      );
      assert.equal(status, 200);
      ({ shop: dashboard, ...overview } = data);
    });

    afterAll(async () => {
      await Promise.all([down?.close(), gone?.close()]);
    });

    it("shows the installation and the storefront setup; no key leaves the server", async () => {
      const installation = (await db().get<{ secret_key_sealed: string; tiers: string }>(
        "SELECT * FROM shop_installations WHERE shop = ?",
        [SHOP],
      ))!;
      const { protectionRuntime } = await import("../../app/protection-api.server.ts");
      const secretKey = createSealer(protectionRuntime().encryptionKey).open(installation.secret_key_sealed);
      assert.equal(dashboard.shop, SHOP);
      assert.equal(dashboard.status, "installed");
      assert.ok(!JSON.stringify({ dashboard, overview }).includes(secretKey), "the secret key never reaches the page");
      assert.deepEqual(dashboard.storefront, {
        productCreated: true,
        tierCount: JSON.parse(installation.tiers).length,
        setupJob: null,
        themeEmbedUrl: `https://${SHOP}/admin/themes/current/editor?context=apps&activateAppId=${TEST_APP.SHOPIFY_API_KEY}/protection`,
      });
    });

    it("shows 30 days of the shop's mode (test) and the latest protected orders with the fee-mismatch flag and the write-back state", () => {
      assert.equal(overview.days, 30);
      assert.equal(overview.metrics.plans.active, 3);
      assert.equal(overview.metrics.quotes.confirmed, 3);
      assert.equal(
        overview.activity.reduce((sum, day) => sum + day.protected, 0),
        3,
      );
      assert.deepEqual(
        overview.metrics.fees.map((fee) => [fee.currency, fee.feeCents]),
        [["USD", 300 + 270 + 180]],
      );
      const byReference = new Map(dashboard.orders.map((order) => [order.referenceNumber, order]));
      assert.equal(dashboard.orders.length, 3);
      assert.deepEqual(
        [references.accepted, references.mismatched, references.unwritten].map((reference) => {
          const { feeCents, linePriceCents, feeMismatch, status, referenceWritten } = byReference.get(reference)!;
          return { feeCents, linePriceCents, feeMismatch, status, referenceWritten };
        }),
        [
          { feeCents: 300, linePriceCents: 300, feeMismatch: false, status: "protected", referenceWritten: true },
          { feeCents: 270, linePriceCents: 120, feeMismatch: true, status: "protected", referenceWritten: true },
          { feeCents: 180, linePriceCents: 180, feeMismatch: false, status: "protected", referenceWritten: false },
        ],
      );
    });

    it("shows each webhook endpoint's status: failing since when, disabled after a 410, with the latest attempt's error", () => {
      const byUrl = new Map(dashboard.webhookEndpoints.map((endpoint) => [endpoint.url, endpoint]));
      const failing = byUrl.get(down.url)!;
      assert.equal(failing.status, "failing");
      assert.ok(failing.failingSince && Date.parse(failing.failingSince) <= Date.now() - THREE_DAYS_MS);
      assert.deepEqual(
        [failing.lastAttempt?.outcome, failing.lastAttempt?.statusCode, failing.lastAttempt?.error],
        ["failed", 500, "HTTP 500"],
      );
      const disabled = byUrl.get(gone.url)!;
      assert.equal(disabled.status, "disabled");
      assert.deepEqual([disabled.lastAttempt?.outcome, disabled.lastAttempt?.statusCode], ["failed", 410]);
    });

    it("shows the jobs that gave up and the customer data requests; Go live shows the e-mail snippet with our company name", async () => {
      assert.deepEqual(
        dashboard.deadJobs.map((job) => [job.kind, job.attempts]),
        [["write_reference", 11]],
      );
      assert.match(dashboard.deadJobs[0].lastError ?? "", /502|Internal|error/i);
      assert.deepEqual(
        dashboard.dataRequests.map((request) => [request.id, request.customerId]),
        [[dataRequestId, "7000001"]],
      );
      const { orderConfirmationSnippet } = await import("../../app/shopify/email-snippet.ts");
      const { protectionRuntime } = await import("../../app/protection-api.server.ts");
      const goLive = await import("../../app/routes/app.go-live.tsx");
      const { data } = await callRoute<{ shopify: { emailSnippet: string } }>(
        goLive.loader,
        adminRequest("/app/go-live", SHOP),
      );
      assert.equal(data.shopify.emailSnippet, orderConfirmationSnippet(protectionRuntime().services.settings));
      assert.ok(data.shopify.emailSnippet.includes(COMPANY_NAME));
    });

    it("a shop that never installed has no overview: the admin says it is being set up", async () => {
      const { loadShopOverview } = await import("../../app/shopify/dashboard.server.ts");
      assert.equal(
        await loadShopOverview(app.runtime().deps, OTHER_SHOP, { apiKey: TEST_APP.SHOPIFY_API_KEY }),
        undefined,
      );
      const route = await import("../../app/routes/app._index.tsx");
      const { status, data } = await callRoute(route.loader, adminRequest("/app", OTHER_SHOP));
      assert.equal(status, 503);
      assert.match(String(data), /being set up/);
    });

    it("the page renders the endpoint banners, the fee-mismatch flag, the references and the theme embed link", async () => {
      const html = await renderDashboardPage({ ...overview, shop: dashboard });
      for (const text of [
        "1 webhook endpoint is failing: delivery stopped",
        "1 webhook endpoint is disabled",
        "Fee mismatch",
        "Jobs that gave up",
        "HTTP 500",
      ]) {
        assert.ok(html.includes(text), `the page shows "${text}"`);
      }
      for (const reference of Object.values(references))
        assert.ok(html.includes(reference), `the page shows reference ${reference}`);
      assert.ok(html.includes(escapeHtml(dashboard.storefront.themeEmbedUrl)), "the theme embed link");
      assert.ok(html.includes("$3.00") && html.includes("$1.20"), "fees and line prices as money");
      assert.ok(html.includes("Offers quoted"), "the dashboard's own overview around it");
    });

    it("the data-request download gives the export to its shop only: 404 for another shop's session", async () => {
      const download = await import("../../app/routes/app.data-requests.$id.ts");
      const get = (shop: string, id: string) =>
        download.loader({ request: adminRequest(`/app/data-requests/${id}`, shop), params: { id }, context: {} });

      const own = await get(SHOP, dataRequestId);
      assert.equal(own.status, 200);
      assert.match(own.headers.get("Content-Disposition") ?? "", /attachment/);
      assert.equal(JSON.parse(await own.text()).dataRequestId, 99);

      const foreign = await get(OTHER_SHOP, dataRequestId);
      assert.equal(foreign.status, 404);
      assert.ok(!(await foreign.text()).includes("buyer@example.com"));
      assert.equal((await get(SHOP, "dreq_unknown")).status, 404);
    });
  },
);
