import { pathSegment, type Transport } from "../request.ts";
import type { MerchantRefund } from "../responses.ts";
import type { RefundParams } from "../types.ts";

/** POST /orders/{orderId}/refund: report that the merchant refunded a protected order (secret key). */
export class Refunds {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** `payload` is reserved by the API (send nothing or `{}`). */
  async create(orderId: string, payload: RefundParams = {}, idempotencyKey?: string): Promise<MerchantRefund> {
    const path = `/orders/${pathSegment("orderId", orderId)}/refund`;
    return this.#transport.body({ method: "POST", path, body: JSON.stringify(payload), idempotencyKey });
  }
}
