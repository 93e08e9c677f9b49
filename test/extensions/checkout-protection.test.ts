// The checkout UI extension (extensions/checkout-protection), as built, rendered into a DOM (happy-dom) against the
// real protection API on loopback. Only Shopify is mocked: a `shopify` global shaped like the documented
// purchase.checkout.block.render API (signals with .value/subscribe, applyAttributeChange / applyCartLinesChange /
// applyMetafieldChange that record their calls, answer { type: "success" } and update the checkout like the host does).
import { describe, it, beforeAll, afterAll, afterEach } from "vitest";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { pathToFileURL } from "node:url";
import { Window } from "happy-dom";
import { Signal } from "@preact/signals";
import type {
  AppMetafieldEntry,
  Attribute,
  AttributeChange,
  CartLine,
  CartLineChange,
  MetafieldChange,
  Money,
} from "@shopify/ui-extensions/checkout";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import type { Quote } from "../../packages/sdk/src/responses.ts";
import { staysFalseFor, waitFor } from "../support/wait.ts";
import { bundle, MAX_BYTES, TARGET_BYTES } from "../../extensions/checkout-protection/build.ts";
import { shopifyTranslate } from "../support/shopify-i18n.ts";
import { schemaErrors, storefrontSchema } from "../support/shopify-schemas.ts";
import { MARKET_PRICES_QUERY } from "../../extensions/checkout-protection/src/offer.ts";
import { OFFER_WORDING_KEYS, OFFER_WORDINGS } from "@purchase-protection/contract";
import { assignVariant, startExperiment, stopExperiment } from "../../server/domain/experiments.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const LOCALES = path.join(ROOT, "extensions", "checkout-protection", "locales");
const DISCLOSURE = "This is not insurance. This is a contractual refund guarantee provided by Test Protection Ltd.";
const PRODUCT_ID = "7001";
const TIERS = [100, 200, 300, 400, 500].map((priceCents, index) => ({ priceCents, variantId: String(8001 + index) }));
const CHECKOUT_TOKEN = "c1-7f3a9e";
const gid = (kind: string, id: string) => `gid://shopify/${kind}/${id}`;
const usd = (amount: number): Money => ({ amount, currencyCode: "USD" });

interface Checkout {
  config?: unknown;
  lines?: { variant: string; price: number; quantity?: number }[];
  attributes?: Attribute[];
  canUpdateAttributes?: boolean;
  /** The buyer's checkout language (localization.language), English (en-US formats) by default. */
  locale?: string;
  /**
   * A Shopify Markets checkout: its currency (the shop's is USD) and each tier's price in it, as the Storefront API
   * answers in the buyer's context (converted and rounded by the market); the lines' prices are in it too.
   */
  market?: { currency: string; country: string; tierPrices: number[]; pricesCurrency?: string };
}

interface QuoteRequest {
  url: string;
  headers: Headers;
  body: {
    order_amount_cents: number;
    order_id: string;
    protection_program_id: string;
    currency?: string;
    locale?: string;
  };
  /** The API's answer once it has come (the tests read it only from quotes that succeeded). */
  response?: Quote;
}

/** A host value as the extension reads it (ReadonlySignalLike); the mock host also writes `value`, as checkout does. */
type HostSignal<T> = { value: T };
type SignalClass = new <T>(value: T) => HostSignal<T>;

