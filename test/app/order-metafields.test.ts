// The consent metafield the Shopify app writes on an order says who paid the protection's fee: the buyer (the
// protection line), the merchant (no line) or a split, with the buyer's part (app/shopify/order-states.server.ts).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { orderMetafields } from "../../app/shopify/order-states.server.ts";
import type { ShopifyOrderState } from "../../app/shopify/store/order-states.ts";

const state = (consent: Partial<ShopifyOrderState["consent"]>, linePriceCents: number | null): ShopifyOrderState => ({
  planId: "plan_1",
  shop: "shop.myshopify.com",
  mode: "test",
  orderId: "1001",
  referenceNumber: "CLM-2026-00000000",
  status: "active",
  consent: {
    quoteId: "qt_1",
    surface: "server",
    disclosureText: "This is not insurance.",
    feeCents: 370,
    coveredAmountCents: 12_345,
    currency: "USD",
    coveredReasons: [],
    termsUrl: "https://portal.example/terms",
    acceptedAt: "2026-11-27T10:00:00.000Z",
    ...consent,
  } as ShopifyOrderState["consent"],
  linePriceCents,
  claims: [],
});

const consentOf = (order: ShopifyOrderState) =>
  JSON.parse(orderMetafields(order).find((field) => field.key === "consent")!.value);

describe("the order's consent metafield", () => {
  it("names who paid the fee: the buyer, the merchant, or a split with the buyer's part", () => {
    assert.deepEqual(pick(consentOf(state({ payer: "buyer" }, 400))), { fee: "3.70", fee_paid_by: "buyer" });
    // Plans made before payers existed: the line says the buyer paid.
    assert.deepEqual(pick(consentOf(state({}, 400))), { fee: "3.70", fee_paid_by: "buyer" });
    assert.deepEqual(pick(consentOf(state({ payer: "buyer" }, null))), { fee: "3.70", fee_paid_by: "merchant" });
    assert.deepEqual(pick(consentOf(state({ payer: "split", buyerFeeCents: 123, merchantFeeCents: 247 }, 125))), {
      fee: "3.70",
      fee_paid_by: "split",
      buyer_fee: "1.23",
    });
  });
});

function pick(consent: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(consent).filter(([key]) => ["fee", "fee_paid_by", "buyer_fee"].includes(key)),
  );
}
