import assert from "node:assert/strict";
import type { Database } from "../../server/store/database.ts";
import { mintApiKey } from "../../server/domain/merchants.ts";
import { createProgram } from "../../server/domain/programs.ts";
import { markMerchantLive } from "../../server/store/merchants.ts";
import type { TestApi } from "./api-server.ts";
import { apiClient, type ApiResponse } from "./client.ts";
import { rowCounts } from "./databases.ts";
import type { Quote } from "../../packages/sdk/src/responses.ts";

export const REQUEST_ID_PATTERN = /^req_[A-Za-z0-9]{24}$/;

/** The error type each status carries (docs/api.md "Errors"). */
const TYPE_BY_STATUS: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "invalid_request_error",
  405: "invalid_request_error",
  409: "invalid_request_error",
  413: "invalid_request_error",
  415: "invalid_request_error",
  422: "invalid_request_error",
  429: "rate_limit_error",
  500: "api_error",
};

export interface ExpectedError {
  status: number;
  code: string;
  /** Omit to skip the check; `null` asserts the body names no param. */
  param?: string | null;
}

/** A response carries X-Request-Id of the documented form. */
export function assertRequestId(response: ApiResponse): string {
  const requestId = response.headers.get("x-request-id");
  assert.match(requestId ?? "", REQUEST_ID_PATTERN, `X-Request-Id on ${response.status}`);
  return requestId!;
}

/** Nothing of the server's insides (stack frames, source paths) is in a response body. */
export function assertNoInternals(text: string): void {
  assert.doesNotMatch(
    text,
    /\bat\s+(?:async\s+)?(?:\S+\s+\()?(?:file:|node:|\/|[A-Za-z]:\\)\S*:\d+:\d+|\\n\s+at\s/,
    "no stack frame",
  );
  assert.doesNotMatch(
    text,
    /\.(?:ts|js|mjs|cjs):\d+|file:\/\/|node:internal|\/(?:work|home|tmp|usr|srv|app)\//,
    "no source path",
  );
}

/** The response is the documented error: status, type (by status), code, param, request id echoed from the header. */
export function assertError(response: ApiResponse, expected: ExpectedError): void {
  assert.equal(response.status, expected.status, response.text);
  assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
  const error = response.body?.error;
  assert.ok(error, `an error body: ${response.text}`);
  assert.equal(error.type, TYPE_BY_STATUS[expected.status], `type of ${response.text}`);
  assert.equal(error.code, expected.code, response.text);
  assert.equal(typeof error.message, "string");
  assert.ok(error.message.length > 0);
  if (expected.param === null) assert.equal(error.param, undefined, `no param in ${response.text}`);
  else if (expected.param !== undefined) assert.equal(error.param, expected.param, response.text);
  assert.equal(error.request_id, assertRequestId(response), "the body echoes X-Request-Id");
  assertNoInternals(response.text);
}

/**
 * Runs `request` and asserts it changed no domain table. `idempotencyRecords` is how many idempotency records the
 * request may add: a domain 4xx on a mutation is stored under its key (so a retry gets the same answer) — 1 —
 * while a request refused before it runs (auth, validation) stores nothing — 0.
 */
export async function assertChangesNothing<T>(
  db: Database,
  request: () => Promise<T>,
  idempotencyRecords: 0 | 1 = 0,
): Promise<T> {
  const before = await rowCounts(db);
  const result = await request();
  const after = await rowCounts(db);
  assert.deepEqual(
    after,
    { ...before, idempotency_records: before.idempotency_records + idempotencyRecords },
    "row counts",
  );
  return result;
}

/**
 * A buyer's address as a checkout would pass it; one per call, so the per-recipient e-mail caps never join two tests'
 * buyers. Every confirm needs one (422 customer_email_required).
 */
export const buyerAddress = () => `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** A quote through the API with a buyer address (give `customer_email: undefined` for none): its body and token. */
export async function createQuote(
  client: ReturnType<typeof apiClient>,
  programId: string,
  fields: Record<string, unknown> = {},
) {
  const response = await client.post<Quote>("/offers/quote", {
    order_amount_cents: 10_000,
    order_id: `order-${crypto.randomUUID()}`,
    protection_program_id: programId,
    customer_email: buyerAddress(),
    ...fields,
  });
  assert.equal(response.status, 200, response.text);
  return { quote: response.body, token: response.headers.get("x-service-quote-token")! };
}

export interface LiveCredentials {
  programId: string;
  publishableKey: string;
  secretKey: string;
}

/** Live keys and a live program for a merchant (live keys are otherwise minted only in the dashboard). */
export function mintLiveCredentials(t: TestApi, merchantId: string): Promise<LiveCredentials> {
  const actor = { merchantId, mode: "live" as const };
  return t.database.db.transaction(async (tx) => {
    // As the dashboard's Go live leaves the merchant: live keys identify nobody before.
    await markMerchantLive(tx, merchantId, t.services.clock());
    return {
      programId: await createProgram(tx, t.services, actor),
      publishableKey: (await mintApiKey(tx, t.services, actor, "publishable")).key,
      secretKey: (await mintApiKey(tx, t.services, actor, "secret")).key,
    };
  });
}

/** A route path with its `:name` parameters filled in. */
export function concretePath(path: string, values: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => values[name] ?? `${name}_unknown`);
}
