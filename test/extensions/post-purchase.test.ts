// The post-purchase extension (extensions/post-purchase), each target as built, rendered into a DOM (happy-dom) as the
// checkout extension's tests render theirs, against the real app on loopback: the status route behind a real Shopify
// app whose orders were protected by signed orders/create webhooks. Only Shopify's page is mocked: a `shopify` global
// shaped like the documented purchase.thank-you.block.render and customer-account.order-status.block.render APIs
// (signals with .value/subscribe, sessionToken.get() answering a token made as Shopify makes them, i18n).
import { describe, it, beforeAll, afterAll, afterEach } from "vitest";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { pathToFileURL } from "node:url";
import { Window } from "happy-dom";
import { Signal } from "@preact/signals";
import { extensionSessionToken, shopifyId } from "../support/shopify.ts";
import { staysFalseFor, waitFor } from "../support/wait.ts";
import { shopifyTranslate } from "../support/shopify-i18n.ts";
import {
  bundle,
  bundleAll,
  MAX_BYTES,
  TARGET_BYTES,
  TARGETS,
  type Target,
} from "../../extensions/post-purchase/build.ts";
import { PORTAL_URL, startPostPurchaseApp, type PostPurchaseApp } from "./post-purchase-app.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SHOP = "post-purchase-blocks.myshopify.com";
const TARGET_NAMES = Object.keys(TARGETS) as Target[];
const LOCALES = path.join(ROOT, "extensions", "post-purchase", "locales");
const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";
const FORMAT: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" };

interface Page {
  orderId: string;
  attributes?: { key: string; value: string }[];
  config?: unknown;
  token?: () => string;
  /** The buyer's language, as the page resolves the extension's locales/*.json (English by default). */
  locale?: string;
}

interface StatusRequest {
  url: string;
  headers: Headers;
  status?: number;
}

/** The page's side of each target: the signals and APIs the block reads. */
function mockShopify(target: Target, page: Page) {
  const metafields =
    page.config === undefined
      ? []
      : [
          {
            target: { type: "shop", id: "gid://shopify/Shop/1" },
            metafield: {
              namespace: "$app:protection",
              key: "config",
              value: JSON.stringify(page.config),
              valueType: "json_string",
              type: "json",
            },
          },
        ];
  const common = {
    attributes: new Signal(page.attributes ?? [{ key: "_protection", value: "accepted" }]),
    appMetafields: new Signal(metafields),
    sessionToken: { get: async () => (page.token ?? (() => extensionSessionToken(SHOP)))() },
    i18n: {
      formatDate: (date: Date, options?: Intl.DateTimeFormatOptions) => format(date, options, page.locale),
      translate: shopifyTranslate(LOCALES, page.locale ?? "en"),
    },
  };
  // The Thank-you page knows the order by an OrderIdentity gid (the order may not be fully created yet); the
  // Order-status page by its Order gid.
  return target === "purchase.thank-you.block.render"
    ? {
        ...common,
        orderConfirmation: new Signal({
          order: { id: `gid://shopify/OrderIdentity/${page.orderId}` },
          number: "1001",
          isFirstOrder: true,
        }),
      }
    : { ...common, order: new Signal({ id: `gid://shopify/Order/${page.orderId}`, name: "#1001" }) };
}

const format = (date: Date, options?: Intl.DateTimeFormatOptions, locale = "en-US") =>
  new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(date);

/** The free look's whole hours left as the block counts them when it renders (`before` ms ago at most). */
const hoursLeftOf = (freeLookEndsAt: number, before = 0) => {
  const left = (at: number) => Math.ceil((freeLookEndsAt - at) / 3_600_000);
  return [left(Date.now()), left(Date.now() - before)];
};

