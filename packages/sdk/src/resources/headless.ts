import { snakeCaseKeys } from "../casing.ts";
import { canonicalJson } from "../canonical-json.ts";
import type { Transport } from "../request.ts";
import type { HeadlessConfirmation, HeadlessDeclinedQuote, HeadlessQuote } from "../responses.ts";
import type { HeadlessConfirmParams, HeadlessDeclineParams, HeadlessQuoteParams } from "../types.ts";

export const DISCLOSURE_PHRASE = "This is not insurance";

/**
 * POST /headless/*: the server path (secret key). Bodies go out snake_case as RFC 8785 canonical JSON bytes, the
 * same bytes the PHP SDK sends for the same payload.
 */
export class Headless {
  readonly DISCLOSURE_PHRASE: typeof DISCLOSURE_PHRASE = DISCLOSURE_PHRASE;
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  quote(payload: HeadlessQuoteParams, idempotencyKey?: string): Promise<HeadlessQuote> {
    return this.#post("/headless/quote", payload, idempotencyKey);
  }

  confirm(payload: HeadlessConfirmParams, idempotencyKey?: string): Promise<HeadlessConfirmation> {
    return this.#post("/headless/confirm", payload, idempotencyKey);
  }

  decline(payload: HeadlessDeclineParams, idempotencyKey?: string): Promise<HeadlessDeclinedQuote> {
    return this.#post("/headless/decline", payload, idempotencyKey);
  }

  async #post<T>(path: string, payload: object, idempotencyKey: string | undefined): Promise<T> {
    return this.#transport.body({ method: "POST", path, body: canonicalJson(snakeCaseKeys(payload)), idempotencyKey });
  }
}
