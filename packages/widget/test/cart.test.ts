// mode="cart" with fee-variants on a fake Shopify storefront (Ajax Cart API on loopback, documented shapes) against
// the real API, on a cart page carrying the theme app embed as its Liquid renders it: the tier rule, the cart
// attributes and the protection line, following the theme's cart events and cart calls, one /cart.js read per change
// and never a timer, and the quote token never reaching the cart.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import {
  clickNode,
  eventsOf,
  everythingInTheDom,
  findByRole,
  isBrowserNetworkLine,
  openPage,
  quoteRequests,
  waitForEvent,
  waitForRole,
  type TestPage,
} from "../../../test/support/widget/browser.ts";
import { staysFalseFor, waitFor } from "../../../test/support/wait.ts";
import { startStorefront, type Storefront } from "../../../test/support/widget/storefront.ts";
import { renderEmbed } from "../../../test/support/theme-embed.ts";
import { chromiumSuite } from "../../../test/support/widget/suite.ts";

const SHIRT = 1001; // $129.99: fee 390 (3 %) → the $4.00 tier
const PROTECTION_PRODUCT = 900;
// Out of order on purpose: the widget applies the tier rule whatever order the config lists them in.
const TIERS = [
  { priceCents: 100, variantId: "9001" },
  { priceCents: 800, variantId: "9004" },
  { priceCents: 200, variantId: "9002" },
  { priceCents: 400, variantId: "9003" },
];
const CATALOG = {
  [SHIRT]: { productId: 10, title: "Shirt", price: 12_999 },
  1002: { productId: 11, title: "Coat", price: 40_000 },
  // The shirt as /cart.js shows it in a yen and a dinar market: Shopify's hundredths of the unit (¥12,999; 13.00 KWD).
  1003: { productId: 10, title: "Shirt", price: 1_299_900 },
  1004: { productId: 10, title: "Shirt", price: 1_300 },
  ...Object.fromEntries(
    TIERS.map((tier) => [
      tier.variantId,
      { productId: PROTECTION_PRODUCT, title: "Purchase Protection", price: tier.priceCents },
    ]),
  ),
};
const LOCALE_ROOT = "/fr/";

// A Dawn-like theme's cart sections (Dawn's ids: cart-icon-bubble is its own section; the cart page's items and
// footer are template sections whose ids the elements carry in data-id), rendered from the cart.
const lineList = (cart: { items: { title: string; quantity: number }[] }) =>
  `<ul>${cart.items.map((item) => `<li>${item.title} × ${item.quantity}</li>`).join("")}</ul>`;
const DAWN_SECTIONS = {
  "cart-icon-bubble": (cart: { item_count: number }) => `<span class="cart-count">${cart.item_count}</span>`,
  "template--1__cart-items": (cart: { items: { title: string; quantity: number }[] }) =>
    `<cart-items id="main-cart-items" data-id="template--1__cart-items">${lineList(cart)}</cart-items>`,
  "template--1__cart-footer": (cart: { total_price: number }) =>
    `<div id="main-cart-footer" data-id="template--1__cart-footer"><form action="/cart" method="post"><p>Total ${cart.total_price}</p><button type="submit" name="checkout">Check out</button></form></div>`,
};
const dawnPage = (cart: Parameters<typeof lineList>[0] & { item_count: number; total_price: number }) => `
<header><a id="cart-icon-bubble" href="/cart">${DAWN_SECTIONS["cart-icon-bubble"](cart)}</a></header>
<main><h1>Your cart</h1>
<div id="shopify-section-template--1__cart-items" class="shopify-section">${DAWN_SECTIONS["template--1__cart-items"](cart)}</div>
<div id="shopify-section-template--1__cart-footer" class="shopify-section">${DAWN_SECTIONS["template--1__cart-footer"](cart)}</div>
</main>
<script>
  window.__themeEvents = [];
  for (const name of ["cart:refresh", "cart:updated"])
    document.documentElement.addEventListener(name, (event) => window.__themeEvents.push(name + ":" + event.detail.source));
</script>`;

