import type { z } from "zod";
import { DomainError, type DomainErrorKind } from "../domain/errors.ts";

// The one place that shapes error responses: {"error":{"type","code","message","param"?,"request_id"}}. A domain
// error's `param` is its field path as the route's caller spells it (callerSpelling in casing.ts).

export type ErrorType =
  "invalid_request_error" | "authentication_error" | "permission_error" | "rate_limit_error" | "api_error";

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly param?: string;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    type: ErrorType,
    code: string,
    message: string,
    param?: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = param;
    this.headers = headers;
  }
}

const invalidRequest = (
  status: number,
  code: string,
  message: string,
  param?: string,
  headers?: Record<string, string>,
) => new ApiError(status, "invalid_request_error", code, message, param, headers);

export const errors = {
  bodyNotJson: () => invalidRequest(400, "body_invalid_json", "The request body is not valid JSON."),
  bodyTooLarge: (limitBytes: number) =>
    invalidRequest(413, "request_too_large", `Request bodies are limited to ${limitBytes} bytes.`),
  bodyInvalidForm: () =>
    invalidRequest(
      400,
      "body_invalid_multipart",
      "The request body is not a valid form (multipart/form-data or urlencoded).",
    ),
  formLimitExceeded: (what: string, param?: string) =>
    invalidRequest(400, "form_limit_exceeded", `The form is over its limit: ${what}.`, param),
  bodyIncomplete: () =>
    invalidRequest(400, "body_incomplete", "The request body ended before its declared Content-Length."),
  mediaTypeUnsupported: (type: string) =>
    invalidRequest(
      415,
      "media_type_unsupported",
      `Request bodies must be JSON (Content-Type: application/json), not '${type.slice(0, 100)}'.`,
      "Content-Type",
    ),
  nulCharacter: (where: string, param: string) =>
    invalidRequest(
      400,
      "parameter_invalid",
      `Invalid ${where}${param ? ` parameter '${param}'` : ""}: text must not contain the NUL character (U+0000).`,
      param || undefined,
    ),
  idempotencyKeyRequired: () =>
    invalidRequest(
      400,
      "idempotency_key_required",
      "This request changes data and needs an Idempotency-Key header of 16 to 255 characters from A-Z, a-z, 0-9, '_' and '-'.",
      "Idempotency-Key",
    ),
  idempotencyConflict: () =>
    invalidRequest(
      409,
      "idempotency_conflict",
      "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
    ),
  idempotencyInProgress: () =>
    invalidRequest(
      409,
      "idempotency_in_progress",
      "A request with this Idempotency-Key is still being processed. Retry after the delay in Retry-After.",
      undefined,
      { "Retry-After": "1" },
    ),
  apiKeyMissing: () =>
    new ApiError(
      401,
      "authentication_error",
      "api_key_missing",
      "No API key provided. Send it as 'Authorization: Bearer <key>'.",
    ),
  apiKeyInvalid: () =>
    new ApiError(
      401,
      "authentication_error",
      "api_key_invalid",
      "The API key is not valid (unknown, malformed or revoked).",
    ),
  callbackSignatureInvalid: () =>
    new ApiError(
      401,
      "authentication_error",
      "signature_invalid",
      "The callback's signature is missing or is not its body's under the webhook secret connected for this merchant and mode.",
    ),
  liveModeNotEnabled: () =>
    new ApiError(
      403,
      "permission_error",
      "live_mode_not_enabled",
      "Live keys work once the merchant has gone live: finish Go live in the dashboard. Test keys work meanwhile.",
    ),
  secretKeyRequired: () =>
    new ApiError(
      403,
      "permission_error",
      "secret_key_required",
      "This operation needs a secret key (mch_…): publishable keys (wk_…) may only quote, confirm and decline; restricted keys (rk_…) may not void, report refunds, resolve claims or confirm fee refunds.",
    ),
  portalSessionRequired: () =>
    new ApiError(
      403,
      "permission_error",
      "portal_session_required",
      "This is a buyer portal route: it takes a portal session (Authorization: Bearer pps_…), never a merchant key.",
    ),
  portalSessionInvalid: () =>
    new ApiError(
      401,
      "authentication_error",
      "portal_session_invalid",
      "No valid portal session: sign in again with POST /portal/lookup or the coverage link (sessions last 30 minutes).",
    ),
  originNotAllowed: (origin: string) =>
    new ApiError(
      403,
      "permission_error",
      "origin_not_allowed",
      `Live publishable keys may only be used from the merchant's own origins; '${origin}' is not one of them.`,
    ),
  routeNotFound: (method: string, path: string) =>
    invalidRequest(404, "route_not_found", `No route ${method} ${path}.`),
  methodNotAllowed: (method: string, path: string, allowed: string[]) =>
    invalidRequest(405, "method_not_allowed", `${method} is not allowed on ${path}.`, undefined, {
      Allow: allowed.join(", "),
    }),
  rateLimited: (retryAfterSeconds: number, challenge: boolean) =>
    new ApiError(
      429,
      "rate_limit_error",
      challenge ? "challenge_required" : "rate_limited",
      challenge
        ? `Too many requests from this address. Retry after ${retryAfterSeconds} s (the delay in Retry-After).`
        : `Rate limit exceeded. Retry after ${retryAfterSeconds} s (the delay in Retry-After); the RateLimit headers show each limit's state.`,
      undefined,
      { "Retry-After": String(retryAfterSeconds) },
    ),
  internal: () =>
    new ApiError(
      500,
      "api_error",
      "internal_error",
      "Something went wrong on our side. It is safe to retry with the same Idempotency-Key.",
    ),
};

