// Type tests of the public surface: checked by `tsc --noEmit` (npm test's type-check step); the runtime test only
// makes the file a test.
import { describe, it } from "vitest";
import { expectTypeOf } from "expect-type";
import {
  ProtectionClient,
  ServiceError,
  ServiceHttpError,
  ServiceRateLimitError,
  ServiceValidationError,
  verifyWebhook,
  type Claim,
  type Confirmation,
  type DeclinedQuote,
  type Event,
  type FetchLike,
  type HeadlessConfirmation,
  type HeadlessDeclinedQuote,
  type HeadlessQuote,
  type List,
  type MerchantMetrics,
  type MerchantRefund,
  type PageQuery,
  type Pages,
  type ProtectionClientOptions,
  type Purchase,
  type PurchaseWithConsent,
  type QuoteParams,
  type QuoteWithToken,
  type RefundParams,
  type RetryOptions,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from "../src/index.ts";

describe("types of the public surface", () => {
  it("compile (see tsc)", () => {
    const client = new ProtectionClient({ apiKey: "mch_test_x" });

    expectTypeOf<ProtectionClientOptions>().toHaveProperty("apiKey").toEqualTypeOf<string>();
    expectTypeOf<ProtectionClientOptions["retry"]>().toEqualTypeOf<Partial<RetryOptions> | undefined>();
    expectTypeOf<ProtectionClientOptions["sleep"]>().toEqualTypeOf<((ms: number) => Promise<void>) | undefined>();
    expectTypeOf(globalThis.fetch).toMatchTypeOf<FetchLike>();
    expectTypeOf<{ apiKey: string; colour: string }>().not.toMatchTypeOf<
      ProtectionClientOptions & { colour?: never }
    >();

    // Offers: either spelling in, the quote token out.
    expectTypeOf(client.offers.quote).parameter(0).toEqualTypeOf<QuoteParams>();
    expectTypeOf(client.offers.quote).parameter(1).toEqualTypeOf<string | undefined>();
    expectTypeOf(client.offers.quote).returns.resolves.toEqualTypeOf<QuoteWithToken>();
    expectTypeOf<QuoteWithToken["quoteToken"]>().toEqualTypeOf<string>();
    expectTypeOf({ order_amount_cents: 1, order_id: "o", protection_program_id: "p" }).toMatchTypeOf<QuoteParams>();
    expectTypeOf({
      orderAmountCents: 1,
      orderId: "o",
      protectionProgramId: "p",
      currency: "USD",
    }).toMatchTypeOf<QuoteParams>();
    expectTypeOf({ orderAmountCents: 1, orderId: "o" }).not.toMatchTypeOf<QuoteParams>();
    expectTypeOf({
      order_amount_cents: "1",
      order_id: "o",
      protection_program_id: "p",
    }).not.toMatchTypeOf<QuoteParams>();
    expectTypeOf(client.offers.create).toEqualTypeOf(client.offers.quote);
    expectTypeOf(client.quotes).toEqualTypeOf(client.offers);
    expectTypeOf(client.offers.confirm).returns.resolves.toEqualTypeOf<Confirmation>();
    expectTypeOf<Confirmation["referenceNumber"]>().toEqualTypeOf<string>();
    expectTypeOf(client.offers.decline).returns.resolves.toEqualTypeOf<DeclinedQuote>();
    expectTypeOf(client.offers.void).returns.resolves.toEqualTypeOf<Purchase>();

    // Refunds, lists (every list: one page, every page, every item).
    expectTypeOf(client.refunds.create).parameters.toEqualTypeOf<
      [orderId: string, payload?: RefundParams, idempotencyKey?: string]
    >();
    expectTypeOf(client.refunds.create).returns.resolves.toEqualTypeOf<MerchantRefund>();
    expectTypeOf({ colour: "red" }).not.toMatchTypeOf<RefundParams>();
    expectTypeOf(client.claims.list).returns.resolves.toEqualTypeOf<List<Claim>>();
    expectTypeOf(client.claims.all()).toMatchTypeOf<AsyncIterable<Claim>>();
    expectTypeOf(client.purchases.list).returns.resolves.toEqualTypeOf<List<Purchase>>();
    expectTypeOf(client.purchases.all()).toMatchTypeOf<AsyncIterable<Purchase>>();
    expectTypeOf(client.purchases.pages()).toMatchTypeOf<AsyncIterable<List<Purchase>>>();
    expectTypeOf(client.purchases.retrieve).returns.resolves.toEqualTypeOf<PurchaseWithConsent>();
    expectTypeOf(client.events.list).returns.resolves.toEqualTypeOf<List<Event>>();
    expectTypeOf(client.events.list).parameter(0).toMatchTypeOf<{ type?: Event["type"] } | undefined>();
    expectTypeOf(client.webhookEndpoints.list).returns.resolves.toEqualTypeOf<List<WebhookEndpoint>>();
    expectTypeOf(client.webhookEndpoints.create).returns.resolves.toEqualTypeOf<WebhookEndpointWithSecret>();
    expectTypeOf(client.webhookEndpoints.deliveries).returns.toEqualTypeOf<Pages<WebhookAttempt, PageQuery>>();
    expectTypeOf(client.merchants.metrics).returns.resolves.toEqualTypeOf<MerchantMetrics>();
    expectTypeOf({ limit: 10, startingAfter: "pur_x" }).toMatchTypeOf<Parameters<typeof client.purchases.list>[0]>();
    expectTypeOf({ status: "lost" }).not.toMatchTypeOf<Parameters<typeof client.claims.list>[0]>();

    // Headless.
    expectTypeOf(client.headless.DISCLOSURE_PHRASE).toEqualTypeOf<"This is not insurance">();
    expectTypeOf(client.headless.quote).returns.resolves.toEqualTypeOf<HeadlessQuote>();
    expectTypeOf(client.headless.confirm).returns.resolves.toEqualTypeOf<HeadlessConfirmation>();
    expectTypeOf(client.headless.decline).returns.resolves.toEqualTypeOf<HeadlessDeclinedQuote>();
    expectTypeOf<HeadlessQuote["disclosure_text"]>().toEqualTypeOf<"This is not insurance">();
    expectTypeOf({ quoteId: "q" }).toMatchTypeOf<Parameters<typeof client.headless.confirm>[0]>();
    expectTypeOf({ quote_id: "q" }).toMatchTypeOf<Parameters<typeof client.headless.confirm>[0]>();

    // Response types are closed: a misspelt field does not type-check.
    const misspelt = (
      plan: Confirmation,
      quote: QuoteWithToken,
      offer: HeadlessQuote,
      headlessPlan: HeadlessConfirmation,
      voided: Purchase,
      refund: MerchantRefund,
      page: List<Claim>,
      event: Event,
      endpoint: WebhookEndpointWithSecret,
    ) => [
      // @ts-expect-error referenceNumbr is not a field of Confirmation
      plan.referenceNumbr,
      // @ts-expect-error feeCent is not a field of Quote
      quote.feeCent,
      // @ts-expect-error the headless quote is snake_case
      offer.feeCents,
      // @ts-expect-error the headless confirmation is snake_case
      headlessPlan.referenceNumber,
      // @ts-expect-error voidedReason is not a field of Purchase
      voided.voidedReason,
      // @ts-expect-error refundedAtt is not a field of the purchase inside a refund
      refund.purchase.refundedAtt,
      // @ts-expect-error page metadata is snake_case
      page.hasMore,
      // @ts-expect-error next_cursr is not a field of a page
      page.next_cursr,
      // @ts-expect-error referenceNumbr is not a field of a claim on a page
      page.data[0]!.referenceNumbr,
      // @ts-expect-error createdAt is not a field of an event (it has created, in Unix seconds)
      event.createdAt,
      // @ts-expect-error secrets is not a field of an endpoint
      endpoint.secrets,
    ];
    void misspelt;

    // Generic methods.
    expectTypeOf(client.post).parameters.toEqualTypeOf<[path: string, payload?: object, idempotencyKey?: string]>();
    expectTypeOf(client.patch).parameters.toEqualTypeOf<[path: string, payload?: object, idempotencyKey?: string]>();
    expectTypeOf(client.delete).parameters.toEqualTypeOf<[path: string, idempotencyKey?: string]>();
    expectTypeOf(client.postRaw).parameters.toEqualTypeOf<
      [path: string, rawJsonBody: string, idempotencyKey?: string]
    >();
    expectTypeOf(client.get<{ n: number }>).returns.resolves.toEqualTypeOf<{ n: number }>();
    const neverCalled = () => expectTypeOf(client.post("/x")).resolves.toEqualTypeOf<unknown>(); // until the caller names one
    void neverCalled;

    // Webhooks.
    expectTypeOf(client.webhooks.verifyWebhook).returns.resolves.toEqualTypeOf<boolean>();
    expectTypeOf(verifyWebhook)
      .parameter(3)
      .toEqualTypeOf<{ toleranceSeconds?: number; now?: number | Date } | undefined>();

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
