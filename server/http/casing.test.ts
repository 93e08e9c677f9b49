import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { callerSpelling, toSnakeCase } from "./casing.ts";
import { routes } from "./routes.ts";

describe("toSnakeCase", () => {
  it("renames keys deeply and leaves values alone", () => {
    assert.deepEqual(
      toSnakeCase({
        quoteId: "qt_1",
        feeCents: 5,
        nested: { coveredAmountCents: 1, list: [{ referenceNumber: "CLM" }] },
        reasons: ["lostInTransit"],
      }),
      {
        quote_id: "qt_1",
        fee_cents: 5,
        nested: { covered_amount_cents: 1, list: [{ reference_number: "CLM" }] },
        reasons: ["lostInTransit"],
      },
    );
  });
});

describe("callerSpelling", () => {
  const spellingOf = (operationId: string) =>
    callerSpelling(routes.find((route) => route.operationId === operationId)!);

  it("names a domain field as the route's request does: camelCase, snake_case or a declared name", () => {
    assert.equal(spellingOf("declineQuote")("quoteId"), "quoteId");
    assert.equal(spellingOf("headlessDecline")("quoteId"), "quote_id");
    assert.equal(spellingOf("headlessConfirm")("quoteId"), "quote_id");
    assert.equal(spellingOf("createQuote")("programId"), "protection_program_id");
    assert.equal(spellingOf("headlessQuote")("productCategory"), "product_category");
    assert.equal(spellingOf("reportMerchantRefund")("orderId"), "orderId");
  });

  it("renames only the field, not the path inside a document", () => {
    assert.equal(spellingOf("confirmQuote")("orderContext.order.purchased_at"), "order_context.order.purchased_at");
    assert.equal(spellingOf("confirmQuote")("orderContext"), "order_context");
  });

  it("keeps a field the route does not read as the domain names it", () => {
    assert.equal(spellingOf("declineQuote")("referenceNumber"), "referenceNumber");
  });
});
