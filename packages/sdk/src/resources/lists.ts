import { snakeCaseKeys } from "../casing.ts";
import { pathSegment, type Query, type Transport } from "../request.ts";
import type { Claim, List, Purchase, PurchaseWithConsent } from "../responses.ts";
import type {
  ClaimResolutionParams,
  ClaimsQuery,
  CustomerEmailParams,
  FeeRefundParams,
  PageQuery,
  PurchasesQuery,
} from "../types.ts";

/** A list route, newest first: one page, every page, or every item. Query keys go out snake_case. */
export class Pages<Item, ItemQuery extends PageQuery> {
  protected readonly transport: Transport;
  readonly #path: string;

  constructor(transport: Transport, path: string) {
    this.transport = transport;
    this.#path = path;
  }

  list(query?: ItemQuery): Promise<List<Item>> {
    return this.transport.body({ method: "GET", path: this.#path, query: snakeCaseKeys(query ?? {}) as Query });
  }

  /** Every page from the first, following `next_cursor`. */
  async *pages(query?: ItemQuery): AsyncGenerator<List<Item>, void, undefined> {
    let cursor: string | undefined;
    do {
      const current = await this.list(
        cursor === undefined ? query : ({ ...query, starting_after: cursor } as ItemQuery),
      );
      yield current;
      cursor = current.has_more && current.next_cursor !== null ? current.next_cursor : undefined;
    } while (cursor !== undefined);
  }

  /** Every item on every page: `for await (const purchase of client.purchases.all()) …` */
  async *all(query?: ItemQuery): AsyncGenerator<Item, void, undefined> {
    for await (const current of this.pages(query)) yield* current.data;
  }
}

/** GET /merchant/claims: refund requests (claims) of the key's merchant. */
export class Claims extends Pages<Claim, ClaimsQuery> {
  constructor(transport: Transport) {
    super(transport, "/merchant/claims");
  }

  /** GET /merchant/claims/{claimId}: one claim with its decision and resolution. */
  async retrieve(claimId: string): Promise<Claim> {
    return this.transport.body({ method: "GET", path: `/merchant/claims/${pathSegment("claimId", claimId)}` });
  }

  /**
   * POST /merchant/claims/{claimId}/resolution: confirm that you paid an approved claim (other carts; a Shopify shop's
   * claims are paid by the app) — the refund or the replacement and your reference. A second confirmation returns the
   * paid claim unchanged.
   */
  async resolve(claimId: string, payload: ClaimResolutionParams, idempotencyKey?: string): Promise<Claim> {
    const path = `/merchant/claims/${pathSegment("claimId", claimId)}/resolution`;
    return this.transport.body({ method: "POST", path, body: JSON.stringify(payload), idempotencyKey });
  }
}

/** GET /purchases: protected purchases. */
export class Purchases extends Pages<Purchase, PurchasesQuery> {
  constructor(transport: Transport) {
    super(transport, "/purchases");
  }

  /** GET /purchases/{purchaseId}: one purchase with its consent record (what the buyer saw and agreed to). */
  async retrieve(purchaseId: string): Promise<PurchaseWithConsent> {
    return this.transport.body({ method: "GET", path: `/purchases/${pathSegment("purchaseId", purchaseId)}` });
  }

  /**
   * POST /purchases/{purchaseId}/fee-refund: confirm that you refunded the fee of a plan the buyer cancelled in its
   * 48-hour free look (other carts; a Shopify shop's fee is refunded by the app). A second confirmation returns the same.
   */
  async confirmFeeRefund(
    purchaseId: string,
    payload: FeeRefundParams = {},
    idempotencyKey?: string,
  ): Promise<Purchase> {
    const path = `/purchases/${pathSegment("purchaseId", purchaseId)}/fee-refund`;
    return this.transport.body({ method: "POST", path, body: JSON.stringify(payload), idempotencyKey });
  }

  /**
   * POST /purchases/{purchaseId}/customer-email: set or correct the buyer's address (secret or restricted key); the
   * welcome e-mail goes to it. The address the plan already holds changes nothing.
   */
  setCustomerEmail(purchaseId: string, payload: CustomerEmailParams, idempotencyKey?: string): Promise<Purchase> {
    const path = `/purchases/${pathSegment("purchaseId", purchaseId)}/customer-email`;
    return this.transport.body({ method: "POST", path, body: JSON.stringify(snakeCaseKeys(payload)), idempotencyKey });
  }
}
