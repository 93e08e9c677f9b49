// What a Shopify order leaves for the claims console (issue 28): the orders/create job keeps each line's title and the
// destination to the town only (no name, street or phone); the order's lines and destination are stored with the
// protected order and read beside the claim; customers/redact clears the destination, on both databases.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrder } from "../support/protection-flows.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { shippingAddressHash } from "../../server/domain/buyer-addresses.ts";
import { redactCustomer } from "../../server/domain/privacy.ts";
import { findPlanByReference } from "../../server/store/plans.ts";
import { insertShopifyOrder } from "../../app/shopify/store/orders.ts";
import { findOpsOrder } from "../../server/store/ops-claims.ts";
import { orderPayloadOf } from "../../app/shopify/webhooks/orders-create.ts";
import type { ShopifyOrder } from "../../app/shopify/webhooks/shopify-order.ts";

const ORDER: ShopifyOrder = {
  id: 5001,
  admin_graphql_api_id: "gid://shopify/Order/5001",
  name: "#1042",
  currency: "EUR",
  subtotal_price: "95.00",
  total_price: "99.00",
  email: "ada@example.com",
  line_items: [
    { product_id: 1, price: "80.00", quantity: 1, title: "Trail shoes", variant_title: "42 / Blue" },
    { product_id: 2, price: "7.50", quantity: 2, title: "Wool socks", variant_title: null },
    { product_id: 3, price: "4.00", quantity: 1 },
  ],
  shipping_address: {
    city: "Lyon",
    province: "Auvergne-Rhône-Alpes",
    province_code: "ARA",
    zip: "69002",
    country_code: "FR",
    address1: "12 rue de la République",
    ...({ name: "Ada Lovelace", phone: "+33 6 12 34 56 78" } as object),
  },
};

describe("the orders/create job's order facts", () => {
  it("keeps line titles and the town-level destination; no name, street or phone", () => {
    const keys = createSealer(Buffer.alloc(32, 7));
    const kept = orderPayloadOf(ORDER, keys);
    assert.deepEqual(
      kept.line_items.map((line) => line.title),
      ["Trail shoes – 42 / Blue", "Wool socks", undefined],
    );
    assert.deepEqual(kept.ship_to, { city: "Lyon", region: "ARA", postalCode: "69002", countryCode: "FR" });
    const text = JSON.stringify(kept);
    for (const personal of ["Ada Lovelace", "rue de la République", "+33"])
      assert.equal(text.includes(personal), false);
    // The street only as the keyed hash of the door (issue 31: the buyer's claims are counted by it).
    assert.equal(
      kept.shipping_address_hash,
      shippingAddressHash(keys, { countryCode: "FR", postalCode: "69002", line1: "12 rue de la République" }),
    );
    const nothingShipped = orderPayloadOf({ ...ORDER, shipping_address: null }, keys);
    assert.equal("ship_to" in nothingShipped, false, "nothing shipped");
    assert.equal("shipping_address_hash" in nothingShipped, false);
  });
});

describe.each(DIALECTS)("a Shopify order's facts beside the claim (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t?.close());

  it("stored with the protected order, read by the console; customers/redact clears the destination", async () => {
    const email = `buyer-${crypto.randomUUID()}@example.com`;
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, t.merchant.publishableKey), t.merchant.programId, {
      customer_email: email,
    });
    const actor = { merchantId: t.merchant.merchantId, mode: "test" as const };
    const plan = (await findPlanByReference(t.database.db, actor, confirmation.referenceNumber))!;
    const lines = [{ title: "Trail shoes – 42 / Blue", quantity: 1, unitPriceCents: 8_000 }];
    const shipTo = { city: "Lyon", region: "ARA", postalCode: "69002", countryCode: "FR" };
    await t.database.db.transaction((tx) =>
      insertShopifyOrder(
        tx,
        {
          shop: "facts.myshopify.com",
          orderId: "5001",
          planId: plan.id,
          referenceNumber: confirmation.referenceNumber,
          currency: "USD",
          goodsAmountCents: 8_000,
          linePriceCents: null,
          feeCents: 240,
          feeMismatch: false,
          lines,
          shipTo,
        },
        t.clock.now,
      ),
    );
    const read = (await findOpsOrder(t.database.db, plan.id))!;
    assert.equal(read.shopify, true);
    assert.deepEqual(read.lines, lines);
    assert.deepEqual(read.shipTo, shipTo);

    await t.database.db.transaction((tx) =>
      redactCustomer(tx, createSealer(t.encryptionKey), actor, { email, orderIds: [] }),
    );
    const redacted = (await findOpsOrder(t.database.db, plan.id))!;
    assert.equal(redacted.shipTo, null, "the destination is personal data: redacted");
    assert.deepEqual(redacted.lines, lines, "what was bought is not: kept for the claim");
  });
});
