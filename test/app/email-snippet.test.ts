// The order-confirmation snippet, rendered by a Liquid engine the way Shopify renders notifications: the four
// contractual items (reference number, verbatim disclosure with the company name, the 48-hour free-look notice with
// the portal URL, the coverage link) appear for a protected order, and nothing appears for an order without it.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { Liquid } from "liquidjs";
import { orderConfirmationSnippet } from "../../app/shopify/email-snippet.ts";

const settings = { companyName: "Acme Guarantee Ltd.", portalUrl: "https://portal.example.test/" };
const render = (attributes: Record<string, string>) =>
  new Liquid().parseAndRender(orderConfirmationSnippet(settings), { attributes, order_name: "#1042" });
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("merchant e-mail: the order confirmation snippet", () => {
  it("prints the four contractual items for a protected order", async () => {
    const html = await render({
      _protection: "accepted",
      _protection_quote: "quo_1",
      _protection_reference: "CLM-2026-ABCDEFGH",
      gift: "no",
    });
    const visible = text(html);
    assert.match(visible, /Your protection reference number: CLM-2026-ABCDEFGH/);
    assert.ok(
      visible.includes("This is not insurance. This is a contractual refund guarantee provided by Acme Guarantee Ltd."),
      visible,
    );
    assert.match(
      visible,
      /cancel within 48 hours of purchase for a full refund of the protection fee at https:\/\/portal\.example\.test using your reference number/,
    );
    assert.ok(html.includes('href="https://portal.example.test/coverage/CLM-2026-ABCDEFGH"'));
  });

  it("before the reference is written back, says how to look it up and keeps the other three items", async () => {
    const visible = text(await render({ _protection: "accepted", _protection_quote: "quo_1" }));
    assert.match(
      visible,
      /reference number is being issued; look it up at https:\/\/portal\.example\.test with your order number #1042/,
    );
    assert.match(
      visible,
      /This is not insurance\. This is a contractual refund guarantee provided by Acme Guarantee Ltd\./,
    );
    assert.match(visible, /48 hours/);
    assert.match(visible, /What is covered .* https:\/\/portal\.example\.test$/);
  });

  it("prints nothing for an order without protection (declined or no attribute)", async () => {
    assert.equal((await render({ _protection: "declined", _protection_quote: "quo_2" })).trim(), "");
    assert.equal((await render({})).trim(), "");
  });
});
