// orders/create's delivery filter: shopify.app.toml subscribes with ORDERS_CREATE_FILTER, the protection product's
// variants carry the SKU it looks for, and the evaluator (Shopify's filter syntax, as the bench applies it) shows
// which orders Shopify delivers: those with the protection line or the accepted opt-in, not the others.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { orderPayload } from "../support/shopify.ts";
import { ORDERS_CREATE_FILTER, PROTECTION_SKU, webhookFilter } from "../../app/shopify/webhook-filter.ts";
import { ensureProtectionProduct } from "../../app/shopify/admin-api.server.ts";
import type { AdminGraphql } from "../../app/shopify/admin/graphql.ts";
import type { ProductSetInput } from "../../app/shopify/admin/protection-product-set.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const delivered = webhookFilter(ORDERS_CREATE_FILTER);
const goods = { productId: 111, price: "80.00" };
const protectionLine = { productId: 222, price: "2.50", sku: PROTECTION_SKU };

describe("orders/create delivery filter", () => {
  it("is the filter shopify.app.toml subscribes orders/create with", () => {
    const config = parse(fs.readFileSync(path.join(ROOT, "shopify.app.toml"), "utf8")) as {
      webhooks: { subscriptions: { topics?: string[]; filter?: string }[] };
    };
    const subscription = config.webhooks.subscriptions.find((candidate) => candidate.topics?.includes("orders/create"));
    assert.equal(subscription?.filter, ORDERS_CREATE_FILTER);
  });

  it("delivers an order with the protection line (with or without the opt-in attribute: accelerated checkouts drop it)", () => {
    assert.equal(delivered(orderPayload({ lines: [goods, protectionLine] })), true);
    assert.equal(
      delivered(orderPayload({ lines: [goods, protectionLine], attributes: { _protection: "accepted" } })),
      true,
    );
  });

  it("delivers an order with the accepted opt-in and no line (the app decides what it means)", () => {
    assert.equal(delivered(orderPayload({ lines: [goods], attributes: { _protection: "accepted" } })), true);
  });

  it("holds back an order without protection: no line, no opt-in, a declined one, another product's SKU", () => {
    assert.equal(delivered(orderPayload({ lines: [goods] })), false);
    assert.equal(delivered(orderPayload({ lines: [goods], attributes: { _protection: "declined" } })), false);
    assert.equal(delivered(orderPayload({ lines: [{ ...goods, sku: "PURCHASE-PROTECTION-KIT" }] })), false);
    assert.equal(delivered(orderPayload({ lines: [goods], attributes: { gift_note: "accepted" } })), false);
  });

  it("evaluates Shopify's syntax: any array element, case-insensitive values, *, NOT, implied AND, quoted values", () => {
    const order = { line_items: [{ sku: "a-1" }, { sku: null, vendor: "Acme Goods" }], tags: "x" };
    assert.equal(webhookFilter("line_items.sku:A-1")(order), true);
    assert.equal(webhookFilter("line_items.vendor:*")(order), true);
    assert.equal(webhookFilter("note_attributes.name:*")(order), false);
    assert.equal(webhookFilter('line_items.vendor:"acme goods"')(order), true);
    assert.equal(webhookFilter("NOT line_items.sku:a-1")(order), false);
    assert.equal(webhookFilter("line_items.sku:a-1 tags:y")(order), false);
    assert.equal(webhookFilter("tags:y OR (tags:x AND NOT line_items.sku:b)")(order), true);
  });

  it("refuses a filter it cannot read with a SyntaxError", () => {
    for (const bad of ["", "line_items.sku", "(tags:x", "tags:x )", "tags:x OR", 'tags:"open'])
      assert.throws(() => webhookFilter(bad), SyntaxError, bad);
  });

  it("the protection product's every variant carries the SKU the filter looks for", async () => {
    const sent: ProductSetInput[] = [];
    // Shopify's answers to the product setup's operations, as documented (the product does not exist yet).
    const graphql = (async (query: string, variables?: { input?: ProductSetInput }) => {
      const operation = /(?:query|mutation)\s+(\w+)/.exec(query)![1];
      if (operation === "ProtectionProduct") return { shop: { currencyCode: "USD" }, productByIdentifier: null };
      if (operation === "ProtectionProductSet") {
        sent.push(variables!.input!);
        const nodes = variables!.input!.variants.map((variant, index) => ({
          id: `gid://shopify/ProductVariant/${index + 1}`,
          price: variant.price,
        }));
        return { productSet: { product: { id: "gid://shopify/Product/9", variants: { nodes } }, userErrors: [] } };
      }
      if (operation === "Publications") return { publications: { nodes: [] } };
      throw new Error(`unexpected ${operation}`);
    }) as AdminGraphql;
    await ensureProtectionProduct(graphql, () => [199, 299, 499]);
    assert.deepEqual(
      sent[0].variants.map((variant) => variant.sku),
      [PROTECTION_SKU, PROTECTION_SKU, PROTECTION_SKU],
    );
  });
});