/** The host's side: signals the extension reads, and the two change methods updating them as checkout does. */
function mockShopify(checkout: Checkout) {
  const linesChanges: CartLineChange[] = [];
  const attributeChanges: AttributeChange[] = [];
  const metafieldChanges: MetafieldChange[] = [];
  let nextLine = 1;
  const lineOf = (merchandiseId: string, price: number, quantity = 1): CartLine => {
    const product = merchandiseId.startsWith(gid("ProductVariant", "80")) ? PRODUCT_ID : "5001";
    return {
      id: gid("CartLine", String(nextLine++)),
      merchandise: {
        type: "variant",
        id: merchandiseId,
        product: { id: gid("Product", product) },
      } as CartLine["merchandise"],
      quantity,
      cost: { totalAmount: money(price * quantity) },
      attributes: [],
      discountAllocations: [],
      lineComponents: [],
      parentRelationship: null,
    };
  };
  const money = (amount: number): Money => ({ amount, currencyCode: checkout.market?.currency ?? "USD" }) as Money;
  /** A tier's price where the checkout is: its market price in a Markets checkout. */
  const tierPrice = (index: number) => checkout.market?.tierPrices[index] ?? TIERS[index].priceCents / 100;
  const priceOf = (merchandiseId: string) =>
    tierPrice(TIERS.findIndex((tier) => gid("ProductVariant", tier.variantId) === merchandiseId));
  const queries: { query: string; variables: unknown }[] = [];
  const configEntries = (config: unknown): AppMetafieldEntry[] =>
    config === undefined
      ? []
      : [
          {
            target: { type: "shop", id: gid("Shop", "1") },
            metafield: {
              namespace: "$app:protection",
              key: "config",
              value: JSON.stringify(config),
              valueType: "json_string",
              type: "json",
            },
          },
        ];
  const initialLines = (checkout.lines ?? [{ variant: gid("ProductVariant", "5101"), price: 129.99 }]).map((line) =>
    lineOf(line.variant, line.price, line.quantity),
  );

  const subtotal = (lines: CartLine[]) =>
    money(Math.round(lines.reduce((sum, line) => sum + line.cost.totalAmount.amount, 0) * 1000) / 1000);
  // The host's values are signals (ReadonlySignalLike: `value` and `subscribe`); an extension may hand the host
  // its own Signal class (`@shopify/ui-extensions/preact` does); ours does not, so the host's own are used.
  const signalsOf = (Signal: SignalClass) => ({
    appMetafields: new Signal(configEntries(checkout.config)),
    lines: new Signal(initialLines),
    attributes: new Signal(checkout.attributes ?? []),
    checkoutToken: new Signal(CHECKOUT_TOKEN),
    instructions: new Signal({
      attributes: { canUpdateAttributes: checkout.canUpdateAttributes ?? true },
      lines: { canAddCartLine: true, canRemoveCartLine: true, canUpdateCartLine: true },
      delivery: { canSelectCustomAddress: true },
      discounts: { canUpdateDiscountCodes: true },
      metafields: { canDeleteCartMetafield: true, canSetCartMetafields: true },
      notes: { canUpdateNote: true },
    }),
    cost: { subtotalAmount: new Signal(subtotal(initialLines)) },
    localization: {
      language: new Signal({ isoCode: checkout.locale ?? "en" }),
      country: new Signal({ isoCode: checkout.market?.country ?? "US" }),
    },
  });

  const shopify = {
    ...signalsOf(Signal),
    shop: { id: gid("Shop", "1"), name: "Maison Dupont", myshopifyDomain: "maison-dupont.myshopify.com" },
    setSignals(HostSignal: SignalClass) {
      Object.assign(shopify, signalsOf(HostSignal));
    },
    setLines(lines: CartLine[]) {
      shopify.lines.value = lines;
      shopify.cost.subtotalAmount.value = subtotal(lines);
    },
    i18n: {
      formatCurrency: (value: number, options: Intl.NumberFormatOptions) =>
        new Intl.NumberFormat(checkout.locale ?? "en-US", { style: "currency", ...options }).format(value),
      translate: shopifyTranslate(LOCALES, checkout.locale ?? "en"),
    },
    async applyCartLinesChange(change: CartLineChange) {
      linesChanges.push(change);
      const lines = shopify.lines.value;
      if (change.type === "addCartLine")
        shopify.setLines([...lines, lineOf(change.merchandiseId, priceOf(change.merchandiseId), change.quantity)]);
      if (change.type === "removeCartLine") shopify.setLines(lines.filter((line) => line.id !== change.id));
      return { type: "success" };
    },
    async applyAttributeChange(change: AttributeChange) {
      attributeChanges.push(change);
      const others = shopify.attributes.value.filter((entry) => entry.key !== change.key);
      shopify.attributes.value =
        change.type === "updateAttribute" ? [...others, { key: change.key, value: change.value }] : others;
      return { type: "success" };
    },
    async applyMetafieldChange(change: MetafieldChange) {
      metafieldChanges.push(change);
      return { type: "success" };
    },
    /** The Storefront API in the buyer's context: the shop's currency and the tier variants' prices in the market. */
    async query(query: string, options: { variables: { ids: string[]; country?: string } }) {
      queries.push({ query, variables: options.variables });
      const currencyCode = checkout.market?.pricesCurrency ?? checkout.market?.currency ?? "USD";
      return {
        data: {
          shop: { paymentSettings: { currencyCode: "USD" } },
          nodes: options.variables.ids.map((id) => {
            const index = TIERS.findIndex((tier) => gid("ProductVariant", tier.variantId) === id);
            return index < 0 ? null : { id, price: { amount: String(tierPrice(index)), currencyCode } };
          }),
        },
      };
    },
  };
  return { shopify, linesChanges, attributeChanges, metafieldChanges, queries };
}

