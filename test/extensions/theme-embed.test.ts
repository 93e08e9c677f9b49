// The theme app embed: theme-check (theme-app-extension config) finds nothing, its committed widget asset is exactly
// a fresh build, and the block renders one <service-widget mode="cart"> and one deferred script from the app config.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { check } from "@shopify/theme-check-node";
import { bundle, EMBED_ASSET, MAX_BYTES } from "../../packages/widget/build.ts";
import type { StorefrontConfig } from "@purchase-protection/contract";
import { renderEmbed, THEME_EMBED_DIR, type EmbedPage } from "../support/theme-embed.ts";

const CONFIG: StorefrontConfig = {
  version: 1,
  publishableKey: "wk_test_embed",
  programId: "prog_default",
  apiBase: "https://app.example.test/api/v1",
  widgetUrl: "https://app.example.test/widget/v1/service-widget.js",
  productId: "900",
  tiers: [
    { priceCents: 100, variantId: "9001" },
    { priceCents: 400, variantId: "9003" },
  ],
};
// $129.99 of goods and the $4.00 protection line.
const CART: EmbedPage["cart"] = {
  token: "c1-cart-token",
  total_price: 13_399,
  currency: "EUR",
  items: [
    { product_id: 10, final_line_price: 12_999 },
    { product_id: 900, final_line_price: 400 },
  ],
};
const ASSETS = "https://cdn.shopify.test/extensions/theme-embed/assets/";

const render = (page: Partial<EmbedPage> = {}) =>
  renderEmbed({ config: CONFIG, cart: CART, assetBase: ASSETS, ...page });
const widgets = (html: string) =>
  [...html.matchAll(/<service-widget\s([^>]*)><\/service-widget>/g)].map((match) =>
    Object.fromEntries(
      [...match[1].matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [
        name,
        value.replaceAll("&#34;", '"').replaceAll("&quot;", '"'),
      ]),
    ),
  );

describe("theme app embed (extensions/theme-embed)", () => {
  it("passes theme-check with the theme-app-extension config: zero offenses", async () => {
    const offenses = await check(THEME_EMBED_DIR, "theme-check:theme-app-extension");
    assert.deepEqual(
      offenses.map((offense) => `${offense.check}: ${offense.message} (${offense.uri})`),
      [],
    );
  });

  it("ships the widget build: assets/service-widget.js is byte for byte a fresh build", async () => {
    const fresh = Buffer.from(await bundle());
    const committed = fs.readFileSync(EMBED_ASSET);
    assert.ok(fresh.byteLength <= MAX_BYTES);
    assert.ok(
      fresh.equals(committed),
      `${path.relative(process.cwd(), EMBED_ASSET)} differs from a fresh widget build: run \`npm run build:widget\` and commit it`,
    );
  });

  it("renders one <service-widget mode=cart> from the app config and one deferred script tag for the embed's asset", async () => {
    const html = await render();
    assert.deepEqual(widgets(html), [
      {
        mode: "cart",
        "cart-id": "c1-cart-token",
        "publishable-key": "wk_test_embed",
        "program-id": "prog_default",
        "api-base": "https://app.example.test/api/v1",
        "amount-cents": "12999",
        currency: "EUR",
        market: '{"currency":"EUR","9001":100,"9003":400,"rate":1}',
        locale: "en",
        "fee-variants": JSON.stringify(CONFIG.tiers),
        placement: 'main [name="checkout"]',
      },
    ]);
    // The widget's deferred asset, and the inline cart refresh (Section Rendering API) with Dawn's sections by default.
    assert.deepEqual(
      [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag),
      [`<script src="${ASSETS}service-widget.js" defer>`, "<script>"],
    );
    assert.ok(
      html.includes('"cart-drawer,cart-icon-bubble,main-cart-items,cart-live-region-text,main-cart-footer".split(",")'),
    );
    const custom = await render({ settings: { cart_sections: "cart-drawer,header" } });
    assert.ok(custom.includes('"cart-drawer,header".split(",")'), "the block setting names the theme's sections");
  });

  it("honours the settings: program override, placement (cart page, drawer elsewhere, or none), disabled", async () => {
    assert.equal(widgets(await render({ settings: { program: " prog_override " } }))[0]["program-id"], "prog_override");
    assert.equal(widgets(await render({ templateName: "product" }))[0].placement, '[name="checkout"]');
    assert.equal(widgets(await render({ settings: { placement: "page_end" } }))[0].placement, undefined);
    assert.equal((await render({ settings: { enabled: false } })).trim(), "");
  });

  it("hands the widget the storefront's language (request.locale), in which the offer is worded", async () => {
    assert.equal(widgets(await render({ locale: "fr-CA" }))[0].locale, "fr-CA");
  });

  it("on a Shopify Markets cart (EUR in a USD shop): quotes in USD at the highest tier's rate and hands over the tiers' market prices; without them, nothing", async () => {
    // Liquid's prices are the buyer's market's: the 1.00 and 4.00 USD tiers sell at 0.93 and 3.70 EUR.
    const variants = [
      { id: 9001, price: 93 },
      { id: 9003, price: 370 },
    ];
    const [widget] = widgets(await render({ shopCurrency: "USD", protectionVariants: variants }));
    assert.equal(widget.currency, "USD");
    assert.equal(widget["amount-cents"], String(Math.round((12_999 * 400) / 370)), "129.99 EUR is 140.53 USD");
    assert.deepEqual(JSON.parse(widget.market), { currency: "EUR", "9001": 93, "9003": 370, rate: 400 / 370 });
    assert.deepEqual(
      JSON.parse(widgets(await render())[0].market),
      { currency: "EUR", "9001": 100, "9003": 400, rate: 1 },
      "a cart in the shop's own currency: its tiers' prices, rate 1",
    );
    // The product not found, or a tier without its variant: no price the buyer would be charged, so no offer.
    assert.equal((await render({ shopCurrency: "USD" })).trim(), "");
    assert.equal((await render({ shopCurrency: "USD", protectionVariants: variants.slice(0, 1) })).trim(), "");
  });

  // Shopify's theme amounts are hundredths of the unit in every currency (¥12,999 is 1299900): the rate the tiers'
  // prices imply turns them into the currency's minor units, which the quote takes.
  for (const [currency, tiers, goods, line, minor, rate] of [
    ["USD", [100, 400], 12_999, 400, 12_999, 1],
    ["JPY", [100, 400], 1_299_900, 40_000, 12_999, 0.01],
    ["KWD", [1_000, 4_000], 1_345, 400, 13_450, 10],
  ] as const)
    it(`in a ${currency} shop's own cart: the amount in ${currency}'s minor units (Shopify's hundredths × ${rate})`, async () => {
      const config = { ...CONFIG, tiers: CONFIG.tiers.map((tier, index) => ({ ...tier, priceCents: tiers[index] })) };
      const cart: EmbedPage["cart"] = {
        ...CART,
        currency,
        total_price: goods + line,
        items: [
          { product_id: 10, final_line_price: goods },
          { product_id: 900, final_line_price: line },
        ],
      };
      const [widget] = widgets(await render({ config, cart }));
      assert.deepEqual([widget.currency, widget["amount-cents"]], [currency, String(minor)]);
      const market = JSON.parse(widget.market);
      assert.deepEqual([market.currency, market["9003"], market.rate], [currency, line, rate]);
    });

  it("renders nothing before the app has written its config (no key, no tiers)", async () => {
    assert.equal((await render({ config: null })).trim(), "");
    assert.equal((await render({ config: { ...CONFIG, tiers: [] } })).trim(), "");
  });
});