const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unprocessable: 422,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  order_context_invalid: 422,
};

/**
 * A domain error on its way out of a route, its field named as the route's caller spells it. Still a DomainError:
 * the idempotency layer stores and replays it like any domain error.
 */
class CallerDomainError extends DomainError {
  readonly param: string;

  constructor(error: DomainError, param: string) {
    super(error.kind, error.code, error.message, error.field);
    this.param = param;
    this.recordRefusal = error.recordRefusal;
  }
}

/** A domain error with a field, re-thrown with that field in the caller's spelling; anything else unchanged. */
export function inCallerSpelling(error: unknown, spell: (field: string) => string): unknown {
  return error instanceof DomainError && error.field !== undefined
    ? new CallerDomainError(error, spell(error.field))
    : error;
}

/** Any thrown value as an ApiError; unexpected ones become a bare 500 (the cause is logged, never sent). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) {
    const status = DOMAIN_STATUS[error.kind];
    const param = error instanceof CallerDomainError ? error.param : error.field;
    return new ApiError(
      status,
      status === 403 ? "permission_error" : "invalid_request_error",
      error.code,
      error.message,
      param,
    );
  }
  return errors.internal();
}

/** The first problem zod found, as a 400 that names the parameter. */
export function fromZodError(error: z.ZodError, where: "body" | "query"): ApiError {
  const issue = error.issues[0];
  const path = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const name = [path, issue.keys[0]].filter(Boolean).join(".");
    return invalidRequest(400, "parameter_unknown", `Unknown ${where} parameter: '${name}'.`, name);
  }
  if (issue.code === "invalid_type" && issue.input === undefined) {
    return invalidRequest(400, "parameter_missing", `Missing required ${where} parameter: '${path}'.`, path);
  }
  if (path === "") return invalidRequest(400, "parameter_invalid", `The ${where} must be a JSON object.`);
  return invalidRequest(400, "parameter_invalid", `Invalid ${where} parameter '${path}': ${issue.message}.`, path);
}

export function errorBody(error: ApiError, requestId: string): string {
  return JSON.stringify({
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param ? { param: error.param } : {}),
      request_id: requestId,
    },
  });
}
