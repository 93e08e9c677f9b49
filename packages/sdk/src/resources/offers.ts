import { camelCaseKeys, snakeCaseKeys } from "../casing.ts";
import { ServiceHttpError } from "../errors.ts";
import type { Transport } from "../request.ts";
import type { Confirmation, DeclinedQuote, Purchase, Quote } from "../responses.ts";
import type { ConfirmParams, DeclineParams, QuoteParams, QuoteWithToken, VoidParams } from "../types.ts";

/** POST /offers/*: quote and void are wire-spelt as the spec says — quote snake_case, the others camelCase with a snake_case order_context. */
export class Offers {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Quote an offer; the result carries the single-use `quoteToken` from the X-Service-Quote-Token header. */
  async quote(payload: QuoteParams, idempotencyKey?: string): Promise<QuoteWithToken> {
    const response = await this.#transport.send<Quote>({
      method: "POST",
      path: "/offers/quote",
      body: JSON.stringify(snakeCaseKeys(payload)),
      idempotencyKey,
    });
    const quoteToken = response.headers.get("x-service-quote-token");
    if (quoteToken === null) {
      throw new ServiceHttpError("The quote response carried no X-Service-Quote-Token header", {
        httpStatus: response.status,
        code: null,
        type: null,
        param: null,
        requestId: response.headers.get("x-request-id"),
        idempotencyKey: response.idempotencyKey,
        headers: response.headers,
      });
    }
    return { ...response.body, quoteToken };
  }

  /** Alias of `quote`. */
  create(payload: QuoteParams, idempotencyKey?: string): Promise<QuoteWithToken> {
    return this.quote(payload, idempotencyKey);
  }

  /** Confirm; `customerEmail` (or `customer_email`) is the buyer's address, required unless the quote has one. */
  confirm(payload: ConfirmParams, idempotencyKey?: string): Promise<Confirmation> {
    const { orderContext, customerEmail, shippingAddress, customerLocale, customerTimeZone, ...rest } =
      camelCaseKeys(payload);
    const body = {
      ...rest,
      ...(orderContext === undefined ? {} : { order_context: snakeCaseKeys(orderContext) }),
      ...(customerEmail === undefined ? {} : { customer_email: customerEmail }),
      ...(customerLocale === undefined ? {} : { customer_locale: customerLocale }),
      ...(customerTimeZone === undefined ? {} : { customer_time_zone: customerTimeZone }),
      ...(shippingAddress === undefined ? {} : { shipping_address: snakeCaseKeys(shippingAddress) }),
    };
    return this.#post("/offers/confirm", body, idempotencyKey);
  }

  decline(payload: DeclineParams, idempotencyKey?: string): Promise<DeclinedQuote> {
    return this.#post("/offers/decline", camelCaseKeys(payload), idempotencyKey);
  }

  /** Void an active plan (secret key); the result is the voided purchase. */
  void(payload: VoidParams, idempotencyKey?: string): Promise<Purchase> {
    return this.#post("/offers/void", camelCaseKeys(payload), idempotencyKey);
  }

  async #post<T>(path: string, body: object, idempotencyKey: string | undefined): Promise<T> {
    return this.#transport.body({ method: "POST", path, body: JSON.stringify(body), idempotencyKey });
  }
}
