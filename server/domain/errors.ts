// The domain's error tree. The domain names what went wrong; server/http/errors.ts alone decides how each
// kind is shown over HTTP.

export type DomainErrorKind =
  | "invalid" // the request is well-formed but its values cannot be served
  | "not_found"
  | "conflict" // the resource is not in a state that allows the operation
  | "forbidden"
  | "order_context_invalid";

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly code: string;
  readonly param?: string;

  constructor(kind: DomainErrorKind, code: string, message: string, param?: string) {
    super(message);
    this.name = "DomainError";
    this.kind = kind;
    this.code = code;
    this.param = param;
  }
}

export const notFound = (what: string, id: string, param?: string) =>
  new DomainError("not_found", "resource_missing", `No such ${what}: '${id}'`, param);
