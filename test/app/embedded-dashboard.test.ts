// The dashboard inside the Shopify admin (/app): every page's loader and the actions that are the admin's own, called
// as App Bridge calls them (a session token made as Shopify makes it), over the app's real wiring (a shop installed
// through afterAuth's path, the fake Admin API, orders through the webhook route, the real delivery worker and a
// receiver on loopback). Then Go live for the shop: live keys the app holds, the live program, the storefront set up
// again, and the next order protected in live mode.
import { it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { orderPayload, sessionToken, TEST_APP } from "../support/shopify.ts";
import { describeShopifyApp } from "../support/dialect-suites.ts";
import { appSubscriptionsUpdatePayload } from "../support/shopify-billing.ts";
import { adminRequest, callRoute } from "../support/admin-routes.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { verifyOutcome } from "../support/webhook-verify.ts";
import { waitFor } from "../support/wait.ts";
import { createSealer } from "../../server/secrets/sealer.ts";

const SHOP = "embedded-goods.myshopify.com";
const OTHER_SHOP = "embedded-other.myshopify.com";

type Route = { loader: Parameters<typeof callRoute>[0]; action?: Parameters<typeof callRoute>[0] };
const route = (path: string): Promise<Route> => import(`../../app/routes/${path}`);

describeShopifyApp(
  "the dashboard in the Shopify admin (%s)",
  { shops: [SHOP, OTHER_SHOP], env: { WEBHOOK_ALLOW_PRIVATE_URLS: "on" }, inOrder: true },
  (app) => {
    let receiver: Receiver;
    let other: Receiver;
    const db = () => app.database.db;

    const get = async <Data = Record<string, unknown>>(file: string, path: string, shop = SHOP, params = {}) =>
      callRoute<Data>((await route(file)).loader, adminRequest(path, shop), params);
    const post = async <Data = Record<string, unknown>>(
      file: string,
      path: string,
      form: Record<string, string | string[]>,
      params = {},
    ) => callRoute<Data>((await route(file)).action!, adminRequest(path, SHOP, form), params);

    const installation = async (shop = SHOP) =>
      (await db().get<{
        merchant_id: string;
        mode: string;
        secret_key_sealed: string;
        publishable_key: string;
        program_id: string;
        tiers: string;
      }>("SELECT * FROM shop_installations WHERE shop = ?", [shop]))!;
    const sealer = async () => {
      const { protectionRuntime } = await import("../../app/protection-api.server.ts");
      return createSealer(protectionRuntime().encryptionKey);
    };
    /** An order of the shop with the buyer's protection on its fee's tier; resolves to its plan's row. */
    const protectedOrder = async (shop = SHOP) => {
      const { tiers } = await installation(shop);
      const [tier] = JSON.parse(tiers) as { priceCents: number; variantId: string }[];
      const product = (await db().get<{ product_id: string }>(
        "SELECT product_id FROM shop_installations WHERE shop = ?",
        [shop],
      ))!;
      const order = orderPayload({
        lines: [
          { productId: 111, price: "30.00" },
          { productId: product.product_id, variantId: tier.variantId, price: (tier.priceCents / 100).toFixed(2) },
        ],
        attributes: { _protection: "accepted" },
      });
      assert.equal(await app.deliver({ topic: "orders/create", shop, payload: order }), 200);
      await app.settled();
      return (await waitFor(() =>
        db().get<{ id: string; mode: string; program_id: string; reference_number: string }>(
          `SELECT p.id, p.mode, q.program_id, p.reference_number
           FROM plans p JOIN quotes q ON q.id = p.quote_id JOIN shopify_orders o ON o.reference_number = p.reference_number
           WHERE o.order_id = ?`,
          [String(order.id)],
        ),
      ))!;
    };

    beforeAll(async () => {
      await app.settled();
      [receiver, other] = await Promise.all([startReceiver(), startReceiver()]);
    });

    afterAll(async () => {
      await Promise.all([receiver?.close(), other?.close()]);
    });

    it("opens every page for the shop's staff, in the shop's mode (test), as an owner without a Team page", async () => {
      const plan = await protectedOrder();
      const layout = await get<{ shell: { shell: string; basePath: string; mode: string; role: string } }>(
        "app.tsx",
        "/app",
      );
      assert.equal(layout.status, 200);
      assert.deepEqual(
        [layout.data.shell.shell, layout.data.shell.basePath, layout.data.shell.mode, layout.data.shell.role],
        ["embedded", "/app", "test", "owner"],
      );
      const pages: [string, string, Record<string, string>?][] = [
        ["app._index.tsx", "/app"],
        ["app.purchases.tsx", "/app/purchases"],
        ["app.purchases_.$id.tsx", `/app/purchases/${plan.id}`, { id: plan.id }],
        ["app.claims.tsx", "/app/claims"],
        ["app.refunds.tsx", "/app/refunds"],
        ["app.settlements.tsx", "/app/settlements"],
        ["app.developers.keys.tsx", "/app/developers/keys"],
        ["app.developers.webhooks.tsx", "/app/developers/webhooks"],
        ["app.program.tsx", "/app/program"],
        ["app.go-live.tsx", "/app/go-live"],
        ["app.audit.tsx", "/app/audit"],
      ];
      for (const [file, path, params] of pages) {
        const { status } = await get(file, path, SHOP, params);
        assert.equal(status, 200, `${path} answers 200`);
      }
      const purchases = await get<{ purchases: { referenceNumber: string }[] }>("app.purchases.tsx", "/app/purchases");
      assert.deepEqual(
        purchases.data.purchases.map((purchase) => purchase.referenceNumber),
        [plan.reference_number],
      );
      // The keys the installation holds are listed by their last 4; the secret itself never reaches the page.
      const keys = await get<{ keys: { id: string; kind: string; display: string }[]; appKeys: string[] }>(
        "app.developers.keys.tsx",
        "/app/developers/keys",
      );
      const secretKey = (await sealer()).open((await installation()).secret_key_sealed);
      assert.ok(keys.data.keys.some((key) => key.kind === "secret" && key.display.endsWith(secretKey.slice(-4))));
      assert.ok(!JSON.stringify(keys.data).includes(secretKey));
      // The pair the app holds is marked, and refused to revoke: that would stop protection on the shop's orders.
      const held = keys.data.keys.filter((key) => keys.data.appKeys.includes(key.display));
      assert.deepEqual(held.map((key) => key.kind).sort(), ["publishable", "secret"]);
      const refused = await post<{ formError: string }>("app.developers.keys.tsx", "/app/developers/keys", {
        intent: "revoke",
        keyId: held.find((key) => key.kind === "secret")!.id,
      });
      assert.equal(refused.status, 409);
      assert.match(refused.data.formError, /held by the Shopify app/);
      assert.equal(
        await db().get("SELECT id FROM api_keys WHERE merchant_id = ? AND revoked_at IS NOT NULL", [
          (await installation()).merchant_id,
        ]),
        undefined,
      );

      // A key minted here carries its label; revoking it needs the page's confirmation step: a POST without the
      // confirmation field changes nothing and says why.
      const minted = await post<{ revealed: { display: string; label: string } }>(
        "app.developers.keys.tsx",
        "/app/developers/keys",
        { intent: "mint", kind: "restricted", mode: "test", label: "  Warehouse sync  " },
      );
      assert.equal(minted.status, 200);
      assert.equal(minted.data.revealed.label, "Warehouse sync");
      const keyCount = async () => Number((await db().get<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys", []))!.n);
      const keysBefore = await keyCount();
      const tooLong = await post<{ errors: Record<string, string> }>(
        "app.developers.keys.tsx",
        "/app/developers/keys",
        {
          intent: "mint",
          kind: "restricted",
          mode: "test",
          label: "x".repeat(61),
        },
      );
      assert.equal(tooLong.status, 400);
      assert.equal(tooLong.data.errors.label, "At most 60 characters.");
      assert.equal(await keyCount(), keysBefore, "no key minted");
      const listed = await get<{ keys: { id: string; display: string; label: string | null }[] }>(
        "app.developers.keys.tsx",
        "/app/developers/keys",
      );
      const first = listed.data.keys.find((key) => key.display === minted.data.revealed.display)!;
      assert.equal(first.label, "Warehouse sync");
      // Without an overlap the old key stops at once: only from the confirmation step.
      const strayRotation = await post<{ formError: string }>("app.developers.keys.tsx", "/app/developers/keys", {
        intent: "rotate",
        keyId: first.id,
        overlap: "none",
      });
      assert.equal(strayRotation.status, 400);
      assert.match(strayRotation.data.formError, /Nothing was rotated\. Confirm it on the page first/);
      assert.equal(await keyCount(), keysBefore, "no successor minted");
      // A rotation's successor does the old key's job under its name.
      const rotated = await post<{ revealed: { display: string; label: string } }>(
        "app.developers.keys.tsx",
        "/app/developers/keys",
        { intent: "rotate", keyId: first.id, overlap: "none", confirmed: "yes" },
      );
      assert.equal(rotated.status, 200);
      assert.equal(rotated.data.revealed.label, "Warehouse sync");
      const labelled = (
        await get<{ keys: { id: string; display: string; label: string | null }[] }>(
          "app.developers.keys.tsx",
          "/app/developers/keys",
        )
      ).data.keys.find((key) => key.display === rotated.data.revealed.display)!;
      assert.equal(labelled.label, "Warehouse sync");
      const revokedAt = async () =>
        (await db().get<{ revoked_at: number | null }>("SELECT revoked_at FROM api_keys WHERE id = ?", [labelled.id]))!
          .revoked_at;
      const unconfirmed = await post<{ formError: string }>("app.developers.keys.tsx", "/app/developers/keys", {
        intent: "revoke",
        keyId: labelled.id,
      });
      assert.equal(unconfirmed.status, 400);
      assert.match(unconfirmed.data.formError, /Nothing was revoked\. Confirm it on the page first/);
      assert.equal(await revokedAt(), null);
      const revoked = await post("app.developers.keys.tsx", "/app/developers/keys", {
        intent: "revoke",
        keyId: labelled.id,
        confirmed: "yes",
      });
      assert.equal(revoked.status, 200);
      assert.notEqual(await revokedAt(), null);
    });

    it("another shop's staff see their own shop only; a request without a session token gets no data", async () => {
      const purchases = await get<{ purchases: unknown[] }>("app.purchases.tsx", "/app/purchases", OTHER_SHOP);
      assert.deepEqual(purchases.data.purchases, []);
      const { loader } = await route("app.purchases.tsx");
      const anonymous = await callRoute(loader, new Request(new URL("/app/purchases", TEST_APP.SHOPIFY_APP_URL)));
      assert.notEqual(anonymous.status, 200);
      const forged = await callRoute(
        loader,
        new Request(new URL("/app/purchases", TEST_APP.SHOPIFY_APP_URL), {
          headers: { Authorization: `Bearer ${sessionToken(SHOP, { secret: "not-the-app-secret" })}` },
        }),
      );
      assert.notEqual(forged.status, 200);
      assert.ok(!JSON.stringify(forged.data).includes("CLM-"), "no purchase leaks");
    });

    it("mints a live secret key shown once; the audit log names the staff member by their Shopify user id", async () => {
      const minted = await post<{ ok: boolean; revealed: { secret: string } }>(
        "app.developers.keys.tsx",
        "/app/developers/keys",
        { intent: "mint", kind: "secret", mode: "live" },
      );
      assert.equal(minted.status, 200);
      assert.match(minted.data.revealed.secret, /^mch_live_/);
      const audit = await get<{ entries: { action: string; actorId: string }[] }>("app.audit.tsx", "/app/audit");
      // Every key minted in the admin (the labelled one above too) names the staff member.
      assert.deepEqual(
        [
          ...new Set(
            audit.data.entries.filter((entry) => entry.action === "api_key.minted").map((entry) => entry.actorId),
          ),
        ],
        ["shopify:42"],
      );
    });

    it("webhooks: edit URL and events without rotating the secret, refuse a bad URL changing nothing, send a test event to that endpoint only", async () => {
      const created = await post<{ revealed: { secret: string } }>(
        "app.developers.webhooks.tsx",
        "/app/developers/webhooks",
        {
          intent: "create",
          url: `${other.url}/first`,
          events: ["claim.created"],
        },
      );
      assert.equal(created.status, 200);
      const endpoint = (await db().get<{ id: string; secret_sealed: string }>(
        "SELECT id, secret_sealed FROM webhook_endpoints WHERE url = ?",
        [`${other.url}/first`],
      ))!;
      const page = "app.developers.webhooks_.$id.tsx";
      const path = `/app/developers/webhooks/${endpoint.id}`;
      const params = { id: endpoint.id };

      const refused = await post<{ errors: Record<string, string> }>(
        page,
        path,
        { intent: "update", url: "not a url", events: ["*"], status: "enabled" },
        params,
      );
      assert.equal(refused.status, 400);
      assert.ok(refused.data.errors.url);
      const unchanged = (await db().get<{ url: string; events: string }>(
        "SELECT url, events FROM webhook_endpoints WHERE id = ?",
        [endpoint.id],
      ))!;
      assert.deepEqual([unchanged.url, JSON.parse(unchanged.events)], [`${other.url}/first`, ["claim.created"]]);

      const saved = await post(
        page,
        path,
        { intent: "update", url: receiver.url, events: ["*"], status: "enabled" },
        params,
      );
      assert.equal(saved.status, 200);
      const after = (await db().get<{ url: string; events: string; secret_sealed: string }>(
        "SELECT url, events, secret_sealed FROM webhook_endpoints WHERE id = ?",
        [endpoint.id],
      ))!;
      assert.deepEqual([after.url, JSON.parse(after.events)], [receiver.url, ["*"]]);
      assert.equal(after.secret_sealed, endpoint.secret_sealed, "editing never rotates the secret");

      // A second endpoint that takes every event: the test event must not reach it.
      await post("app.developers.webhooks.tsx", "/app/developers/webhooks", {
        intent: "create",
        url: other.url,
        events: ["*"],
      });

      const sent = await post<{ message: string }>(page, path, { intent: "test" }, params);
      assert.equal(sent.status, 200);
      const test = await waitFor(() =>
        receiver.received.find((delivery) => delivery.event.type === "webhook_endpoint.test"),
      );
      assert.equal((test.event.data.object as { id: string }).id, endpoint.id);
      assert.equal(
        await verifyOutcome(test.signature, test.body, created.data.revealed.secret, Math.floor(Date.now() / 1000)),
        "valid",
      );
      // A real event afterwards reaches both endpoints; the other one's first delivery is that one, not the test.
      await protectedOrder();
      const first = await waitFor(() => other.received[0]);
      assert.equal(first.event.type, "protection.confirmed");
      assert.ok(!other.received.some((delivery) => delivery.event.type === "webhook_endpoint.test"));

      // The deliveries log shows it; Send again works for the test event, to this endpoint.
      const log = await get<{ attempts: { eventId: string; outcome: string }[] }>(page, path, SHOP, params);
      assert.ok(
        log.data.attempts.some((attempt) => attempt.eventId === test.eventId && attempt.outcome === "succeeded"),
      );
      const again = await post(page, path, { eventId: test.eventId }, params);
      assert.equal(again.status, 200);
      await waitFor(() => receiver.received.filter((delivery) => delivery.eventId === test.eventId).length === 2);
    });

    it("a program change sets the storefront up again: the fee tiers follow the new rate; a refused change queues nothing", async () => {
      const before = await installation();
      const jobs = async () =>
        Number(
          (await db().get<{ n: number }>(
            "SELECT COUNT(*) AS n FROM shopify_jobs WHERE shop = ? AND kind = 'storefront_setup'",
            [SHOP],
          ))!.n,
        );
      const jobsBefore = await jobs();
      const terms = {
        ratePercent: "5",
        "minFee-USD": "$1.50",
        "maxCovered-USD": "5,000.00",
        currencies: ["USD"],
        productCategories: "",
        settlementPeriod: "monthly",
      };
      const refused = await post("app.program.tsx", "/app/program", { ...terms, ratePercent: "500" });
      assert.equal(refused.status, 400);
      assert.equal(await jobs(), jobsBefore, "nothing queued");

      const saved = await post("app.program.tsx", "/app/program", terms);
      assert.equal(saved.status, 200);
      assert.equal(await jobs(), jobsBefore + 1);
      await app.settled();
      const { tierPrices } = await import("../../app/shopify/fee-tiers.ts");
      const after = await installation();
      assert.notEqual(after.tiers, before.tiers);
      assert.deepEqual(
        (JSON.parse(after.tiers) as { priceCents: number }[]).map((tier) => tier.priceCents),
        tierPrices({ rateBps: 500, currencyLimits: { USD: { minFeeCents: 150, maxCoveredCents: 500_000 } } }, "USD"),
      );
    });

    it("Go live: refused without the e-mail confirmation or an approved usage subscription (nothing changes); then live keys the app holds, the live program, the storefront on the live key, and the next order in live mode", async () => {
      const before = await installation();
      const refused = await post<{ errors: Record<string, string> }>("app.go-live.tsx", "/app/go-live", {
        intent: "go-live",
        confirmed: "yes",
      });
      assert.equal(refused.status, 400);
      assert.ok(refused.data.errors.confirmationEmail);
      assert.deepEqual(await installation(), before);
      // Going live cannot be undone: only the page's confirmation step does it, never a POST without it.
      const unconfirmed = await post<{ formError: string }>("app.go-live.tsx", "/app/go-live", {
        intent: "go-live",
        confirmationEmail: "yes",
      });
      assert.equal(unconfirmed.status, 400);
      assert.match(unconfirmed.data.formError, /You are not live yet\. Confirm it on the page first/);
      assert.deepEqual(await installation(), before);
      const liveKeys = async () =>
        Number(
          (await db().get<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys WHERE merchant_id = ? AND mode = 'live'", [
            before.merchant_id,
          ]))!.n,
        );
      assert.equal(await liveKeys(), 1, "only the key minted by hand earlier");

      const goLive = () =>
        post<{ formError?: string }>("app.go-live.tsx", "/app/go-live", {
          intent: "go-live",
          confirmationEmail: "yes",
          confirmed: "yes",
        });
      // Live protection is charged through Shopify: not before the merchant approves the app's usage subscription.
      const unbilled = await goLive();
      assert.equal(unbilled.status, 409);
      assert.match(unbilled.data.formError!, /Approve the app's usage charges in Shopify first/);
      assert.deepEqual(await installation(), before);
      const pending = (await db().get<{ confirmation_url: string }>(
        "SELECT confirmation_url FROM shopify_subscriptions WHERE shop = ?",
        [SHOP],
      ))!;
      const approved = app.admin.billing.approve(pending.confirmation_url);
      const update = {
        topic: "app_subscriptions/update",
        shop: SHOP,
        payload: appSubscriptionsUpdatePayload(approved),
      };
      assert.equal(await app.deliver(update), 200);
      await app.settled();

      const live = await goLive();
      assert.equal(live.status, 200);
      const after = await installation();
      assert.equal(after.mode, "live");
      assert.match((await sealer()).open(after.secret_key_sealed), /^mch_live_/);
      assert.match(after.publishable_key, /^wk_live_/);
      const program = (await db().get<{ mode: string; rate_bps: number; currency_limits: string }>(
        "SELECT mode, rate_bps, currency_limits FROM protection_programs WHERE id = ?",
        [after.program_id],
      ))!;
      assert.deepEqual(
        { ...program, currency_limits: JSON.parse(program.currency_limits) },
        { mode: "live", rate_bps: 500, currency_limits: { USD: { minFeeCents: 150, maxCoveredCents: 500_000 } } },
        "the live program has the tested terms",
      );
      const merchant = (await db().get<{ allowed_origins: string; live_at: number | null }>(
        "SELECT allowed_origins, live_at FROM merchants WHERE id = ?",
        [before.merchant_id],
      ))!;
      assert.ok(merchant.live_at);
      const { CHECKOUT_EXTENSION_ORIGIN } = await import("../../app/shopify/go-live.server.ts");
      assert.deepEqual(JSON.parse(merchant.allowed_origins), [`https://${SHOP}`, CHECKOUT_EXTENSION_ORIGIN]);

      // The storefront setup ran again: the theme embed's config carries the live key and program.
      await app.settled();
      // The storefront config's metafields (the orders carry the plans' state in theirs).
      const configs = app.admin.metafields
        .filter((metafield) => metafield.key === "config")
        .map((metafield) => JSON.parse(metafield.value) as { publishableKey?: string; programId?: string });
      assert.ok(
        configs.some(
          (config) => config.publishableKey === after.publishable_key && config.programId === after.program_id,
        ),
      );

      // Every page says live now, and the next order is protected in live mode on the live program.
      const layout = await get<{ shell: { mode: string; live: boolean } }>("app.tsx", "/app");
      assert.deepEqual([layout.data.shell.mode, layout.data.shell.live], ["live", true]);
      const plan = await protectedOrder();
      assert.deepEqual([plan.mode, plan.program_id], ["live", after.program_id]);

      // A second click changes nothing.
      const again = await post("app.go-live.tsx", "/app/go-live", {
        intent: "go-live",
        confirmationEmail: "yes",
        confirmed: "yes",
      });
      assert.equal(again.status, 200);
      const { mode, secret_key_sealed, publishable_key, program_id } = await installation();
      assert.deepEqual(
        { mode, secret_key_sealed, publishable_key, program_id },
        {
          mode: after.mode,
          secret_key_sealed: after.secret_key_sealed,
          publishable_key: after.publishable_key,
          program_id: after.program_id,
        },
      );
      assert.equal(await liveKeys(), 3);
    });
  },
);
