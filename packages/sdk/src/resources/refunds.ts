import { ServiceValidationError } from "../errors.ts";
import type { Transport } from "../request.ts";
import type { JsonObject } from "../types.ts";

/** POST /orders/{orderId}/refund: report that the merchant refunded a protected order (secret key). */
export class Refunds {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** `payload` is reserved by the API (send nothing or `{}`). */
  async create(orderId: string, payload: JsonObject = {}, idempotencyKey?: string): Promise<JsonObject> {
    if (typeof orderId !== "string" || orderId === "") throw new ServiceValidationError("orderId must be a non-empty string");
    const path = `/orders/${encodeURIComponent(orderId)}/refund`;
    return (await this.#transport.send<JsonObject>({ method: "POST", path, body: JSON.stringify(payload), idempotencyKey })).body;
  }
}
