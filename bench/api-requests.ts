// The request shapes of `npm run bench:api`: what autocannon sends every server, and what the same-work recording
// (bench/same-work.ts) sends the API once, so both measure the same requests.
import { randomBytes } from "node:crypto";
import type { NewMerchant } from "../server/domain/merchants.ts";

/** A quote the confirm run can consume: everything a valid confirm body needs. */
export interface OpenQuote {
  quoteId: string;
  token: string;
  orderId: string;
  coveredAmountCents: number;
}

/** The header that carries a quote's token (the confirm sends it back). */
export const QUOTE_TOKEN_HEADER = "x-service-quote-token";

const runTag = randomBytes(4).toString("hex");
let sequence = 0;

/** Headers of a mutation: the merchant's publishable key and a fresh Idempotency-Key. */
export function mutationHeaders(merchant: NewMerchant, kind: "q" | "c"): Record<string, string> {
  return {
    "content-type": "application/json",
    authorization: `Bearer ${merchant.publishableKey}`,
    "idempotency-key": `bench-${runTag}-${kind}-${++sequence}`,
  };
}

/** A quote for a fresh order and buyer. */
export function quoteBody(merchant: NewMerchant): string {
  const n = ++sequence;
  return JSON.stringify({
    order_amount_cents: 12_999,
    order_id: `bench-${runTag}-${n}`,
    protection_program_id: merchant.programId,
    // Every confirm needs the buyer's address (422 customer_email_required); one per order, as in a real shop.
    customer_email: `buyer-${runTag}-${n}@example.com`,
  });
}

/** The quote a 200 answered, with its token from the response headers. */
export function openQuote(body: string, token: string): OpenQuote {
  const quote = JSON.parse(body) as { quoteId: string; orderId: string; coveredAmountCents: number };
  return { quoteId: quote.quoteId, token, orderId: quote.orderId, coveredAmountCents: quote.coveredAmountCents };
}

/** A confirm of `quote`; without one (an exhausted pool), of a quote id that does not exist. */
export function confirmBody(quote: OpenQuote | undefined): string {
  return JSON.stringify({
    quoteId: quote?.quoteId ?? "qt_pool_exhausted",
    quoteToken: quote?.token ?? "none",
    order_context: {
      schema_version: "2026-01-01",
      order: {
        id: quote?.orderId ?? "none",
        purchased_at: new Date().toISOString(),
        currency: "USD",
        covered_amount_cents: quote?.coveredAmountCents ?? 1,
      },
      participants: { mode: "unnamed" },
    },
  });
}
