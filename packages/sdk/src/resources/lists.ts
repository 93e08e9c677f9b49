import { snakeCaseKeys } from "../casing.ts";
import type { Query, Transport } from "../request.ts";
import type { ClaimsQuery, JsonObject, List, PurchasesQuery } from "../types.ts";

/** GET one page of a list; query keys go out snake_case. */
async function page<T>(transport: Transport, path: string, query: object): Promise<List<T>> {
  return (await transport.send<List<T>>({ method: "GET", path, query: snakeCaseKeys(query) as Query })).body;
}

/** GET /merchant/claims: refund requests (claims) of the key's merchant, newest first. */
export class Claims {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  list(query: ClaimsQuery = {}): Promise<List<JsonObject>> {
    return page(this.#transport, "/merchant/claims", query);
  }
}

/** GET /purchases: protected purchases, newest first — one page, every page, or every purchase. */
export class Purchases {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  list(query: PurchasesQuery = {}): Promise<List<JsonObject>> {
    return page(this.#transport, "/purchases", query);
  }

  /** Every page from the first, following `next_cursor`. */
  async *pages(query: PurchasesQuery = {}): AsyncGenerator<List<JsonObject>, void, undefined> {
    let cursor: string | undefined;
    do {
      const current = await this.list(cursor === undefined ? query : { ...query, starting_after: cursor } as PurchasesQuery);
      yield current;
      cursor = current.has_more && current.next_cursor !== null ? current.next_cursor : undefined;
    } while (cursor !== undefined);
  }

  /** Every purchase on every page: `for await (const purchase of client.purchases.all()) …` */
  async *all(query: PurchasesQuery = {}): AsyncGenerator<JsonObject, void, undefined> {
    for await (const current of this.pages(query)) yield* current.data;
  }
}
