// The SDK's response types against the API's documented response schemas (server/http/response-schemas.ts, the source
// of the OpenAPI document): each type's fields, listed below and held to the type by `satisfies` (tsc fails on a
// missing or extra one), must be exactly the schema's fields, all required as the schema has them.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { z } from "zod";
import * as shapes from "../../../server/http/response-schemas.ts";
import type { Confirmation, HeadlessQuote, Quote } from "../src/index.ts";

type FieldsOf<T> = Record<keyof T, true>;

const quoteFields = {
  quoteId: true, status: true, orderId: true, currency: true, orderAmountCents: true, feeCents: true, coveredAmountCents: true,
  coveredReasons: true, disclosureText: true, termsUrl: true, expiresAt: true, livemode: true,
} satisfies FieldsOf<Quote>;

const confirmationFields = {
  referenceNumber: true, planId: true, status: true, orderId: true, currency: true, feeCents: true, coveredAmountCents: true,
  freeLookEndsAt: true, coverageUrl: true, livemode: true,
} satisfies FieldsOf<Confirmation>;

const headlessQuoteFields = {
  quote_id: true, status: true, order_id: true, currency: true, order_amount_cents: true, fee_cents: true, covered_amount_cents: true,
  covered_reasons: true, terms_url: true, expires_at: true, livemode: true, disclosure_text: true, disclosure: true,
} satisfies FieldsOf<HeadlessQuote>;

const PAIRS: [string, object, z.ZodObject][] = [
  ["Quote", quoteFields, shapes.quote],
  ["Confirmation", confirmationFields, shapes.confirmation],
  ["HeadlessQuote", headlessQuoteFields, shapes.headlessQuote],
];

describe("the SDK's response types and the API's documented responses", () => {
  for (const [name, fields, schema] of PAIRS) {
    it(`${name} has exactly the documented fields, all required`, () => {
      assert.deepEqual(Object.keys(fields).sort(), Object.keys(schema.shape).sort());
      const optional = Object.entries(schema.shape).filter(([, field]) => (field as z.ZodType).safeParse(undefined).success).map(([key]) => key);
      assert.deepEqual(optional, [], `${name}: the SDK types every field as required`);
    });
  }
});
