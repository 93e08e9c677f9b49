// Type tests of the public surface: checked by `tsc --noEmit` (npm test's type-check step); the runtime test only
// makes the file a test.
import { describe, it } from "node:test";
import { expectTypeOf } from "expect-type";
import {
  ProtectionClient, ServiceError, ServiceHttpError, ServiceRateLimitError, ServiceValidationError, verifyWebhook,
  type Confirmation, type FetchLike, type JsonObject, type List, type ProtectionClientOptions, type QuoteParams, type QuoteWithToken,
  type HeadlessQuote, type RetryOptions,
} from "../src/index.ts";

describe("types of the public surface", () => {
  it("compile (see tsc)", () => {
    const client = new ProtectionClient({ apiKey: "mch_test_x" });

    expectTypeOf<ProtectionClientOptions>().toHaveProperty("apiKey").toEqualTypeOf<string>();
    expectTypeOf<ProtectionClientOptions["retry"]>().toEqualTypeOf<Partial<RetryOptions> | undefined>();
    expectTypeOf<ProtectionClientOptions["sleep"]>().toEqualTypeOf<((ms: number) => Promise<void>) | undefined>();
    expectTypeOf(globalThis.fetch).toMatchTypeOf<FetchLike>();
    expectTypeOf<{ apiKey: string; colour: string }>().not.toMatchTypeOf<ProtectionClientOptions & { colour?: never }>();

    // Offers: either spelling in, the quote token out.
    expectTypeOf(client.offers.quote).parameter(0).toEqualTypeOf<QuoteParams>();
    expectTypeOf(client.offers.quote).parameter(1).toEqualTypeOf<string | undefined>();
    expectTypeOf(client.offers.quote).returns.resolves.toEqualTypeOf<QuoteWithToken>();
    expectTypeOf<QuoteWithToken["quoteToken"]>().toEqualTypeOf<string>();
    expectTypeOf({ order_amount_cents: 1, order_id: "o", protection_program_id: "p" }).toMatchTypeOf<QuoteParams>();
    expectTypeOf({ orderAmountCents: 1, orderId: "o", protectionProgramId: "p", currency: "USD" }).toMatchTypeOf<QuoteParams>();
    expectTypeOf({ orderAmountCents: 1, orderId: "o" }).not.toMatchTypeOf<QuoteParams>();
    expectTypeOf({ order_amount_cents: "1", order_id: "o", protection_program_id: "p" }).not.toMatchTypeOf<QuoteParams>();
    expectTypeOf(client.offers.create).toEqualTypeOf(client.offers.quote);
    expectTypeOf(client.quotes).toEqualTypeOf(client.offers);
    expectTypeOf(client.offers.confirm).returns.resolves.toEqualTypeOf<Confirmation>();
    expectTypeOf<Confirmation["referenceNumber"]>().toEqualTypeOf<string>();
    expectTypeOf(client.offers.decline).returns.resolves.toEqualTypeOf<JsonObject>();
    expectTypeOf(client.offers.void).returns.resolves.toEqualTypeOf<JsonObject>();

    // Refunds, lists.
    expectTypeOf(client.refunds.create).parameters.toEqualTypeOf<[orderId: string, payload?: JsonObject, idempotencyKey?: string]>();
    expectTypeOf(client.claims.list).returns.resolves.toEqualTypeOf<List<JsonObject>>();
    expectTypeOf(client.purchases.list).returns.resolves.toEqualTypeOf<List<JsonObject>>();
    expectTypeOf(client.purchases.all()).toMatchTypeOf<AsyncIterable<JsonObject>>();
    expectTypeOf(client.purchases.pages()).toMatchTypeOf<AsyncIterable<List<JsonObject>>>();

    // Headless.
    expectTypeOf(client.headless.DISCLOSURE_PHRASE).toEqualTypeOf<"This is not insurance">();
    expectTypeOf(client.headless.quote).returns.resolves.toEqualTypeOf<HeadlessQuote>();
    expectTypeOf<HeadlessQuote["disclosure_text"]>().toEqualTypeOf<"This is not insurance">();
    expectTypeOf({ quoteId: "q" }).toMatchTypeOf<Parameters<typeof client.headless.confirm>[0]>();
    expectTypeOf({ quote_id: "q" }).toMatchTypeOf<Parameters<typeof client.headless.confirm>[0]>();

    // Response types are closed: a misspelt field does not type-check.
    const misspelt = (plan: Confirmation, quote: QuoteWithToken, offer: HeadlessQuote) => [
      // @ts-expect-error referenceNumbr is not a field of Confirmation
      plan.referenceNumbr,
      // @ts-expect-error feeCent is not a field of Quote
      quote.feeCent,
      // @ts-expect-error the headless quote is snake_case
      offer.feeCents,
    ];
    void misspelt;

    // Generic methods.
    expectTypeOf(client.post).parameters.toEqualTypeOf<[path: string, payload?: object, idempotencyKey?: string]>();
    expectTypeOf(client.patch).parameters.toEqualTypeOf<[path: string, payload?: object, idempotencyKey?: string]>();
    expectTypeOf(client.delete).parameters.toEqualTypeOf<[path: string, idempotencyKey?: string]>();
    expectTypeOf(client.postRaw).parameters.toEqualTypeOf<[path: string, rawJsonBody: string, idempotencyKey?: string]>();
    expectTypeOf(client.get<{ n: number }>).returns.resolves.toEqualTypeOf<{ n: number }>();
    const neverCalled = () => expectTypeOf(client.post("/x")).resolves.toEqualTypeOf<JsonObject>(); // default result type
    void neverCalled;

    // Webhooks.
    expectTypeOf(client.webhooks.verifyWebhook).returns.resolves.toEqualTypeOf<boolean>();
    expectTypeOf(verifyWebhook).parameter(3).toEqualTypeOf<{ toleranceSeconds?: number; now?: number | Date } | undefined>();

    // Errors.
    expectTypeOf<ServiceValidationError>().toMatchTypeOf<ServiceError>();
    expectTypeOf<ServiceRateLimitError>().toMatchTypeOf<ServiceHttpError>();
    expectTypeOf<ServiceHttpError["httpStatus"]>().toEqualTypeOf<number | null>();
    expectTypeOf<ServiceHttpError["requestId"]>().toEqualTypeOf<string | null>();
    expectTypeOf<ServiceHttpError["idempotencyKey"]>().toEqualTypeOf<string | null>();
    expectTypeOf<ServiceHttpError["code"]>().toEqualTypeOf<string | null>();
    expectTypeOf<ServiceRateLimitError["retryAfter"]>().toEqualTypeOf<number | null>();
  });
});
