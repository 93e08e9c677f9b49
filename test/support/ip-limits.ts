// The per-IP rate limits as a client on one address meets them, against whichever process serves the API (`npm run
// api`, test/api/standalone-server.test.ts; `npm start`, test/app/web-app-rate-limits.test.ts).
import assert from "node:assert/strict";
import { apiClient, type ApiResponse } from "./client.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";

/** Part of what the API logs when a request has no client address, and so skips the per-IP limits. */
export const NO_CLIENT_ADDRESS = "no client address";

/** Sends requests until the first 429 (at most `most`); the buckets refill on the real clock meanwhile. */
export async function untilLimited(most: number, send: () => Promise<ApiResponse>) {
  const admitted: ApiResponse[] = [];
  for (let i = 0; i < most; i++) {
    const response = await send();
    if (response.status === 429) return { admitted, limited: response };
    admitted.push(response);
  }
  assert.fail(`no 429 in ${most} requests from one address`);
}

/** The edge limit on quote: quotes from this address get 429 once 50 per 10 s are spent. */
export async function assertQuoteEdgeLimitApplies(baseUrl: string, merchant: NewMerchant) {
  const widget = apiClient(baseUrl, merchant.publishableKey);
  const body = () => ({
    order_amount_cents: 5_000,
    order_id: `order-${crypto.randomUUID()}`,
    protection_program_id: merchant.programId,
  });
  const { admitted, limited } = await untilLimited(200, () => widget.post("/offers/quote", body()));
  assert.ok(
    admitted.length >= 50 && admitted.every((response) => response.status === 200),
    `${admitted.length} admitted`,
  );
  assert.match(limited.headers.get("ratelimit")!, /"edge-quote";r=0;/);
}
