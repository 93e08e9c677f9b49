import { randomUUID } from "node:crypto";
import { QUOTE_LIFETIME_MS } from "../../server/domain/disclosure.ts";

/**
 * A body no caller has given a type: these tests send wrong requests on purpose and read whatever JSON comes back
 * (a resource, a list, an error, an OpenAPI document), asserting on its fields as they go. Pass `T` (an SDK response
 * type from packages/sdk/src/responses.ts) where the shape is known.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the untyped default of the raw client
export type UntypedBody = any;

export interface ApiResponse<T = UntypedBody> {
  status: number;
  headers: Headers;
  /** Parsed JSON body (undefined when the body is empty). */
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string | null;
  /** Defaults to a fresh UUID on mutating methods; null sends none. */
  idempotencyKey?: string | null;
  headers?: Record<string, string>;
  /** Sent as-is instead of JSON-encoding `body`. */
  raw?: string;
}

type Fetch = typeof fetch;

/** The fetch of each API a test reaches in process, by the made-up origin of its base URL (see startTestApi). */
const inProcessApis = new Map<string, Fetch>();

/** Route calls to `origin` to `fetch` (an API in this process) until the returned function is called. */
export function registerInProcessApi(origin: string, fetch: Fetch): () => void {
  inProcessApis.set(origin, fetch);
  return () => inProcessApis.delete(origin);
}

/** The fetch that reaches `url`: the API's own when it runs in process, the network's otherwise. */
export function fetchFor(url: string): Fetch {
  return inProcessApis.get(new URL(url).origin) ?? fetch;
}

/**
 * Raw HTTP calls against a test server, the way an integrator without the SDK would make them; through the API's
 * fetch when the test started it in process.
 */
export function apiClient(baseUrl: string, defaultKey?: string) {
  const send = fetchFor(baseUrl);
  async function call<T = UntypedBody>(
    method: string,
    path: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { "Content-Type": "application/json", ...options.headers };
    const key = options.key === undefined ? defaultKey : options.key;
    if (key) headers.Authorization = `Bearer ${key}`;
    const idempotencyKey =
      options.idempotencyKey === undefined ? (method === "GET" ? null : randomUUID()) : options.idempotencyKey;
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    const response = await send(`${baseUrl}${path}`, {
      method,
      headers,
      body: method === "GET" ? undefined : (options.raw ?? (body === undefined ? undefined : JSON.stringify(body))),
    });
    const text = await response.text();
    // A file (a CSV, an evidence download) is only its text.
    const json = text && /^application\/json/.test(response.headers.get("content-type") ?? "");
    return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : undefined, text };
  }
  return {
    call,
    get: <T = UntypedBody>(path: string, options?: CallOptions) => call<T>("GET", path, undefined, options),
    post: <T = UntypedBody>(path: string, body?: unknown, options?: CallOptions) =>
      call<T>("POST", path, body, options),
  };
}

/**
 * A valid order_context for a quote: by default purchased one minute before the quote was made (11:59 for a quote
 * made at the test clock's 12:00), inside the clock skew the API allows.
 */
export function orderContextFor(
  quote: { orderId: string; currency: string; coveredAmountCents: number; expiresAt: string },
  purchasedAt = new Date(Date.parse(quote.expiresAt) - QUOTE_LIFETIME_MS - 60_000).toISOString(),
) {
  return {
    schema_version: "2026-01-01",
    order: {
      id: quote.orderId,
      purchased_at: purchasedAt,
      currency: quote.currency,
      covered_amount_cents: quote.coveredAmountCents,
    },
    participants: { mode: "unnamed" },
  };
}