// The theme's side: Horizon-style (a cart call, then cart:update on document) and Dawn-style (a cart call only).
const THEME = `<script>
  window.Shopify = { routes: { root: ${JSON.stringify(LOCALE_ROOT)} } };
  window.theme = {
    async cart(path, body, event) {
      await fetch(${JSON.stringify(LOCALE_ROOT)} + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      if (event) document.dispatchEvent(new CustomEvent(event, { bubbles: true }));
    },
  };
</script>`;

type ThemeWindow = Window & { theme?: { cart(path: string, body: object, event?: string): Promise<void> } };
/** The theme's cart call (`window.theme.cart` above), run in the page. */
const themeCart = (tab: TestPage, path: string, body: object, event?: string) =>
  tab.page.evaluate(([path, body, event]) => (window as ThemeWindow).theme!.cart(path, body, event), [
    path,
    body,
    event,
  ] as const);

/** A /cart.js line as the fake storefront shows it. */
type CartItem = { product_id: number; variant_id: number; quantity: number };

describe("<service-widget mode=cart> on a Shopify cart (Chromium, fake storefront)", () => {
  const suite = chromiumSuite();
  let shop: Storefront;
  beforeAll(async () => {
    shop = await startStorefront(CATALOG, LOCALE_ROOT, DAWN_SECTIONS);
  });
  afterAll(() => shop?.close());

  const cartReads = () => shop.requests.filter((request) => request.path === "/cart.js").length;
  const writes = (path: string) =>
    shop.requests.filter((request) => request.path === path).map((request) => request.body);
  const protectionLines = () =>
    shop
      .cart()
      .items.filter((item: CartItem) => item.product_id === PROTECTION_PRODUCT)
      .map((item: CartItem) => [item.variant_id, item.quantity]);
  const checkbox = (tab: TestPage) => waitForRole(tab, "checkbox", /purchase protection/i);
  const isChecked = async (tab: TestPage) =>
    (await findByRole(tab, "checkbox", /purchase protection/i))?.properties.checked;

  /** The cart page with the app embed at the end of <body>: the widget places itself above the checkout button. */
  interface CartPage {
    lines: [variantId: number, quantity: number][];
    attributes?: Record<string, string>;
    /** The storefront's cart calls all answer 500. */
    failing?: boolean;
    checkoutButton?: boolean;
    /** The cart page of a Dawn-like theme, with its cart sections. */
    dawn?: boolean;
    /** A Shopify Markets cart in a USD shop: its currency and the tier variants' prices in it, as Liquid sees them. */
    market?: { currency: string; prices: Record<string, number> };
    /** Rewrites the embed's markup (a page whose market data is missing). */
    edit?: (embed: string) => string;
  }

  async function openCart(options: CartPage, body: (tab: TestPage) => Promise<void>) {
    shop.reset(options.lines, options.attributes, options.failing);
    const { stack } = suite;
    const embed = await renderEmbed({
      config: {
        version: 1,
        publishableKey: stack.api.merchant.publishableKey,
        programId: stack.api.merchant.programId,
        apiBase: `${stack.widgetOrigin}/api/v1`,
        widgetUrl: stack.scriptUrl,
        productId: String(PROTECTION_PRODUCT),
        tiers: TIERS,
      },
      cart: { ...shop.cart(), currency: options.market?.currency ?? "USD" },
      shopCurrency: "USD",
      protectionVariants:
        options.market && Object.entries(options.market.prices).map(([id, price]) => ({ id: +id, price })),
      assetBase: `${stack.widgetOrigin}/widget/v1/`,
    }).then(options.edit ?? ((html) => html));
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cart</title>${THEME}</head><body>
${options.dawn ? dawnPage(shop.cart()) : `<main><h1>Your cart</h1><form action="/cart" method="post"><p>Subtotal</p>${options.checkoutButton === false ? "" : '<button type="submit" name="checkout">Check out</button>'}</form></main>`}
${embed}</body></html>`;
    const tab = await openPage(suite.browser);
    try {
      await tab.page.goto(shop.page(html));
      await body(tab);
      assert.deepEqual((await tab.observed()).errors, [], "no uncaught error");
      assert.deepEqual(
        tab.console.filter((line) => !isBrowserNetworkLine(line)),
        [],
        "nothing written to the console",
      );
      assert.ok(
        shop.requests.every((request) => request.url.startsWith(LOCALE_ROOT) || request.path.includes("?sections=")),
        "cart calls go to Shopify.routes.root",
      );
      const written = JSON.stringify(shop.requests.map((request) => request.body));
      for (const token of tab.tokens) assert.ok(!written.includes(token), "the quote token never reaches the cart");
    } finally {
      await tab.close();
    }
  }

  it("refreshes the theme's cart after adding or removing the line: Section Rendering API, theme cart events, the widget kept in place", () =>
    openCart({ lines: [[SHIRT, 1]], dawn: true }, async (tab) => {
      const box = await checkbox(tab);
      const text = (selector: string) => tab.page.innerText(selector);
      const widgetBeforeCheckout = () =>
        tab.page.evaluate(
          () =>
            document.querySelector("service-widget")!.nextElementSibling?.getAttribute("name") === "checkout" &&
            !!document.querySelector("service-widget")!.closest("#main-cart-footer"),
        );
      assert.ok(await widgetBeforeCheckout());
      assert.equal(await text("#cart-icon-bubble"), "1");

      await clickNode(tab, box);
      await waitForEvent(tab, "accepted");
      await waitFor(async () => (await text("#main-cart-items")).includes("Purchase Protection × 1"), {
        what: "the protection line in the theme's line list, without a reload",
      });
      assert.equal(await text("#cart-icon-bubble"), "2", "the theme's cart count");
      assert.ok((await text("#main-cart-footer")).includes(`Total ${12_999 + 400}`), "the theme's total");
      assert.ok(
        shop.requests.some(
          (request) =>
            request.method === "GET" &&
            request.path.endsWith("?sections=cart-icon-bubble,template--1__cart-items,template--1__cart-footer"),
        ),
        "the page's cart sections, by the ids the theme declares (data-id), Dawn's list by default",
      );
      await waitFor(
        async () =>
          JSON.stringify(
            await tab.page.evaluate(() => (window as unknown as { __themeEvents: string[] }).__themeEvents),
          ) === JSON.stringify(["cart:refresh:service-widget", "cart:updated:service-widget"]),
        { what: "the theme cart events" },
      );
      // The footer section was re-rendered around the widget: it is back above the new checkout button, as it was.
      assert.ok(await widgetBeforeCheckout());
      assert.equal(await isChecked(tab), "true");

      await clickNode(tab, await checkbox(tab));
      await waitForEvent(tab, "declined");
      await waitFor(async () => !(await text("#main-cart-items")).includes("Purchase Protection"), {
        what: "the line gone from the theme's line list",
      });
      assert.equal(await text("#cart-icon-bubble"), "1");
      assert.ok(await widgetBeforeCheckout());
      await staysFalseFor(async () => quoteRequests(tab).length > 1, 400, { what: "a second quote" });
      assert.deepEqual((await eventsOf(tab, "ready")).length, 1, "one ready: moves are not new mounts");
    }));

  it("shows the tier price above the checkout button; ticking adds the tier's line and sets exactly the two attributes; unticking removes it", () =>
    openCart({ lines: [[SHIRT, 1]] }, async (tab) => {
      const box = await checkbox(tab);
      const [offer] = await waitForEvent(tab, "offer");
      assert.equal(offer.detail.feeCents, 390);
      assert.equal(box.name, "Add purchase protection for $4.00", "the price of the smallest tier covering the fee");
      assert.equal(box.properties.checked, "false", "never pre-checked");
      assert.equal(
        await tab.page.evaluate(() =>
          document.querySelector("service-widget")!.nextElementSibling!.getAttribute("name"),
        ),
        "checkout",
      );
      assert.equal(cartReads(), 1, "one read of the cart at start");
      assert.deepEqual(shop.cart().attributes, {}, "nothing written before the buyer chooses");

      await clickNode(tab, box);
      const [accepted] = await waitForEvent(tab, "accepted");
      const quoteId = offer.detail.quoteId;
      assert.deepEqual(accepted.detail, { quoteId });
      assert.deepEqual(shop.cart().attributes, { _protection: "accepted", _protection_quote: quoteId });
      assert.deepEqual(protectionLines(), [[9003, 1]]);
      assert.deepEqual(writes("/cart/add.js"), [{ items: [{ id: 9003, quantity: 1 }] }]);

      await clickNode(tab, box);
      await waitForEvent(tab, "declined");
      assert.deepEqual(shop.cart().attributes, { _protection: "declined", _protection_quote: quoteId });
      assert.deepEqual(protectionLines(), []);
      assert.deepEqual(writes("/cart/change.js"), [{ id: 9003, quantity: 0 }]);
      assert.equal(await isChecked(tab), "false");
      await staysFalseFor(() => cartReads() !== 1, 500, { what: "a /cart.js read after the widget's own cart calls" });
      assert.equal(cartReads(), 1, "the widget's own cart calls are not cart changes to re-read");
    }));

  it("a theme's cart change (Horizon: a cart call, then cart:update) re-quotes on the new amount: the line swaps to the new tier, _protection_quote follows; no /cart.js on a timer", () =>
    openCart({ lines: [[SHIRT, 1]] }, async (tab) => {
      await clickNode(tab, await checkbox(tab));
      const [accepted] = await waitForEvent(tab, "accepted");
      const readsBefore = cartReads();

      // Horizon-style: the theme changes the quantity and dispatches cart:update.
      await themeCart(tab, "cart/change.js", { id: 1001, quantity: 2 }, "cart:update");
      const offers = await waitForEvent(tab, "offer", 2);
      const quoteId = offers[1].detail.quoteId;
      assert.equal(offers[1].detail.feeCents, 780, "quoted on $259.98, without the protection line");
      assert.notEqual(quoteId, accepted.detail.quoteId);
      await waitFor(() => shop.cart().attributes._protection_quote === quoteId, {
        what: "the new quote in the cart attributes",
      });
      assert.deepEqual(shop.cart().attributes, { _protection: "accepted", _protection_quote: quoteId });
      assert.deepEqual(protectionLines(), [[9004, 1]], "the $4.00 line swapped for the $8.00 one");
      assert.equal((await checkbox(tab)).name, "Add purchase protection for $8.00");
      assert.equal(await isChecked(tab), "true", "the buyer's choice stands");

      const reads = cartReads();
      assert.equal(reads - readsBefore, 1, "one /cart.js read for the change (a call and an event in one burst)");
      await staysFalseFor(() => cartReads() !== reads, 2_500, { what: "a /cart.js read while nothing changes" });
      assert.equal(cartReads(), reads, "no /cart.js request while nothing changes");
      assert.equal((await eventsOf(tab, "offer")).length, 2);
    }));

  it("a cart call without any event (Dawn publishes internally) is noticed through resource timing", () =>
    openCart({ lines: [[SHIRT, 1]] }, async (tab) => {
      await checkbox(tab);
      await waitForEvent(tab, "offer");
      await themeCart(tab, "cart/add.js", { items: [{ id: 1001, quantity: 1 }] });
      const offers = await waitForEvent(tab, "offer", 2);
      assert.equal(offers[1].detail.feeCents, 780);
      assert.equal(cartReads(), 2);
      assert.deepEqual(shop.cart().attributes, {}, "no choice yet, nothing written");
    }));

  it("a cart event alone (the change made where the page cannot see it) is followed, for each common event name", () =>
    openCart({ lines: [[SHIRT, 1]] }, async (tab) => {
      await waitForEvent(tab, "offer");
      const names = ["cart:update", "cart:updated", "cart:refresh", "cart:change"];
      for (const [index, name] of names.entries()) {
        // 2, 1, 2, 1 shirts: the amount changes every time, always within the tiers (fee 780 or 390).
        shop.setQuantity(SHIRT, 2 - (index % 2));
        await tab.page.evaluate((event) => document.dispatchEvent(new CustomEvent(event)), name);
        const offers = await waitForEvent(tab, "offer", index + 2);
        assert.equal(offers[index + 1].detail.feeCents, index % 2 ? 390 : 780, name);
      }
      assert.equal(cartReads(), 1 + names.length, "one read per event");
    }));

  it("the buyer removing the protection line in the theme's cart is a decline: the attribute says so and the box is unticked", () =>
    openCart({ lines: [[SHIRT, 1]] }, async (tab) => {
      await clickNode(tab, await checkbox(tab));
      const [accepted] = await waitForEvent(tab, "accepted");
      await themeCart(tab, "cart/change.js", { id: 9003, quantity: 0 }, "cart:updated");
      await waitFor(() => shop.cart().attributes._protection === "declined", { what: "the declined attribute" });
      assert.equal(shop.cart().attributes._protection_quote, accepted.detail.quoteId);
      await waitForEvent(tab, "offer", 2);
      assert.equal(await isChecked(tab), "false");
      assert.deepEqual(protectionLines(), []);
    }));

  it("a standing choice (another page): the cart's accepted line shows ticked, and _protection_quote moves to the fresh quote", () =>
    openCart(
      {
        lines: [
          [SHIRT, 1],
          [9003, 1],
        ],
        attributes: { _protection: "accepted", _protection_quote: "quo_from_another_page" },
      },
      async (tab) => {
        const [offer] = await waitForEvent(tab, "offer");
        assert.equal(offer.detail.feeCents, 390, "the protection line is not part of the amount");
        await waitFor(() => shop.cart().attributes._protection_quote === offer.detail.quoteId, {
          what: "the fresh quote in the attributes",
        });
        assert.equal(await isChecked(tab), "true");
        assert.deepEqual(shop.cart().attributes, { _protection: "accepted", _protection_quote: offer.detail.quoteId });
        assert.deepEqual(protectionLines(), [[9003, 1]], "the line, already right, is left alone");
        assert.deepEqual([writes("/cart/add.js"), writes("/cart/change.js")], [[], []]);
      },
    ));

  it("a protection line without the accepted attribute is not an opt-in: unticked", () =>
    openCart(
      {
        lines: [
          [SHIRT, 1],
          [9003, 1],
        ],
      },
      async (tab) => {
        await waitForEvent(tab, "offer");
        assert.equal(await isChecked(tab), "false");
        assert.deepEqual(shop.cart().attributes, {});
      },
    ));

  it("fails open when the cart API fails: nothing shown, nothing thrown or logged", () =>
    openCart({ lines: [[SHIRT, 1]], failing: true }, async (tab) => {
      await waitFor(() => cartReads() === 1, { what: "the cart read" });
      await staysFalseFor(
        async () => (await findByRole(tab, "checkbox")) !== undefined || quoteRequests(tab).length > 0,
        500,
        { what: "an offer or a quote request" },
      );
      assert.equal(await findByRole(tab, "checkbox"), undefined);
      assert.equal(quoteRequests(tab).length, 0, "no quote without the cart");
    }));

  it("placed above the checkout button: on a page without one, nothing is shown", () =>
    openCart({ lines: [[SHIRT, 1]], checkoutButton: false }, async (tab) => {
      await waitFor(() => cartReads() === 1, { what: "the cart read" });
      await staysFalseFor(
        async () => (await findByRole(tab, "checkbox")) !== undefined || quoteRequests(tab).length > 0,
        500,
        { what: "an offer or a quote request" },
      );
      assert.equal(await findByRole(tab, "checkbox"), undefined);
      assert.equal(quoteRequests(tab).length, 0);
    }));

  it("no tier covers the fee: nothing shown (unavailable no_tier), nothing written", () =>
    openCart({ lines: [[1002, 1]] }, async (tab) => {
      const [event] = await waitForEvent(tab, "unavailable");
      assert.deepEqual(event.detail, { reason: "no_tier" });
      assert.equal(await findByRole(tab, "checkbox"), undefined);
      assert.ok(
        shop.requests.every((request) => request.method === "GET"),
        "no cart writes",
      );
    }));

  it('a merchant-paid program (docs/api.md "Who pays"): its notice above the checkout button, no box, and no line or attribute written to the cart', async () => {
    const { db } = suite.stack.api.database;
    const programId = suite.stack.api.merchant.programId;
    await db.run("UPDATE protection_programs SET payer = 'merchant' WHERE id = ?", [programId]);
    try {
      await openCart({ lines: [[SHIRT, 1]] }, async (tab) => {
        await waitFor(async () => /^Protected by .+$/m.test(await everythingInTheDom(tab)), { what: "the notice" });
        assert.equal(await findByRole(tab, "checkbox"), undefined, "no box");
        await staysFalseFor(() => shop.requests.some((request) => request.method !== "GET"), 400, {
          what: "a cart write",
        });
        assert.deepEqual([writes("/cart/add.js"), writes("/cart/update.js")], [[], []]);
        assert.deepEqual(shop.cart().attributes, {}, "no attribute that could read as an opt-in");
        assert.deepEqual(protectionLines(), []);
        assert.deepEqual(await eventsOf(tab, "offer"), []);
      });
    } finally {
      await db.run("UPDATE protection_programs SET payer = 'buyer' WHERE id = ?", [programId]);
    }
  });

  // The fake storefront's prices are read in the cart's currency, in Shopify's hundredths of the unit whatever its
  // decimals (¥600 is 60000, KWD 0.62 is 62). The quote is in the shop's (USD) on the amount at the highest tier's
  // rate (8.00 USD / its market price); the label shows the chosen tier's market price.
  for (const [currency, prices, shirt, label, variant] of [
    ["EUR", { 9001: 93, 9002: 186, 9003: 370, 9004: 790 }, SHIRT, "€3.70", 9003],
    ["JPY", { 9001: 15_000, 9002: 30_000, 9003: 60_000, 9004: 120_000 }, 1003, "¥600", 9003],
    ["KWD", { 9001: 31, 9002: 62, 9003: 124, 9004: 248 }, 1004, "KWD\u00a00.620", 9002],
  ] as const)
    it(`a Shopify Markets cart in ${currency} (USD shop): quoted in USD, shown the tier's ${currency} market price (${label}), its line added`, () =>
      openCart({ lines: [[shirt, 1]], market: { currency, prices } }, async (tab) => {
        const box = await checkbox(tab);
        const [quote] = quoteRequests(tab);
        const body = JSON.parse(quote.postData ?? "{}");
        const usdCents = Math.round((CATALOG[shirt].price * 800) / prices[9004]);
        assert.deepEqual([body.currency, body.order_amount_cents], ["USD", usdCents]);
        assert.equal(box.name, `Add purchase protection for ${label}`);
        await clickNode(tab, box);
        await waitForEvent(tab, "accepted");
        assert.deepEqual(protectionLines(), [[variant, 1]]);
      }));

  it("a Shopify Markets cart whose market prices are missing: no price shown, nothing quoted or written", () =>
    openCart(
      {
        lines: [[SHIRT, 1]],
        market: { currency: "EUR", prices: { 9001: 93, 9002: 186, 9003: 370, 9004: 790 } },
        edit: (html) => html.replace(/market="[^"]*"/, 'market="{&#34;currency&#34;:&#34;EUR&#34;}"'),
      },
      async (tab) => {
        const [event] = await waitForEvent(tab, "unavailable");
        assert.deepEqual(event.detail, { reason: "config" });
        assert.equal(await findByRole(tab, "checkbox"), undefined);
        assert.equal(quoteRequests(tab).length, 0);
        assert.ok(
          shop.requests.every((request) => request.method === "GET"),
          "no cart writes",
        );
      },
    ));
});
