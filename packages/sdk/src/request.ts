// The one request loop: every call of every resource goes through `Transport.send`. It builds the URL and headers,
// makes one idempotency key per logical call (reused on every retry), runs each attempt under a timeout, and asks the
// pure retry policy whether and how long to wait.
import { errorFromResponse, ServiceHttpError, ServiceValidationError, transportError } from "./errors.ts";
import { idempotencyKeyFor } from "./idempotency.ts";
import { parseRetryAfter, retryDelayMs, shouldRetry, type RetryOptions } from "./retry.ts";

/** The subset of `fetch` the SDK uses; `globalThis.fetch` and `createInProcessFetch(api)` both fit. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type QueryValue = string | number | boolean | Date | null | undefined;
export type Query = Record<string, QueryValue>;

export interface TransportConfig {
  apiKey: string;
  baseUrl: string;
  fetch: FetchLike;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  timeoutMs: number;
  retry: RetryOptions;
  userAgent: string;
}

export interface ApiRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Relative to the base URL, starting with '/'. */
  path: string;
  query?: Query;
  /** The exact JSON text to send. */
  body?: string;
  idempotencyKey?: string | null;
  /** What the caller reads: JSON (the default) or a file's text, such as CSV. */
  accept?: "application/json" | "text/csv";
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
  idempotencyKey: string | null;
}

type Attempt =
  { status: number; headers: Headers; bodyText: string } | { status: null; cause: unknown; timedOut: boolean };

export class Transport {
  readonly #config: TransportConfig;

  constructor(config: TransportConfig) {
    this.#config = config;
  }

  async send<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    const { bodyText, ...response } = await this.#exchange(request);
    return { ...response, body: parseBody<T>({ ...response, bodyText }, response.idempotencyKey) };
  }

  /** `send` for the calls that need only the parsed body. */
  async body<T>(request: ApiRequest): Promise<T> {
    return (await this.send<T>(request)).body;
  }

  /** `send` for a file (`accept` names its type): its text, unparsed. */
  async text(request: ApiRequest): Promise<string> {
    return (await this.#exchange(request)).bodyText;
  }

  /** The request with its retries: a 2xx response's status, headers and text, or the error of the last attempt. */
  async #exchange(
    request: ApiRequest,
  ): Promise<{ status: number; headers: Headers; bodyText: string; idempotencyKey: string | null }> {
    const config = this.#config;
    const idempotencyKey = request.method === "GET" ? null : idempotencyKeyFor(request.idempotencyKey);
    const url = this.#url(request.path, request.query);
    const headers: Record<string, string> = {
      Accept: request.accept ?? "application/json",
      Authorization: `Bearer ${config.apiKey}`,
      "User-Agent": config.userAgent,
    };
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey !== null) headers["Idempotency-Key"] = idempotencyKey;

    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(url, { method: request.method, headers, body: request.body });
      if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300)
        return { status: outcome.status, headers: outcome.headers, bodyText: outcome.bodyText, idempotencyKey };
      const retryAfter =
        outcome.status === null ? null : parseRetryAfter(outcome.headers.get("retry-after"), config.now());
      if (!shouldRetry(outcome, attempt, config.retry.maxAttempts)) {
        throw outcome.status === null
          ? transportError(outcome.cause, idempotencyKey, outcome.timedOut)
          : errorFromResponse(outcome, idempotencyKey, retryAfter);
      }
      await config.sleep(retryDelayMs(attempt, retryAfter, config.retry, config.random));
    }
  }

  #url(path: string, query: Query = {}): string {
    const url = new URL(this.#config.baseUrl + (path.startsWith("/") ? path : `/${path}`));
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(name, value instanceof Date ? value.toISOString() : String(value));
    }
    return url.toString();
  }

  /** One attempt under the timeout; the timeout covers reading the body too. */
  async #attempt(url: string, init: RequestInit): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#config.timeoutMs);
    try {
      const response = await this.#config.fetch(url, { ...init, signal: controller.signal });
      const bodyText = await response.text();
      return { status: response.status, headers: response.headers, bodyText };
    } catch (cause) {
      return { status: null, cause, timedOut: controller.signal.aborted };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** An id as one path segment: a non-empty string, percent-encoded. */
export function pathSegment(name: string, id: string): string {
  if (typeof id !== "string" || id === "") throw new ServiceValidationError(`${name} must be a non-empty string`);
  return encodeURIComponent(id);
}

function parseBody<T>(
  outcome: { status: number; headers: Headers; bodyText: string },
  idempotencyKey: string | null,
): T {
  if (outcome.bodyText === "") return undefined as T;
  try {
    return JSON.parse(outcome.bodyText) as T;
  } catch (cause) {
    throw new ServiceHttpError(`HTTP ${outcome.status} with a body that is not JSON`, {
      httpStatus: outcome.status,
      code: null,
      type: null,
      param: null,
      requestId: outcome.headers.get("x-request-id"),
      idempotencyKey,
      headers: outcome.headers,
      cause,
    });
  }
}
