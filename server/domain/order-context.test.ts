import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { CLOCK_SKEW_MS, ORDER_CONTEXT_SCHEMA_VERSIONS, validateOrderContext } from "./order-context.ts";
import { DomainError } from "./errors.ts";
import type { QuoteRecord } from "./quotes.ts";

const CREATED = Date.parse("2026-11-22T12:00:00.000Z");
const NOW = CREATED + 10 * 60 * 1000;

const quote: QuoteRecord = {
  id: "qt_1",
  orderId: "order-1001",
  currency: "USD",
  orderAmountCents: 12_999,
  feeCents: 390,
  payer: "buyer",
  buyerFeeCents: 390,
  merchantFeeCents: 0,
  coveredAmountCents: 12_999,
  customerEmailSealed: null,
  customerEmailHash: null,
  status: "open",
  tokenHash: "0".repeat(64),
  createdAt: CREATED,
  expiresAt: CREATED + 30 * 60 * 1000,
  keyKind: "publishable",
  orderName: null,
};

/** The context the widget sends for `quote`, with `order` fields overridden. */
const contextWith = (order: Record<string, unknown>) => ({
  schema_version: "2026-01-01",
  order: {
    id: "order-1001",
    purchased_at: new Date(NOW).toISOString(),
    currency: "USD",
    covered_amount_cents: 12_999,
    ...order,
  },
  participants: { mode: "unnamed" },
});

const at = (ms: number) => new Date(ms).toISOString();

function assertRefused(order: Record<string, unknown>, field: string) {
  assert.throws(
    () => validateOrderContext(contextWith(order), quote, NOW),
    (error: unknown) =>
      error instanceof DomainError &&
      error.kind === "order_context_invalid" &&
      error.code === "order_context_invalid" &&
      error.field === field,
    JSON.stringify(order),
  );
}

describe("order_context against its quote", () => {
  it("accepts the quoted order, currency and covered amount, purchased between the quote and now", () => {
    assert.equal(validateOrderContext(contextWith({}), quote, NOW).order.covered_amount_cents, 12_999);
  });

  it("purchased_at: from the quote's creation less the clock skew, to now plus the skew", () => {
    for (const purchasedAt of [CREATED - CLOCK_SKEW_MS, CREATED, NOW + CLOCK_SKEW_MS]) {
      assert.equal(
        validateOrderContext(contextWith({ purchased_at: at(purchasedAt) }), quote, NOW).order.purchased_at,
        at(purchasedAt),
      );
    }
    assertRefused({ purchased_at: at(CREATED - CLOCK_SKEW_MS - 1) }, "orderContext.order.purchased_at");
    assertRefused({ purchased_at: "1970-01-01T00:00:00Z" }, "orderContext.order.purchased_at");
    assertRefused({ purchased_at: at(NOW + CLOCK_SKEW_MS + 1) }, "orderContext.order.purchased_at");
  });

  it("covered_amount_cents: exactly what the quote offered", () => {
    for (const covered of [1, 12_998, 13_000])
      assertRefused({ covered_amount_cents: covered }, "orderContext.order.covered_amount_cents");
  });

  it("order.id and currency: the quote's", () => {
    assertRefused({ id: "order-1002" }, "orderContext.order.id");
    assertRefused({ currency: "EUR" }, "orderContext.order.currency");
  });

  it("schema_version: one of the accepted versions, the others refused naming them", () => {
    for (const version of ORDER_CONTEXT_SCHEMA_VERSIONS)
      assert.equal(
        validateOrderContext({ ...contextWith({}), schema_version: version }, quote, NOW).schema_version,
        version,
      );
    assert.throws(
      () => validateOrderContext({ ...contextWith({}), schema_version: "2025-12-31" }, quote, NOW),
      (error: unknown) =>
        error instanceof DomainError &&
        error.kind === "order_context_invalid" &&
        error.field === "orderContext.schema_version" &&
        error.message.endsWith(`the accepted versions are ${ORDER_CONTEXT_SCHEMA_VERSIONS.join(", ")}.`),
    );
  });
});
