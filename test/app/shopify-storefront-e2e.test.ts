// The whole Shopify path on loopback, as a buyer and Shopify would drive it: the app installs (protection product and
// storefront config through the fake Admin API), the theme app embed renders that config on a cart page of a fake
// storefront (Ajax Cart API), the buyer ticks the box in real Chromium, the cart's attributes and lines become an
// orders/create webhook signed as Shopify signs it, and the plan is confirmed and its reference written back.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { startShopifyApp, type ShopifyAppHarness } from "../support/shopify-app.ts";
import { renderEmbed } from "../support/theme-embed.ts";
import { orderPayload } from "../support/shopify.ts";
import { formatDecimalAmount, type StorefrontConfig } from "@purchase-protection/contract";
import { buildWidget } from "../../packages/widget/build.ts";
import { createServerApp } from "../../server/server-app.ts";
import { startStorefront, type Storefront } from "../support/widget/storefront.ts";
import { listen } from "../support/widget/stack.ts";
import { clickNode, launchBrowser, openPage, waitForEvent, waitForRole } from "../support/widget/browser.ts";
import { waitFor } from "../support/wait.ts";

const SHOP = "storefront-e2e.myshopify.com";
const JACKET = 1001;

describe("Shopify end to end: theme embed on a cart → cart attributes → orders/create → plan → reference on the order", () => {
  let app: ShopifyAppHarness;
  let appHost: Awaited<ReturnType<typeof listen>>;
  let storefront: Storefront;
  let browser: Browser;
  let config: StorefrontConfig;

  beforeAll(async () => {
    [app, browser] = await Promise.all([
      startShopifyApp({ dialect: "sqlite", shops: [SHOP] }),
      launchBrowser(),
      buildWidget(),
    ]);
    await app.install(SHOP);
    // The app's host on loopback: its /api/v1 mount and the widget assets, as the Remix app serves them.
    const { handleApiRequest } = await import("../../app/protection-api.server.ts");
    appHost = await listen(createServerApp({ api: { fetch: handleApiRequest } }).fetch);
    // What install wrote for the theme embed, pointed at the loopback host instead of SHOPIFY_APP_URL.
    const written = app.admin.metafields.find(
      (metafield) => metafield.namespace === "protection" && metafield.key === "config",
    )!;
    config = {
      ...JSON.parse(written.value),
      apiBase: `${appHost.origin}/api/v1`,
      widgetUrl: `${appHost.origin}/widget/v1/service-widget.js`,
    };
    storefront = await startStorefront({
      [JACKET]: { productId: 10, title: "Jacket", price: 15_000 },
      ...Object.fromEntries(
        config.tiers.map((tier) => [
          tier.variantId,
          { productId: Number(config.productId), title: "Purchase Protection", price: tier.priceCents },
        ]),
      ),
    });
  });

  afterAll(async () => {
    await browser?.close();
    await storefront?.close();
    await appHost?.close();
    await app?.close();
  });

  it("the buyer opts in on the cart page; the order that follows is protected at the fee shown, and the reference is written back", async () => {
    storefront.reset([[JACKET, 1]]);
    const embed = await renderEmbed({ config, cart: storefront.cart(), assetBase: `${appHost.origin}/widget/v1/` });
    const tab = await openPage(browser);
    let quoteId: string;
    try {
      await tab.page.goto(
        storefront.page(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cart</title></head><body>
<main><h1>Your cart</h1><form action="/cart" method="post"><button type="submit" name="checkout">Check out</button></form></main>${embed}</body></html>`),
      );
      const box = await waitForRole(tab, "checkbox", /purchase protection/i);
      const [offer] = await waitForEvent(tab, "offer");
      quoteId = String(offer.detail.quoteId);
      assert.equal(offer.detail.feeCents, 450, "3 % of 150.00");
      assert.equal(box.name, "Add purchase protection for $4.50");
      await clickNode(tab, box);
      await waitForEvent(tab, "accepted");
      await waitFor(() => storefront.cart().attributes._protection === "accepted", {
        what: "the opt-in in the cart attributes",
      });
    } finally {
      await tab.close();
    }

    // Checkout turns the cart into an order: its lines and its attributes (note_attributes), as Shopify's payload has them.
    const cart = storefront.cart();
    assert.deepEqual(cart.attributes, { _protection: "accepted", _protection_quote: quoteId });
    const order = orderPayload({
      lines: cart.items.map((item) => ({
        productId: item.product_id,
        variantId: item.variant_id,
        price: formatDecimalAmount(item.price, "USD"),
        quantity: item.quantity,
      })),
      attributes: cart.attributes,
    });
    assert.equal(await app.deliver({ topic: "orders/create", shop: SHOP, payload: order }), 200);
    await app.settled();

    const db = app.database.db;
    const plan = (await db.get<{
      status: string;
      covered_amount_cents: number;
      fee_cents: number;
      reference_number: string;
    }>("SELECT * FROM plans WHERE order_id = ?", [String(order.id)]))!;
    assert.equal(plan.status, "active");
    assert.equal(plan.covered_amount_cents, 15_000, "the jacket, not the protection line");
    assert.equal(plan.fee_cents, 450);
    const shopifyOrder = (await db.get<{ line_price_cents: number; fee_mismatch: number | boolean }>(
      "SELECT * FROM shopify_orders WHERE order_id = ?",
      [String(order.id)],
    ))!;
    assert.equal(shopifyOrder.line_price_cents, 450);
    assert.equal(Number(shopifyOrder.fee_mismatch), 0, "the buyer paid exactly the tier of the confirmed fee");
    const written = app.admin.orders.get(order.admin_graphql_api_id)!;
    assert.deepEqual(written.customAttributes, [
      { key: "_protection", value: "accepted" },
      { key: "_protection_quote", value: quoteId },
      { key: "_protection_reference", value: plan.reference_number },
    ]);
  });
});
