// packages/widget/README.md "Languages": the widget asks its quote in the storefront's language — the element's
// `locale` attribute, else Shopify's storefront locale (window.Shopify.locale), else the page's <html lang>, else the
// browser's — and shows the sentences the API sends back in it (offerTexts), the fee formatted by Intl in that
// locale. French and German in Chromium with axe-core and screenshots at 390 and 1280 px; the pseudo-locale (longer
// texts, accents) fits a 390 px phone.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { formatMoney } from "@purchase-protection/contract";
import { checkoutPage, element, widgetAttributes } from "../../../test/support/widget/stack.ts";
import {
  axeViolations,
  clickNode,
  documentScrollWidth,
  everythingInTheDom,
  quoteRequests,
  waitForEvent,
  waitForRole,
  type TestPage,
} from "../../../test/support/widget/browser.ts";
import { waitFor } from "../../../test/support/wait.ts";
import { chromiumSuite, scriptTag, withCheckout, type Suite } from "../../../test/support/widget/suite.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../../test-artifacts/widget-languages");

describe("<service-widget> in the buyer's language (Chromium)", () => {
  const suite = chromiumSuite();

  /** A checkout page in `lang` (its content in a main landmark) with the widget (extra attributes) and its script. */
  const page = (suite: Suite, lang: string, extra: Record<string, string> = {}) =>
    checkoutPage({ widget: element(widgetAttributes(suite.stack, extra)), script: scriptTag(suite.stack) })
      .replace('<html lang="en">', `<html lang="${lang}">`)
      .replace("<body>", "<body><main>")
      .replace("</body>", "</main></body>");
  const sentLocale = (tab: TestPage) => JSON.parse(quoteRequests(tab)[0].postData!).locale;
  /** The price the box shows: the quote's fee, formatted by Intl in `locale`. */
  const priceIn = async (tab: TestPage, locale: string) => {
    const [offer] = await waitForEvent(tab, "offer");
    return formatMoney(offer.detail.feeCents as number, "USD", locale);
  };
  /** Waits until the widget (its closed shadow root included) shows `text`. */
  const shows = (tab: TestPage, text: RegExp) =>
    waitFor(async () => text.test(await everythingInTheDom(tab)), { what: String(text) });
  async function screenshots(tab: TestPage, name: string) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    for (const width of [390, 1280]) {
      await tab.page.setViewportSize({ width, height: 700 });
      await tab.page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
      assert.ok((await documentScrollWidth(tab)) <= width, `${name} fits ${width} px`);
    }
  }

  it("French from <html lang=fr-FR>: the offer, the disclosure, No thanks and the fee in French; axe-core 0", async () => {
    await withCheckout(suite, { html: page(suite, "fr-FR") }, async (tab) => {
      const box = await waitForRole(tab, "checkbox", /protection d’achat/);
      assert.equal(sentLocale(tab), "fr-FR");
      assert.equal(box.name, `Ajouter une protection d’achat pour ${await priceIn(tab, "fr-FR")}`);
      assert.match(box.name, /\d,\d\d\s\$US$/, "a French price: decimal comma, the currency after");
      const dom = await everythingInTheDom(tab);
      assert.match(dom, /Perte, vol et dommages pendant le transport, et plus encore\./);
      assert.match(dom, /Ceci n’est pas une assurance\./);
      assert.doesNotMatch(dom, /This is not insurance|Add purchase protection|No thanks/);
      await waitForRole(tab, "link", /^Voir ce qui est couvert$/);
      assert.deepEqual(await axeViolations(tab), []);
      await screenshots(tab, "fr-offer");
      await clickNode(tab, await waitForRole(tab, "button", /^Non merci$/));
      await waitForEvent(tab, "declined");
      await shows(tab, /Aucune protection ajoutée\./);
      assert.deepEqual(await axeViolations(tab), []);
    });
  });

  it("German from Shopify's storefront locale over <html lang>: the offer, and the confirmation with its reference", async () => {
    await withCheckout(
      suite,
      { html: page(suite, "en"), initScript: "window.Shopify = { locale: 'de' };" },
      async (tab) => {
        const box = await waitForRole(tab, "checkbox", /Käuferschutz/);
        assert.equal(sentLocale(tab), "de");
        assert.equal(box.name, `Käuferschutz für ${await priceIn(tab, "de")} hinzufügen`);
        assert.match(await everythingInTheDom(tab), /Dies ist keine Versicherung\./);
        assert.deepEqual(await axeViolations(tab), []);
        await screenshots(tab, "de-offer");
        await clickNode(tab, box);
        await waitForEvent(tab, "choice");
        const reference = await tab.page.evaluate(() =>
          (document.querySelector("service-widget") as HTMLElement & { confirm(o: object): Promise<string> }).confirm({
            customerEmail: "kaeufer@example.test",
          }),
        );
        await shows(tab, new RegExp(`Geschützt\\. Ihre Referenznummer ist ${reference}\\.`));
        assert.deepEqual(await axeViolations(tab), []);
        await screenshots(tab, "de-confirmed");
      },
    );
  });

  it("the locale attribute wins (a cart that is not Shopify's); a language not served is English", async () => {
    await withCheckout(suite, { html: page(suite, "fr", { locale: "es-ES" }) }, async (tab) => {
      await waitForRole(tab, "checkbox", /^Añadir protección de compra por /);
      assert.equal(sentLocale(tab), "es-ES");
    });
    await withCheckout(suite, { html: page(suite, "ja-JP") }, async (tab) => {
      const box = await waitForRole(tab, "checkbox", /purchase protection/);
      assert.equal(box.name, `Add purchase protection for ${await priceIn(tab, "en")}`);
    });
  });

  it("the pseudo-locale (a test key): longer, accented texts fit a 390 px phone without overflow", async () => {
    await withCheckout(suite, { html: page(suite, "en", { locale: "en-XA" }) }, async (tab) => {
      await tab.page.setViewportSize({ width: 390, height: 800 });
      const box = await waitForRole(tab, "checkbox", /^ÁÁđđ /);
      assert.match(box.name, /\$\d+\.\d\d$/, "the price as English writes it");
      const widget = await tab.page.locator("service-widget").boundingBox();
      assert.ok(widget && widget.x >= 0 && widget.x + widget.width <= 390, "the offer within the viewport");
      assert.ok((await documentScrollWidth(tab)) <= 390, "no sideways scrolling");
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.page.screenshot({ path: path.join(SCREENSHOTS, "pseudo-390.png"), fullPage: true });
    });
  });
});
