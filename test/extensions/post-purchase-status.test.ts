// GET /extensions/protection-status (app/routes/extensions.protection-status.ts), what the post-purchase blocks ask:
// the extension's session token made exactly as Shopify makes one for a checkout / customer-account extension,
// verified by authenticate.public.checkout; an order read only within the token's shop. On each database in turn.
import { describe, it, beforeAll, afterAll } from "vitest";
import { DIALECTS } from "../support/databases.ts";
import assert from "node:assert/strict";
import { extensionSessionToken, shopifyId, sessionToken } from "../support/shopify.ts";
import { newId } from "../../server/index.ts";
import { PORTAL_URL, STATUS_URL, startPostPurchaseApp, type PostPurchaseApp } from "./post-purchase-app.ts";

const SHOP = "post-purchase.myshopify.com";
const OTHER_SHOP = "another-shop.myshopify.com";
const NOT_INSTALLED = "never-installed.myshopify.com";
/** Where Shopify serves extension code from: a cross-origin request, so CORS headers are needed. */
const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";

const get = (orderId: string, token: string | null, headers: Record<string, string> = {}) =>
  new Request(`${STATUS_URL}?orderId=${orderId}`, {
    headers: { Origin: EXTENSION_ORIGIN, ...(token === null ? {} : { Authorization: `Bearer ${token}` }), ...headers },
  });

/** The route's tests on one database (the harness's close() lets the next boot the app on the other). */
describe.each(DIALECTS)("post-purchase status route (%s)", (dialect) => {
  let t: PostPurchaseApp;
  let orderId: string;
  beforeAll(async () => {
    t = await startPostPurchaseApp(dialect, [SHOP, OTHER_SHOP]);
    ({ orderId } = await t.placeOrder(SHOP));
  });
  afterAll(() => t?.close());

  it("a valid token of the order's shop gets the order's reference, status, free-look end and the portal, with CORS", async () => {
    const plan = (await t.planOf(orderId))!;
    assert.match(plan.referenceNumber, /^[A-Z0-9-]+$/);
    const response = await t.call(get(orderId, extensionSessionToken(SHOP)));
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      protected: true,
      status: "active",
      referenceNumber: plan.referenceNumber,
      freeLookEndsAt: new Date(plan.freeLookEndsAt).toISOString(),
      portalUrl: PORTAL_URL,
    });
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
    assert.equal(response.headers.get("cache-control"), "no-store");
    // A logged-in buyer's token carries `sub`: the same answer.
    const loggedIn = await t.call(get(orderId, extensionSessionToken(SHOP, { customerId: 7_000_001 })));
    assert.equal((await loggedIn.json()).referenceNumber, plan.referenceNumber);
  });

  it("answers the CORS preflight the extension's fetch sends (Authorization is not a simple header)", async () => {
    const response = await t.call(
      new Request(`${STATUS_URL}?orderId=${orderId}`, {
        method: "OPTIONS",
        headers: {
          Origin: EXTENSION_ORIGIN,
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "authorization",
        },
      }),
    );
    assert.equal(response.status, 204);
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
    assert.match(response.headers.get("access-control-allow-headers") ?? "", /Authorization/);
  });

  it("a token of another shop (installed or not) gets 404 for the order, and no reference", async () => {
    for (const shop of [OTHER_SHOP, NOT_INSTALLED]) {
      const response = await t.call(get(orderId, extensionSessionToken(shop)));
      assert.equal(response.status, 404, shop);
      assert.deepEqual(await response.json(), { error: "not_found" });
    }
  });

  it("refuses a missing, forged, expired or admin-less token with 401, readable cross-origin", async () => {
    const now = Math.floor(Date.now() / 1000);
    const tokens = {
      missing: null,
      "signed with another secret": extensionSessionToken(SHOP, { secret: "not-the-app-secret-0123456789" }),
      expired: extensionSessionToken(SHOP, { nowSeconds: now - 3_600 }),
      "not yet valid": extensionSessionToken(SHOP, { nowSeconds: now + 3_600 }),
      "not a JWT": "this.is-not.a-token",
    };
    for (const [name, token] of Object.entries(tokens)) {
      const response = await t.call(get(orderId, token));
      assert.equal(response.status, 401, name);
      assert.equal(response.headers.get("access-control-allow-origin"), "*", name);
      assert.doesNotMatch(await response.text(), /reference/i, name);
    }
    // The admin's App Bridge token is signed with the same secret: also accepted, for its shop only (dest is a URL).
    const admin = await t.call(get(orderId, sessionToken(SHOP)));
    assert.equal(admin.status, 200);
  });

  it("pending: an opted-in order whose orders/create webhook has not arrived or not run yet, then active once it has", async () => {
    const early = String(shopifyId());
    const before = await t.call(get(early, extensionSessionToken(SHOP)));
    assert.equal(before.status, 200);
    assert.deepEqual(await before.json(), { protected: false, status: "pending", portalUrl: PORTAL_URL });

    // The webhook came, its job waits (a retry later): still pending.
    const waiting = String(shopifyId());
    const now = Date.now();
    await t.app.database.db.run(
      `INSERT INTO shopify_jobs (id, shop, kind, subject, payload, status, attempts, run_at, locked_until, created_at, updated_at)
       VALUES (?, ?, 'orders/create', ?, '{}', 'pending', 1, ?, NULL, ?, ?)`,
      [newId("job", now), SHOP, waiting, now + 3_600_000, now, now],
    );
    const queued = await t.call(get(waiting, extensionSessionToken(SHOP)));
    assert.deepEqual(await queued.json(), { protected: false, status: "pending", portalUrl: PORTAL_URL });

    const { orderId: placed } = await t.placeOrder(SHOP);
    const after = await (await t.call(get(placed, extensionSessionToken(SHOP)))).json();
    assert.equal(after.status, "active");
    assert.equal(after.referenceNumber, (await t.planOf(placed))!.referenceNumber);
  });

  it("an order whose orders/create ran without a plan (no opt-in) is 404, not pending", async () => {
    const { orderId: plain } = await t.placeOrder(SHOP, { optedIn: false });
    assert.equal(await t.planOf(plain), undefined);
    const response = await t.call(get(plain, extensionSessionToken(SHOP)));
    assert.equal(response.status, 404);
  });

  it("a cancelled or voided plan: protected false, with its status and reference", async () => {
    for (const status of ["cancelled", "voided"] as const) {
      const { orderId: id } = await t.placeOrder(SHOP);
      const plan = (await t.planOf(id))!;
      await t.app.database.db.run("UPDATE plans SET status = ? WHERE id = ?", [status, plan.id]);
      const body = await (await t.call(get(id, extensionSessionToken(SHOP)))).json();
      assert.deepEqual(body, {
        protected: false,
        status,
        referenceNumber: plan.referenceNumber,
        freeLookEndsAt: new Date(plan.freeLookEndsAt).toISOString(),
        portalUrl: PORTAL_URL,
      });
    }
  });

  it("refuses an order id that is not a Shopify numeric id (400) and a method other than GET (405)", async () => {
    for (const bad of ["", "gid%3A%2F%2Fshopify%2FOrder%2F1", "12ab", "1".repeat(21)]) {
      const response = await t.call(get(bad, extensionSessionToken(SHOP)));
      assert.equal(response.status, 400, bad);
    }
    const post = await t.call(
      new Request(`${STATUS_URL}?orderId=${orderId}`, {
        method: "POST",
        headers: { Origin: EXTENSION_ORIGIN, Authorization: `Bearer ${extensionSessionToken(SHOP)}` },
      }),
    );
    assert.equal(post.status, 405);
  });
});