describe("post-purchase UI extension (Thank-you and Order-status blocks)", () => {
  let t: PostPurchaseApp;
  let origin: string;
  let cacheDir: string;
  const modules = new Map<Target, string>();
  let runs = 0;
  let window: Window | undefined;
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    t = await startPostPurchaseApp("sqlite", [SHOP]);
    origin = await t.listen();
    // Under node_modules: vitest hands such files to Node's own loader (a fresh copy per ?run=).
    const cache = path.join(ROOT, "node_modules", ".cache");
    fs.mkdirSync(cache, { recursive: true });
    cacheDir = fs.mkdtempSync(path.join(cache, "pp-post-purchase-ext-"));
    for (const target of TARGET_NAMES) {
      const file = path.join(cacheDir, `${target}.mjs`);
      fs.writeFileSync(file, await bundle(target));
      modules.set(target, file);
    }
  });
  afterAll(async () => {
    await t?.close();
    if (cacheDir) fs.rmSync(cacheDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    globalThis.fetch = realFetch;
    await window?.happyDOM.close();
  });

  const config = () => ({
    version: 1,
    publishableKey: "wk_test_unused",
    programId: "prog_unused",
    apiBase: `${origin}/api/v1`,
    widgetUrl: `${origin}/widget/v1/service-widget.js`,
    productId: "7001",
    tiers: [{ priceCents: 100, variantId: "8001" }],
  });

  /** Loads a fresh copy of the target's built module into a new DOM with a new page, and runs its entry. */
  async function mount(target: Target, page: Page) {
    window = new Window();
    const { document } = window;
    Object.assign(globalThis, { document, shopify: mockShopify(target, { config: config(), ...page }) });
    const requests: StatusRequest[] = [];
    globalThis.fetch = async (input, init) => {
      const request: StatusRequest = { url: String(input), headers: new Headers(init?.headers) };
      requests.push(request);
      // The sandbox is a browser's worker: its fetch sends the browser's User-Agent (Node's would look like a bot,
      // which authenticate.public.checkout turns away with 410).
      const headers = new Headers(init?.headers);
      headers.set("User-Agent", BROWSER_USER_AGENT);
      const response = await realFetch(input, { ...init, headers });
      request.status = response.status;
      return response;
    };
    const extension = await import(`${pathToFileURL(modules.get(target)!).href}?run=${++runs}`);
    await extension.default();
    const links = () =>
      [...document.body.querySelectorAll("s-link")].map((link) => [link.textContent, link.getAttribute("href")]);
    const texts = () => [...document.body.querySelectorAll("s-text")].map((text) => text.textContent);
    return { document, requests, links, texts };
  }

  for (const target of TARGET_NAMES) {
    it(`${target}: a protected order shows its reference, "Report a problem" and "Cancel protection (until …, N hours left)" into the portal`, async () => {
      const { orderId } = await t.placeOrder(SHOP);
      const plan = (await t.planOf(orderId))!;
      const mountedAt = Date.now();
      const view = await mount(target, { orderId });
      await waitFor(() => view.links().length === 2, { what: "the two links" });
      const hours = hoursLeftOf(plan.freeLookEndsAt, Date.now() - mountedAt);

      assert.equal(view.requests.length, 1);
      assert.equal(view.requests[0].url, `${origin}/extensions/protection-status?orderId=${orderId}`);
      assert.match(view.requests[0].headers.get("authorization") ?? "", /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      assert.equal(view.document.body.querySelector("s-heading")?.textContent, "Purchase protection");
      assert.deepEqual(view.texts(), [`Reference number: ${plan.referenceNumber}`]);
      const link = `${PORTAL_URL}?reference=${encodeURIComponent(plan.referenceNumber)}`;
      const until = format(new Date(plan.freeLookEndsAt), FORMAT);
      assert.ok(
        hours.some((count) =>
          isDeepStrictEqual(view.links(), [
            ["Report a problem", link],
            [`Cancel protection (until ${until}, ${count} hours left)`, link],
          ]),
        ),
        JSON.stringify(view.links()),
      );
    });
  }

  it("purchase.thank-you.block.render for a French buyer: the texts of locales/fr.json, the date and the hours left in French", async () => {
    const { orderId } = await t.placeOrder(SHOP);
    const plan = (await t.planOf(orderId))!;
    const mountedAt = Date.now();
    const view = await mount("purchase.thank-you.block.render", { orderId, locale: "fr-FR" });
    await waitFor(() => view.links().length === 2, { what: "the two links" });
    const hours = hoursLeftOf(plan.freeLookEndsAt, Date.now() - mountedAt);
    assert.equal(view.document.body.querySelector("s-heading")?.textContent, "Protection d’achat");
    assert.deepEqual(view.texts(), [`Numéro de référence : ${plan.referenceNumber}`]);
    const link = `${PORTAL_URL}?reference=${encodeURIComponent(plan.referenceNumber)}`;
    const until = format(new Date(plan.freeLookEndsAt), FORMAT, "fr-FR");
    assert.ok(
      hours.some((count) =>
        isDeepStrictEqual(view.links(), [
          ["Signaler un problème", link],
          [`Annuler la protection (jusqu’au ${until}, encore ${count} heures)`, link],
        ]),
      ),
      JSON.stringify(view.links()),
    );
  });

  it("the cancel link's plural: one hour left reads in the singular (locales' one form, chosen by count)", () => {
    const date = "1 Dec 2026, 10:00";
    assert.equal(
      shopifyTranslate(LOCALES, "en")("cancel", { date, count: 1 }),
      `Cancel protection (until ${date}, 1 hour left)`,
    );
    assert.equal(
      shopifyTranslate(LOCALES, "de-AT")("cancel", { date, count: 1 }),
      `Schutz stornieren (bis ${date}, noch 1 Stunde)`,
    );
    assert.equal(
      shopifyTranslate(LOCALES, "es")("cancel", { date, count: 2 }),
      `Cancelar la protección (hasta el ${date}, quedan 2 horas)`,
    );
  });

  it("customer-account.order-status.block.render: an order protected on its line alone (an accelerated checkout dropped the attribute) shows once its reference is written back", async () => {
    const { orderId } = await t.placeOrder(SHOP);
    const plan = (await t.planOf(orderId))!;
    const view = await mount("customer-account.order-status.block.render", {
      orderId,
      attributes: [{ key: "_protection_reference", value: plan.referenceNumber }],
    });
    await waitFor(() => view.links().length === 2, { what: "the two links" });
    assert.deepEqual(view.texts(), [`Reference number: ${plan.referenceNumber}`]);
  });

  it("pending (the Thank-you page before the webhook): the reference is on its way by e-mail, and a link to the portal", async () => {
    const view = await mount("purchase.thank-you.block.render", { orderId: String(shopifyId()) });
    await waitFor(() => view.links().length === 1, { what: "the portal link" });
    assert.deepEqual(view.texts(), ["Your protection is being set up: its reference number is on its way by e-mail."]);
    assert.deepEqual(view.links(), [["Report a problem", PORTAL_URL]]);
  });

  for (const target of TARGET_NAMES) {
    it(`${target}: an order without the opt-in shows nothing and asks nothing`, async () => {
      const { orderId } = await t.placeOrder(SHOP, { optedIn: false });
      for (const attributes of [[], [{ key: "_protection", value: "declined" }]]) {
        const view = await mount(target, { orderId, attributes });
        await staysFalseFor(() => view.document.body.innerHTML !== "" || view.requests.length > 0, 300, {
          what: "a rendered block or a request",
        });
        assert.equal(view.document.body.innerHTML, "");
        assert.equal(view.requests.length, 0);
        await window?.happyDOM.close();
      }
    });
  }

  it('after the free look: the reference and "Report a problem", no "Cancel protection"', async () => {
    const { orderId } = await t.placeOrder(SHOP);
    const plan = (await t.planOf(orderId))!;
    await t.app.database.db.run("UPDATE plans SET free_look_ends_at = ? WHERE id = ?", [Date.now() - 1_000, plan.id]);
    const view = await mount("customer-account.order-status.block.render", { orderId });
    await waitFor(() => view.links().length > 0, { what: "the block" });
    await staysFalseFor(() => view.links().length > 1, 200, { what: "a cancel link" });
    assert.deepEqual(view.texts(), [`Reference number: ${plan.referenceNumber}`]);
    assert.deepEqual(view.links(), [
      ["Report a problem", `${PORTAL_URL}?reference=${encodeURIComponent(plan.referenceNumber)}`],
    ]);
  });

  it("a cancelled plan: says so, links to the portal, no cancel link", async () => {
    const { orderId } = await t.placeOrder(SHOP);
    const plan = (await t.planOf(orderId))!;
    await t.app.database.db.run("UPDATE plans SET status = 'cancelled' WHERE id = ?", [plan.id]);
    const view = await mount("customer-account.order-status.block.render", { orderId });
    await waitFor(() => view.links().length > 0, { what: "the block" });
    assert.deepEqual(view.texts(), [`Reference number: ${plan.referenceNumber}`, "You cancelled this protection."]);
    assert.deepEqual(view.links(), [
      ["View in the protection portal", `${PORTAL_URL}?reference=${encodeURIComponent(plan.referenceNumber)}`],
    ]);
  });

  for (const [name, page] of [
    ["the config is missing", { config: undefined }],
    ["the config is not JSON's object", { config: null }],
    ["the config has no apiBase", { config: { version: 1 } }],
  ] as const) {
    it(`shows nothing and asks nothing when ${name}`, async () => {
      const view = await mount("purchase.thank-you.block.render", { orderId: String(shopifyId()), ...page });
      await staysFalseFor(() => view.document.body.innerHTML !== "" || view.requests.length > 0, 300, {
        what: "a rendered block or a request",
      });
      assert.equal(view.document.body.innerHTML, "");
    });
  }

  for (const [name, token, status] of [
    [
      "the app refuses the session token",
      () => extensionSessionToken(SHOP, { secret: "wrong-secret-0123456789" }),
      401,
    ],
    ["the order is another shop's", () => extensionSessionToken("someone-else.myshopify.com"), 404],
  ] as const) {
    it(`shows nothing when ${name}`, async () => {
      const { orderId } = await t.placeOrder(SHOP);
      const view = await mount("purchase.thank-you.block.render", { orderId, token });
      await waitFor(() => view.requests[0]?.status, { what: "the answer" });
      assert.equal(view.requests[0].status, status);
      await staysFalseFor(() => view.document.body.innerHTML !== "", 200, { what: "a rendered block" });
      assert.equal(view.document.body.innerHTML, "");
    });
  }

  it(`builds, both targets in one bundle as the CLI ships it, to at most ${TARGET_BYTES} bytes (Shopify's limit: ${MAX_BYTES})`, async () => {
    const code = await bundleAll();
    assert.ok(code.byteLength <= MAX_BYTES, `${code.byteLength} bytes: over Shopify's limit`);
    assert.ok(code.byteLength <= TARGET_BYTES, `${code.byteLength} bytes: over the ${TARGET_BYTES}-byte aim`);
  });

  it("type-checks with its own tsconfig (Preact JSX, each target's `shopify` global)", async () => {
    const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
    await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", "extensions/post-purchase"], { cwd: ROOT });
  });
});
