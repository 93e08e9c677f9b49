// The SDK's error tree: one base class, a validation error thrown before any request, an HTTP error for non-2xx
// answers and transport failures, and its rate-limit subclass. `errorFromResponse` is the one place that picks the
// class for an answer.

/** Base of every error the SDK throws: `catch (e) { if (e instanceof ServiceError) … }`. */
export class ServiceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A bad argument caught before any request was sent (empty apiKey, malformed idempotency key). Message only. */
export class ServiceValidationError extends ServiceError {}

export interface ServiceHttpErrorFields {
  /** The HTTP status, or null when no response arrived (network error, timeout). */
  httpStatus: number | null;
  /** The API's error code (`quote_already_used`, …), or null when the body carried none. */
  code: string | null;
  /** The API's error type (`invalid_request_error`, …), or null. */
  type: string | null;
  /** The offending parameter, when the API names one. */
  param: string | null;
  /** The X-Request-Id of the failed response (or the body's request_id), or null. */
  requestId: string | null;
  /** The idempotency key sent on every attempt of the call (null for GET). */
  idempotencyKey: string | null;
  /** The response headers, when a response arrived. */
  headers: Headers | null;
  cause?: unknown;
}

/** A non-2xx answer other than 429, or a transport failure (then `httpStatus` is null and `cause` the fetch error). */
export class ServiceHttpError extends ServiceError {
  readonly httpStatus: number | null;
  readonly code: string | null;
  readonly type: string | null;
  readonly param: string | null;
  readonly requestId: string | null;
  readonly idempotencyKey: string | null;
  readonly headers: Headers | null;

  constructor(message: string, fields: ServiceHttpErrorFields) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.httpStatus = fields.httpStatus;
    this.code = fields.code;
    this.type = fields.type;
    this.param = fields.param;
    this.requestId = fields.requestId;
    this.idempotencyKey = fields.idempotencyKey;
    this.headers = fields.headers;
  }
}

/** HTTP 429 after the retries ran out. `retryAfter` is the server's Retry-After in seconds (null if absent). */
export class ServiceRateLimitError extends ServiceHttpError {
  readonly retryAfter: number | null;

  constructor(message: string, fields: ServiceHttpErrorFields & { retryAfter: number | null }) {
    super(message, fields);
    this.retryAfter = fields.retryAfter;
  }
}

interface ApiErrorBody {
  error?: { type?: unknown; code?: unknown; message?: unknown; param?: unknown; request_id?: unknown };
}

const stringOrNull = (value: unknown) => (typeof value === "string" ? value : null);

/** The error for a non-2xx response: pure, from the status, headers and body text. */
export function errorFromResponse(
  response: { status: number; headers: Headers; bodyText: string },
  idempotencyKey: string | null,
  retryAfter: number | null,
): ServiceHttpError {
  let body: ApiErrorBody = {};
  try {
    body = (JSON.parse(response.bodyText) ?? {}) as ApiErrorBody;
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): the status alone describes it.
  }
  const error = body.error ?? {};
  const fields: ServiceHttpErrorFields = {
    httpStatus: response.status,
    code: stringOrNull(error.code),
    type: stringOrNull(error.type),
    param: stringOrNull(error.param),
    requestId: response.headers.get("x-request-id") ?? stringOrNull(error.request_id),
    idempotencyKey,
    headers: response.headers,
  };
  const message = stringOrNull(error.message) ?? `HTTP ${response.status}`;
  if (response.status === 429) return new ServiceRateLimitError(message, { ...fields, retryAfter });
  return new ServiceHttpError(message, fields);
}

/** The error for a request that got no response at all. */
export function transportError(cause: unknown, idempotencyKey: string | null, timedOut: boolean): ServiceHttpError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ServiceHttpError(timedOut ? "The request timed out" : `The request failed: ${detail}`, {
    httpStatus: null,
    code: null,
    type: null,
    param: null,
    requestId: null,
    idempotencyKey,
    headers: null,
    cause,
  });
}
