// The domain's error tree. The domain names what went wrong and which input field it concerns, by its own name for
// that field; server/http/errors.ts alone decides how each kind is shown over HTTP and how the caller spells the field.
import type { Queryable } from "../store/database.ts";

export type DomainErrorKind =
  | "invalid" // the request is well-formed but its values cannot be served
  | "unprocessable" // the values are valid but break a published rule (a claim's filing rules): 422
  | "not_found"
  | "conflict" // the resource is not in a state that allows the operation
  | "forbidden"
  | "order_context_invalid";

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly code: string;
  /** The input field at fault as a dotted path in the domain's names (`quoteId`, `orderContext.order.id`). */
  readonly field?: string;
  /**
   * What a refusal leaves on record although the mutation is rolled back (a confirm refused for want of a buyer
   * address, for the merchant's dashboard): run after the rollback in its own small transaction, the one that stores
   * the refused answer under the idempotency key (server/http/idempotency.ts), which every keyed mutation passes.
   */
  recordRefusal?: (tx: Queryable) => Promise<void>;

  constructor(kind: DomainErrorKind, code: string, message: string, field?: string) {
    super(message);
    this.name = "DomainError";
    this.kind = kind;
    this.code = code;
    this.field = field;
  }
}

export const notFound = (what: string, id: string, field?: string) =>
  new DomainError("not_found", "resource_missing", `No such ${what}: '${id}'`, field);