describe("checkout UI extension (checkout-protection)", () => {
  let t: TestApi;
  let code: Uint8Array;
  let moduleFile: string;
  let runs = 0;
  let window: Window | undefined;
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    // A socket: the extension under test calls `apiBase` with the real fetch.
    t = await startTestApi({ dialect: "sqlite", transport: "socket" });
    code = await bundle();
    // Under node_modules: vitest hands such files to Node's own loader (a fresh copy per ?run=), and resolves a path
    // outside the project against the project root.
    const cache = path.join(ROOT, "node_modules", ".cache");
    fs.mkdirSync(cache, { recursive: true });
    moduleFile = path.join(fs.mkdtempSync(path.join(cache, "pp-checkout-ext-")), "checkout.mjs");
    fs.writeFileSync(moduleFile, code);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(path.dirname(moduleFile), { recursive: true, force: true });
  });
  afterEach(async () => {
    globalThis.fetch = realFetch;
    await window?.happyDOM.close();
  });

  const config = (overrides: Record<string, unknown> = {}) => ({
    version: 1,
    publishableKey: t.merchant.publishableKey,
    programId: t.merchant.programId,
    apiBase: t.baseUrl,
    widgetUrl: "https://app.example.test/widget/v1/service-widget.js",
    productId: PRODUCT_ID,
    tiers: TIERS,
    ...overrides,
  });

  /** Loads a fresh copy of the built extension into a new DOM with a new checkout, and runs its entry. */
  async function mount(checkout: Checkout) {
    window = new Window();
    const { document } = window;
    Object.assign(globalThis, { document });
    const host = mockShopify(checkout);
    Object.assign(globalThis, { shopify: host.shopify });
    const quotes: QuoteRequest[] = [];
    globalThis.fetch = async (input, init) => {
      const request: QuoteRequest = {
        url: String(input),
        headers: new Headers(init?.headers),
        body: JSON.parse(String(init?.body)),
      };
      quotes.push(request);
      const response = await realFetch(input, init);
      request.response = await response.clone().json();
      return response;
    };
    const extension = await import(`${pathToFileURL(moduleFile).href}?run=${++runs}`);
    await extension.default();
    const checkbox = () => document.body.querySelector("s-checkbox");
    return { ...host, document, quotes, checkbox };
  }

  it("quotes the order with the publishable key and renders the tier price, the verbatim disclosure and the terms link, unchecked", async () => {
    const view = await mount({ config: config() });
    await waitFor(view.checkbox, { what: "the offer" });

    assert.equal(view.quotes.length, 1);
    const [quote] = view.quotes;
    assert.equal(quote.url, `${t.baseUrl}/offers/quote`);
    assert.equal(quote.headers.get("authorization"), `Bearer ${t.merchant.publishableKey}`);
    assert.match(
      quote.headers.get("idempotency-key") ?? "",
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.deepEqual(quote.body, {
      order_amount_cents: 12_999,
      order_id: CHECKOUT_TOKEN,
      protection_program_id: t.merchant.programId,
      currency: "USD",
      locale: "en",
    });
    assert.equal(quote.response!.feeCents, 390);

    const checkbox = view.checkbox()!;
    assert.equal(
      checkbox.getAttribute("label"),
      "Add purchase protection for $4.00",
      "the smallest tier at or above the 3.90 fee",
    );
    assert.equal(checkbox.hasAttribute("checked"), false, "never pre-checked");
    assert.equal(view.document.body.querySelector("s-text")?.textContent, DISCLOSURE);
    assert.equal(quote.response!.disclosureText, DISCLOSURE);
    const link = view.document.body.querySelector("s-link")!;
    assert.equal(link.getAttribute("href"), "https://portal.example.test/terms");
    assert.equal(link.textContent, "Coverage terms");
    assert.deepEqual(
      [view.linesChanges, view.attributeChanges, view.metafieldChanges],
      [[], [], []],
      "nothing is recorded before the buyer chooses",
    );
  });

  it("an offer experiment: the checkout token's variant prices and words the offer, and no wording is ever pre-checked", async () => {
    const owner = {
      merchantId: t.merchant.merchantId,
      mode: "test" as const,
      actor: { id: "mem_1", email: "o@example.com" },
      ip: "",
    };
    const experiment = await t.database.db.transaction((tx) =>
      startExperiment(tx, t.services, owner, {
        variants: [
          { control: true },
          { control: false, ratePercent: "3.6", offerWording: "protect_order" },
          { control: false, ratePercent: "2.4", offerWording: "cover_transit" },
        ],
      }),
    );
    // $129.99 at 3 % is 390 (the $4.00 tier), at 3.6 % 468 ($5.00), at 2.4 % 312 ($4.00).
    const expected = {
      A: ["standard", 390, "$4.00"],
      B: ["protect_order", 468, "$5.00"],
      C: ["cover_transit", 312, "$4.00"],
    } as const;
    const [wording, fee, price] = expected[assignVariant(experiment.id, CHECKOUT_TOKEN, ["A", "B", "C"] as const)];
    const view = await mount({ config: config() });
    await waitFor(view.checkbox, { what: "the offer" });
    assert.deepEqual([view.quotes[0].response!.feeCents, view.quotes[0].response!.offerWording], [fee, wording]);
    assert.equal(view.checkbox()!.getAttribute("label"), OFFER_WORDINGS[wording].replace("{price}", price));
    assert.equal(view.checkbox()!.hasAttribute("checked"), false, "never pre-checked");
    await t.database.db.transaction((tx) => stopExperiment(tx, t.services, owner, experiment.id));
    // Every approved wording, as the program's own: shown as the catalogue words it, never pre-checked.
    for (const key of OFFER_WORDING_KEYS) {
      await window?.happyDOM.close();
      await t.database.db.run("UPDATE protection_programs SET offer_wording = ? WHERE id = ?", [
        key,
        t.merchant.programId,
      ]);
      const each = await mount({ config: config() });
      await waitFor(each.checkbox, { what: `the ${key} offer` });
      assert.equal(each.checkbox()!.getAttribute("label"), OFFER_WORDINGS[key].replace("{price}", "$4.00"));
      assert.equal(each.checkbox()!.hasAttribute("checked"), false, `${key}: never pre-checked`);
    }
    await t.database.db.run("UPDATE protection_programs SET offer_wording = 'standard' WHERE id = ?", [
      t.merchant.programId,
    ]);
  });

  it("a Shopify Markets checkout in EUR: quoted in the shop's USD, shown and added at the tier's EUR price from the Storefront API in the buyer's country", async () => {
    // The market's prices of the 1.00 … 5.00 USD tiers, as Shopify converted and rounded them.
    const tierPrices = [0.95, 1.85, 2.8, 3.7, 4.6];
    const view = await mount({
      config: config(),
      market: { currency: "EUR", country: "FR", tierPrices },
      lines: [{ variant: gid("ProductVariant", "5101"), price: 110 }],
    });
    await waitFor(view.checkbox, { what: "the offer" });
    assert.deepEqual(
      view.queries.map((query) => query.variables),
      [{ ids: TIERS.map((tier) => gid("ProductVariant", tier.variantId)), country: "FR" }],
    );
    assert.match(view.queries[0].query, /@inContext\(country: \$country\)/);
    // 110.00 EUR at the highest tier's 5.00 USD / 4.60 EUR = 119.57 USD; its 3 % fee 3.59 is the 4.00 USD tier.
    assert.deepEqual(
      { amount: view.quotes[0].body.order_amount_cents, currency: view.quotes[0].body.currency },
      { amount: 11_957, currency: "USD" },
    );
    assert.equal(view.quotes[0].response!.feeCents, 359);
    assert.equal(
      view.checkbox()!.getAttribute("label"),
      "Add purchase protection for €3.70",
      "the 4.00 USD tier's price in the market: what Shopify will charge",
    );
    view.checkbox()!.dispatchEvent(new view.document.defaultView!.Event("change"));
    await waitFor(() => view.attributeChanges.length === 2, { what: "the attributes" });
    assert.deepEqual(view.linesChanges, [
      { type: "addCartLine", merchandiseId: gid("ProductVariant", "8004"), quantity: 1 },
    ]);
    assert.deepEqual(view.shopify.cost.subtotalAmount.value, { amount: 113.7, currencyCode: "EUR" });
  });

  it("the market prices' query is valid against Shopify's Storefront API schema of the extension's API version", () => {
    assert.deepEqual(schemaErrors(storefrontSchema("2026-10"), MARKET_PRICES_QUERY), []);
  });

  it("a Markets checkout whose market prices are not in the checkout's currency shows no offer", async () => {
    // The Storefront API answering in another context (its prices in GBP) than the checkout's EUR.
    const view = await mount({
      config: config(),
      market: { currency: "EUR", country: "FR", tierPrices: [0.95, 1.85, 2.8, 3.7, 4.6], pricesCurrency: "GBP" },
    });
    await waitFor(() => view.queries.length === 1, { what: "the market's prices asked" });
    await staysFalseFor(() => view.checkbox() !== null || view.quotes.length > 0, 600, { what: "an offer" });
  });

  it("a French buyer: the quote asks for fr-FR, and the label (locales/fr.json, the price as Shopify formats it), the disclosure and the terms link are French", async () => {
    const view = await mount({ config: config(), locale: "fr-FR" });
    await waitFor(view.checkbox, { what: "the offer" });
    assert.equal(view.quotes[0].body.locale, "fr-FR");
    assert.equal(
      view.checkbox()!.getAttribute("label")!.replace(/\s/g, " "),
      "Ajouter une protection d’achat pour 4,00 $US",
    );
    assert.equal(
      view.document.body.querySelector("s-text")?.textContent,
      "Ceci n’est pas une assurance. Il s’agit d’une garantie de remboursement contractuelle fournie par Test Protection Ltd.",
    );
    assert.equal(view.document.body.querySelector("s-link")!.textContent, "Conditions de la protection");
  });

  it("checking adds the tier's line and records accepted with the quote id, in the attributes and the app's cart metafield; unchecking records declined and removes the line", async () => {
    const view = await mount({ config: config() });
    await waitFor(view.checkbox, { what: "the offer" });
    const quoteId = view.quotes[0].response!.quoteId;
    assert.match(quoteId, /^qt_/);

    view.checkbox()!.dispatchEvent(new view.document.defaultView!.Event("change"));
    await waitFor(() => view.attributeChanges.length === 2, { what: "the attributes" });
    assert.deepEqual(view.linesChanges, [
      { type: "addCartLine", merchandiseId: gid("ProductVariant", "8004"), quantity: 1 },
    ]);
    assert.deepEqual(view.attributeChanges, [
      { type: "updateAttribute", key: "_protection", value: "accepted" },
      { type: "updateAttribute", key: "_protection_quote", value: quoteId },
    ]);
    const choiceMetafield = (value: string) => ({
      type: "updateCartMetafield",
      metafield: { namespace: "$app:protection", key: "choice", type: "single_line_text_field", value },
    });
    await waitFor(() => view.metafieldChanges.length === 1, { what: "the cart metafield" });
    assert.deepEqual(view.metafieldChanges, [choiceMetafield("accepted")]);
    await waitFor(() => view.checkbox()!.hasAttribute("checked"), { what: "the checked box" });
    assert.equal(view.shopify.cost.subtotalAmount.value.amount, 133.99, "the host added the 4.00 line");
    await staysFalseFor(() => view.quotes.length > 1, 600, { what: "a re-quote" });
    assert.equal(view.quotes.length, 1, "the protection line does not change the quoted amount, so no re-quote");

    const line = view.shopify.lines.value.find((entry) => entry.merchandise.id === gid("ProductVariant", "8004"))!;
    view.checkbox()!.dispatchEvent(new view.document.defaultView!.Event("change"));
    await waitFor(() => view.attributeChanges.length === 3, { what: "the decline" });
    assert.deepEqual(view.linesChanges.slice(1), [{ type: "removeCartLine", id: line.id, quantity: 1 }]);
    assert.deepEqual(view.attributeChanges.slice(2), [
      { type: "updateAttribute", key: "_protection", value: "declined" },
    ]);
    await waitFor(() => view.metafieldChanges.length === 2, { what: "the declined cart metafield" });
    assert.deepEqual(view.metafieldChanges.slice(1), [choiceMetafield("declined")]);
    await waitFor(() => !view.checkbox()!.hasAttribute("checked"), { what: "the unchecked box" });
  });

  it("quotes the subtotal without the protection line, and an accepted choice follows the new quote's tier and id", async () => {
    const view = await mount({
      config: config(),
      lines: [
        { variant: gid("ProductVariant", "5101"), price: 129.99 },
        { variant: gid("ProductVariant", "8003"), price: 3 },
      ],
      attributes: [
        { key: "_protection", value: "accepted" },
        { key: "_protection_quote", value: "qt_earlier" },
      ],
    });
    const staleLine = view.shopify.lines.value[1];
    await waitFor(() => view.attributeChanges.length === 1, { what: "the quote id update" });
    assert.equal(view.quotes[0].body.order_amount_cents, 12_999, "132.99 subtotal minus the 3.00 protection line");
    assert.deepEqual(view.linesChanges, [
      { type: "removeCartLine", id: staleLine.id, quantity: 1 },
      { type: "addCartLine", merchandiseId: gid("ProductVariant", "8004"), quantity: 1 },
    ]);
    assert.deepEqual(view.attributeChanges, [
      { type: "updateAttribute", key: "_protection_quote", value: view.quotes[0].response!.quoteId },
    ]);
    assert.deepEqual(view.metafieldChanges, [], "the choice did not change: the cart metafield stands");
    assert.equal(view.checkbox()!.hasAttribute("checked"), true);
  });

  it("after accepting, a failed re-quote keeps the offer checked so the buyer can still uncheck it (line removed, declined)", async () => {
    const view = await mount({ config: config() });
    await waitFor(view.checkbox, { what: "the offer" });
    view.checkbox()!.dispatchEvent(new view.document.defaultView!.Event("change"));
    await waitFor(() => view.attributeChanges.length === 2, { what: "the opt-in" });
    let failedQuotes = 0;
    globalThis.fetch = async () => {
      failedQuotes++;
      throw new TypeError("network down");
    };
    const merchandise = view.shopify.lines.value.find(
      (entry) => !entry.merchandise.id.startsWith(gid("ProductVariant", "80")),
    )!;
    const protection = view.shopify.lines.value.find(
      (entry) => entry.merchandise.id === gid("ProductVariant", "8004"),
    )!;
    view.shopify.setLines([{ ...merchandise, cost: { totalAmount: usd(150) } }, protection]);
    await waitFor(() => failedQuotes === 1, { what: "the re-quote" });
    await staysFalseFor(() => !view.checkbox()?.hasAttribute("checked"), 200, {
      what: "the offer unchecked or removed",
    });
    assert.equal(view.checkbox()?.hasAttribute("checked"), true, "still on screen, still checked");
    view.checkbox()!.dispatchEvent(new view.document.defaultView!.Event("change"));
    await waitFor(() => view.attributeChanges.length === 3, { what: "the decline" });
    assert.deepEqual(view.linesChanges.at(-1), { type: "removeCartLine", id: protection.id, quantity: 1 });
    assert.deepEqual(view.attributeChanges.at(-1), { type: "updateAttribute", key: "_protection", value: "declined" });
  });

  it("re-quotes once when the amount settles after changes, showing the tier of the new fee", async () => {
    const view = await mount({ config: config() });
    await waitFor(view.checkbox, { what: "the offer" });
    const [merchandise] = view.shopify.lines.value;
    for (const amount of [140, 145, 150]) {
      view.shopify.setLines([{ ...merchandise, cost: { totalAmount: usd(amount) } }]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitFor(() => view.quotes.length === 2, { what: "the re-quote" });
    await staysFalseFor(() => view.quotes.length > 2, 600, { what: "a third quote" });
    assert.equal(view.quotes.length, 2, "one quote for the settled amount, none for the intermediate ones");
    assert.equal(view.quotes[1].body.order_amount_cents, 15_000);
    await waitFor(() => view.checkbox()?.getAttribute("label") === "Add purchase protection for $5.00", {
      what: "the 4.50 fee's tier",
    });
  });

  it("renders nothing and asks for no quote when attributes cannot be updated (accelerated checkout)", async () => {
    const view = await mount({ config: config(), canUpdateAttributes: false });
    await staysFalseFor(() => view.document.body.innerHTML !== "" || view.quotes.length > 0, 600, {
      what: "a rendered offer or a quote request",
    });
    assert.equal(view.document.body.innerHTML, "");
    assert.equal(view.quotes.length, 0);
  });

  /** The config of a new merchant whose program is paid as given (docs/api.md "Who pays"). */
  async function configPaidBy(payer: "split" | "merchant", buyerShareBps: number | null) {
    const merchant = await t.createMerchant(`Paid by ${payer}`);
    await t.database.db.run("UPDATE protection_programs SET payer = ?, buyer_share_bps = ? WHERE id = ?", [
      payer,
      buyerShareBps,
      merchant.programId,
    ]);
    return config({ publishableKey: merchant.publishableKey, programId: merchant.programId });
  }

  it("a split program: offers and adds the tier of the buyer's part, not of the whole fee", async () => {
    // $129.99 at 3 %: a fee of $3.90; the buyer pays 25 % of it, 97.5 → 98 cents: the $1.00 tier (8001), not $4.00.
    const view = await mount({ config: await configPaidBy("split", 2_500) });
    await waitFor(view.checkbox, { what: "the offer" });
    assert.deepEqual([view.quotes[0].response!.feeCents, view.quotes[0].response!.buyerFeeCents], [390, 98]);
    assert.equal(view.checkbox()!.getAttribute("label"), "Add purchase protection for $1.00");
    view.checkbox()!.dispatchEvent(new view.document.defaultView!.Event("change"));
    await waitFor(() => view.linesChanges.length === 1, { what: "the protection line" });
    assert.deepEqual(view.linesChanges, [
      { type: "addCartLine", merchandiseId: gid("ProductVariant", "8001"), quantity: 1 },
    ]);
  });

  for (const [locale, notice, terms] of [
    ["en", "Protected by Maison Dupont", "Coverage terms"],
    ["fr", "Protégé par Maison Dupont", "Conditions de la protection"],
  ])
    it(`a merchant-paid program (${locale}): '${notice}' with the disclosure and the terms link instead of the checkbox; no line, attribute or metafield written`, async () => {
      const view = await mount({ config: await configPaidBy("merchant", null), locale });
      await waitFor(() => view.document.body.textContent!.includes(notice), { what: "the notice" });
      const quote = view.quotes[0].response!;
      assert.deepEqual([quote.payer, quote.buyerFeeCents], ["merchant", 0]);
      assert.equal(view.checkbox(), null, "no checkbox");
      const link = view.document.querySelector("s-link")!;
      assert.deepEqual([link.getAttribute("href"), link.textContent], [quote.termsUrl, terms]);
      assert.ok(view.document.body.textContent!.includes(quote.offerTexts.disclosure), "the disclosure");
      await staysFalseFor(
        () => view.linesChanges.length + view.attributeChanges.length + view.metafieldChanges.length > 0,
        200,
        { what: "a line, attribute or metafield written" },
      );
    });

  for (const [name, checkout] of [
    ["the config is missing", {}],
    ["the config is malformed", { config: { version: 1, publishableKey: "wk_test_x", tiers: [] } }],
  ] as const) {
    it(`renders nothing when ${name}`, async () => {
      const view = await mount(checkout);
      await staysFalseFor(() => view.document.body.innerHTML !== "" || view.quotes.length > 0, 600, {
        what: "a rendered offer or a quote request",
      });
      assert.equal(view.document.body.innerHTML, "");
      assert.equal(view.quotes.length, 0);
    });
  }

  for (const [name, overrides] of [
    ["the API is down", { apiBase: "http://127.0.0.1:9/api/v1" }],
    ["the API refuses the key", { publishableKey: "wk_test_unknown" }],
    ["no tier covers the fee", { tiers: [{ priceCents: 300, variantId: "8003" }] }],
  ] as const) {
    it(`renders nothing when ${name}`, async () => {
      const view = await mount({ config: config(overrides) });
      await waitFor(() => view.quotes.length === 1, { what: "the quote request" });
      await staysFalseFor(() => view.document.body.innerHTML !== "", 200, { what: "a rendered offer" });
      assert.equal(view.document.body.innerHTML, "");
    });
  }

  it(`builds to at most ${TARGET_BYTES} bytes (our aim; Shopify's limit for a UI extension is ${MAX_BYTES})`, () => {
    assert.ok(code.byteLength <= MAX_BYTES, `${code.byteLength} bytes: over Shopify's limit`);
    assert.ok(code.byteLength <= TARGET_BYTES, `${code.byteLength} bytes: over the ${TARGET_BYTES}-byte aim`);
  });

  it("type-checks with its own tsconfig (Preact JSX, the target's `shopify` global)", async () => {
    const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
    await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", "extensions/checkout-protection"], {
      cwd: ROOT,
    });
  });
});
