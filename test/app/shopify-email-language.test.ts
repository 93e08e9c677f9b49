// docs/api.md "The buyer's language" on Shopify, through the app's real wiring: orders/create delivered to the webhook
// route with Shopify's HMAC, carrying the checkout's customer_locale ("de"), and the opt-in with its protection line;
// the plan records de, and the app's e-mail worker sends the buyer's welcome in German, over SMTP to a real server on
// loopback (SMTP_URL).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { orderPayload } from "../support/shopify.ts";
import { startShopifyApp, type ShopifyAppHarness } from "../support/shopify-app.ts";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp-server.ts";
import { waitFor } from "../support/wait.ts";
import { formatDecimalAmount } from "@purchase-protection/contract";

const SHOP = "language-goods.myshopify.com";

describe.each(DIALECTS)("Shopify app (%s): the order's customer_locale is the buyer e-mails' language", (dialect) => {
  let smtp: TestSmtpServer;
  let app: ShopifyAppHarness;
  let protectionLine: { productId: string; variantId: string; price: string };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startShopifyApp({ dialect, shops: [SHOP], env: { SMTP_URL: `${smtp.url}?pool=false` } });
    await app.install(SHOP);
    const row = (await app.database.db.get<{ product_id: string; tiers: string }>(
      "SELECT * FROM shop_installations WHERE shop = ?",
      [SHOP],
    ))!;
    // 3 % of 120.00 = 3.60: the tier the order below is quoted at.
    const tier = (JSON.parse(row.tiers) as { priceCents: number; variantId: string }[]).find(
      (candidate) => candidate.priceCents >= 360,
    )!;
    protectionLine = {
      productId: row.product_id,
      variantId: tier.variantId,
      price: formatDecimalAmount(tier.priceCents, "USD"),
    };
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('an order with customer_locale "de": the plan records de and the welcome arrives in German', async () => {
    const order = {
      ...orderPayload({
        lines: [{ productId: 111, price: "120.00" }, protectionLine],
        attributes: { _protection: "accepted" },
        email: "lena@example.com",
      }),
      customer_locale: "de",
    };
    app.admin.addPaidOrder(order);
    assert.equal(await app.deliver({ shop: SHOP, topic: "orders/create", payload: order }), 200);
    await app.settled();
    const plan = await app.database.db.get<{ reference_number: string; locale: string | null }>(
      "SELECT reference_number, locale FROM plans WHERE order_id = ?",
      [String(order.id)],
    );
    assert.equal(plan?.locale, "de");
    const welcome = await waitFor(
      () => smtp.received.find((message) => message.mail.subject?.endsWith(plan!.reference_number)),
      { what: "the welcome e-mail over SMTP" },
    );
    assert.deepEqual(welcome.to, ["lena@example.com"]);
    assert.equal(welcome.mail.subject, `Ihr Käuferschutz ist aktiv: ${plan!.reference_number}`);
    const text = welcome.mail.text!;
    assert.ok(text.includes(`Ihre Bestellung ${order.name} bei `), text);
    assert.ok(text.includes("Schutzgebühr: 3,60\u00a0$"), text);
    assert.ok(text.includes("Dies ist keine Versicherung."), text);
  });
});
