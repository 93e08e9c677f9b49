// The buyer's e-mail travels with the confirm (mode="order"): from the e-mail field of the form the widget is bound
// to (read when the order is placed), the `customer-email` attribute, or `confirm({customerEmail})`, which wins.
// Without one the API refuses the confirm (422 customer_email_required): the widget fails open — the order is placed
// unprotected, `unavailable` says why — and writes ONE console warning for the integrator.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { checkoutPage, element, widgetAttributes } from "../../../test/support/widget/stack.ts";
import {
  clickNode,
  eventsOf,
  findByRole,
  isBrowserNetworkLine,
  quoteRequests,
  waitForEvent,
  waitForRole,
  type TestPage,
} from "../../../test/support/widget/browser.ts";
import { waitFor } from "../../../test/support/wait.ts";
import { chromiumSuite, scriptTag, withCheckout } from "../../../test/support/widget/suite.ts";

describe("<service-widget>: the buyer's e-mail (Chromium)", () => {
  const suite = chromiumSuite();

  /** What the page and the widget wrote (Chromium's own DevTools line about the 422 is not the page's). */
  const written = (tab: TestPage) => tab.console.filter((line) => !isBrowserNetworkLine(line));
  const confirmBodies = (tab: TestPage) =>
    tab.requests
      .filter((r) => r.method === "POST" && r.url.endsWith("/offers/confirm"))
      .map((r) => JSON.parse(r.postData!) as { customer_email?: string });
  const plansFor = (orderId: string) =>
    suite.stack.api.database.db.all<{ reference_number: string }>(
      "SELECT reference_number FROM plans WHERE order_id = ?",
      [orderId],
    );

  /** A checkout form (or one the widget names with form=) with `fields`, posting to a thank-you page in a frame. */
  const formPage = (attributes: Record<string, string>, fields: string, outside = false) =>
    checkoutPage({
      script: scriptTag(suite.stack),
      body: `<iframe name="placed" title="Order placed"></iframe><form id="order" target="placed" action="${suite.stack.pages.set("/placed", "<!doctype html><title>Placed</title><h1>Placed</h1>")}" method="get">
${fields}${outside ? "" : element(attributes)}<button type="submit" id="place">Place order</button></form>
${outside ? element({ ...attributes, form: "order" }) : ""}`,
    });
  const placeOrder = async (tab: TestPage) => {
    await tab.page.click("#place");
    await waitFor(() => tab.page.frames().some((frame) => frame.url().includes("/placed?")), {
      what: "the order placed (the form submitted)",
    });
  };
  const tick = async (tab: TestPage) => {
    await clickNode(tab, await waitForRole(tab, "checkbox", /purchase protection/i));
    await waitForEvent(tab, "choice");
  };
  const confirmFromPage = (tab: TestPage, options?: { customerEmail?: string }) =>
    tab.page.evaluate(
      (options) =>
        (document.querySelector("service-widget") as HTMLElement & { confirm(o?: object): Promise<string> })
          .confirm(options)
          .then(
            (referenceNumber) => ({ referenceNumber, error: "" }),
            (error: Error) => ({ referenceNumber: "", error: error.message }),
          ),
      options,
    );

  it("comes from the bound form's e-mail field as the buyer typed it by the time the order is placed; the plan holds it (the portal look-up with it and the reference succeeds)", async () => {
    const attributes = widgetAttributes(suite.stack);
    const html = formPage(attributes, `<label>E-mail <input type="email" name="email" id="email"></label>`);
    await withCheckout(suite, { html }, async (tab) => {
      await tick(tab);
      // Typed after the offer was shown and ticked: read when the form is submitted.
      await tab.page.fill("#email", "  typed.buyer@example.com ");
      await placeOrder(tab);
      assert.deepEqual(
        confirmBodies(tab).map((body) => body.customer_email),
        ["typed.buyer@example.com"],
      );
      const [plan] = await plansFor(attributes["order-id"]);
      assert.match(plan.reference_number, REFERENCE_NUMBER_PATTERN);
      const lookup = await fetch(`${suite.stack.widgetOrigin}/api/v1/portal/lookup`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "typed.buyer@example.com", referenceNumber: plan.reference_number }),
      });
      assert.equal(lookup.status, 200, await lookup.clone().text());
      assert.deepEqual(tab.console, []);
    });
  });

  it("comes from an autocomplete=email field of the form named by form=", async () => {
    const attributes = widgetAttributes(suite.stack);
    const html = formPage(
      attributes,
      `<label>Contact <input type="text" name="contact" autocomplete="email" value="auto.buyer@example.com"></label>`,
      true,
    );
    await withCheckout(suite, { html }, async (tab) => {
      await tick(tab);
      await placeOrder(tab);
      assert.deepEqual(
        confirmBodies(tab).map((body) => body.customer_email),
        ["auto.buyer@example.com"],
      );
      assert.equal((await plansFor(attributes["order-id"])).length, 1);
    });
  });

  it("comes from the customer-email attribute, read when the order is placed (setting it quotes nothing again)", () =>
    withCheckout(suite, {}, async (tab) => {
      await tick(tab);
      await tab.page.evaluate(() =>
        document.querySelector("service-widget")!.setAttribute("customer-email", "attribute.buyer@example.com"),
      );
      const { referenceNumber } = await confirmFromPage(tab);
      assert.match(referenceNumber, REFERENCE_NUMBER_PATTERN);
      assert.deepEqual(
        confirmBodies(tab).map((body) => body.customer_email),
        ["attribute.buyer@example.com"],
      );
      assert.equal(quoteRequests(tab).length, 1, "the attribute is no quote input");
    }));

  it("confirm({customerEmail}) wins over the attribute and the form's field", async () => {
    const attributes = widgetAttributes(suite.stack, { "customer-email": "attribute.buyer@example.com" });
    const html = formPage(attributes, `<input type="email" name="email" value="field.buyer@example.com">`);
    await withCheckout(suite, { html }, async (tab) => {
      await tick(tab);
      const { referenceNumber } = await confirmFromPage(tab, { customerEmail: "given.buyer@example.com" });
      assert.match(referenceNumber, REFERENCE_NUMBER_PATTERN);
      assert.deepEqual(
        confirmBodies(tab).map((body) => body.customer_email),
        ["given.buyer@example.com"],
      );
    });
    // Without the option, the attribute wins over the field: the integrator set it on purpose.
    const second = widgetAttributes(suite.stack, { "customer-email": "attribute.buyer@example.com" });
    const page = formPage(second, `<input type="email" name="email" value="field.buyer@example.com">`);
    await withCheckout(suite, { html: page }, async (tab) => {
      await tick(tab);
      await placeOrder(tab);
      assert.deepEqual(
        confirmBodies(tab).map((body) => body.customer_email),
        ["attribute.buyer@example.com"],
      );
    });
  });

  it("order-name: the store's order name goes on the quote, the plan keeps it, and the buyer finds the plan with the e-mail and that order number", async () => {
    const attributes = widgetAttributes(suite.stack, { "order-name": "#1042" });
    const html = formPage(attributes, `<input type="email" name="email" value="named.buyer@example.com">`);
    await withCheckout(suite, { html }, async (tab) => {
      await tick(tab);
      await placeOrder(tab);
      assert.deepEqual(
        quoteRequests(tab).map((r) => JSON.parse(r.postData!).order_name),
        ["#1042"],
      );
      const plans = await suite.stack.api.database.db.all<{ order_name: string | null }>(
        "SELECT order_name FROM plans WHERE order_id = ?",
        [attributes["order-id"]],
      );
      assert.deepEqual(
        plans.map((plan) => plan.order_name),
        ["#1042"],
      );
      const lookup = await fetch(`${suite.stack.widgetOrigin}/api/v1/portal/lookup`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "named.buyer@example.com", orderNumber: "1042" }),
      });
      assert.equal(lookup.status, 200, await lookup.clone().text());
    });
    // Without it, no order_name is sent (the quote is as before).
    await withCheckout(suite, {}, async (tab) => {
      await waitForEvent(tab, "offer");
      assert.equal("order_name" in JSON.parse(quoteRequests(tab)[0].postData!), false);
    });
  });

  it("none anywhere: the order is placed unprotected, unavailable {reason: customer_email_required}, ONE console warning, no plan, the offer gone", async () => {
    const attributes = widgetAttributes(suite.stack);
    const html = formPage(attributes, `<label>E-mail <input type="email" name="email"></label>`);
    await withCheckout(suite, { html }, async (tab) => {
      const [offer] = await waitForEvent(tab, "offer");
      await tick(tab);
      await placeOrder(tab);
      assert.deepEqual(
        (await eventsOf(tab, "unavailable")).map((e) => e.detail),
        [{ reason: "customer_email_required" }],
      );
      assert.equal(confirmBodies(tab).length, 1);
      assert.equal(confirmBodies(tab)[0].customer_email, undefined, "no empty address sent");
      assert.deepEqual(await plansFor(attributes["order-id"]), []);
      assert.equal(await findByRole(tab, "checkbox"), undefined, "the offer is gone, no error in its place");
      assert.deepEqual(
        written(tab).map((line) => line.type),
        ["warning"],
      );
      assert.match(written(tab)[0].text, /^\[service-widget\] .*e-mail.*customer-email.*confirm\(\{customerEmail\}\)/);
      assert.deepEqual(tab.pageErrors, []);
      // Nothing was made of the quote: it is still open.
      const quote = await suite.stack.api.database.db.get<{ status: string }>(
        "SELECT status FROM quotes WHERE id = ?",
        [offer.detail.quoteId as string],
      );
      assert.equal(quote?.status, "open");
    });
  });

  it("none given to confirm(): it rejects with customer_email_required (one warning); called again with the address, it confirms the same quote", () =>
    withCheckout(suite, {}, async (tab) => {
      const [offer] = await waitForEvent(tab, "offer");
      await tick(tab);
      assert.deepEqual(await confirmFromPage(tab), { referenceNumber: "", error: "customer_email_required" });
      assert.deepEqual(
        written(tab).map((line) => line.type),
        ["warning"],
      );
      const { referenceNumber } = await confirmFromPage(tab, { customerEmail: "late.buyer@example.com" });
      assert.match(referenceNumber, REFERENCE_NUMBER_PATTERN);
      const [accepted] = await eventsOf(tab, "accepted");
      assert.deepEqual(accepted.detail, { quoteId: offer.detail.quoteId, referenceNumber });
      assert.deepEqual(
        confirmBodies(tab).map((body) => body.customer_email),
        [undefined, "late.buyer@example.com"],
      );
      assert.equal(written(tab).length, 1);
    }));

  it("travels with the storefront's language and the buyer's time zone (docs/api.md \"The buyer's language\"): the confirm's customer_locale and customer_time_zone, which the plan keeps for its e-mails", async () => {
    const attributes = widgetAttributes(suite.stack, { locale: "fr-FR" });
    const html = formPage(attributes, `<label>E-mail <input type="email" name="email" id="email"></label>`);
    await withCheckout(suite, { html, timeZone: "Europe/Paris" }, async (tab) => {
      // The offer speaks French: its box is found by its role alone.
      await clickNode(tab, await waitForRole(tab, "checkbox", /./));
      await waitForEvent(tab, "choice");
      await tab.page.fill("#email", "camille@example.com");
      await placeOrder(tab);
      await waitFor(async () => (await plansFor(attributes["order-id"])).length === 1, { what: "the plan" });
      assert.deepEqual(
        confirmBodies(tab).map((body) => {
          const { customer_locale, customer_time_zone } = body as Record<string, unknown>;
          return [customer_locale, customer_time_zone];
        }),
        [["fr-FR", "Europe/Paris"]],
      );
      const plan = await suite.stack.api.database.db.get<{ locale: string | null; time_zone: string | null }>(
        "SELECT locale, time_zone FROM plans WHERE order_id = ?",
        [attributes["order-id"]],
      );
      assert.deepEqual([plan?.locale, plan?.time_zone], ["fr-FR", "Europe/Paris"]);
    });
  });
});
