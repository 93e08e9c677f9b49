// Request and response shapes of the public surface. Requests: snake_case as documented, or the same fields in
// camelCase (`EitherCase`). Responses: as the API returns them (quote/confirm camelCase, headless snake_case).
import type { EitherCase } from "./casing.ts";

export type JsonObject = { [key: string]: unknown };

export type QuoteParams = EitherCase<{
  order_amount_cents: number;
  order_id: string;
  protection_program_id: string;
  currency?: string;
  customer_email?: string;
}>;

export interface Quote {
  quoteId: string;
  status: "open";
  orderId: string;
  currency: string;
  orderAmountCents: number;
  feeCents: number;
  coveredAmountCents: number;
  coveredReasons: string[];
  /** The full disclosure, to be shown verbatim. */
  disclosureText: string;
  termsUrl: string;
  expiresAt: string;
  livemode: boolean;
}

/** The quote body plus the single-use token read from the X-Service-Quote-Token header. */
export type QuoteWithToken = Quote & { quoteToken: string };

export type OrderContext = EitherCase<{
  schema_version: string;
  order: EitherCase<{ id: string; purchased_at: string; currency: string; covered_amount_cents: number }>;
  participants: { mode: "unnamed" | (string & {}) };
}>;

/** Wire spelling `{ quoteId, quoteToken, order_context }`, or all snake_case, or all camelCase. */
export type ConfirmParams =
  | { quoteId: string; quoteToken: string; order_context: OrderContext }
  | EitherCase<{ quote_id: string; quote_token: string; order_context: OrderContext }>;

export interface Confirmation {
  /** CLM-YYYY-XXXXXXXX */
  referenceNumber: string;
  planId: string;
  status: "confirmed";
  orderId: string;
  currency: string;
  feeCents: number;
  coveredAmountCents: number;
  freeLookEndsAt: string;
  coverageUrl: string;
  livemode: boolean;
}

export type DeclineParams = EitherCase<{ quote_id: string; reason?: string }>;

/** Exactly one of planId, referenceNumber, orderId. */
export type VoidParams =
  | EitherCase<{ plan_id: string; reason?: string }>
  | EitherCase<{ reference_number: string; reason?: string }>
  | EitherCase<{ order_id: string; reason?: string }>;

export type ListQuery = EitherCase<{
  limit?: number;
  starting_after?: string;
  created_gte?: string | Date;
  created_lt?: string | Date;
}>;

export type ClaimsQuery = ListQuery & EitherCase<{ status?: string; reference_number?: string }>;
export type PurchasesQuery = ListQuery & EitherCase<{ status?: "active" | "voided" | "cancelled"; order_id?: string }>;

export interface List<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export type HeadlessQuoteParams = EitherCase<{
  order_amount_cents: number;
  order_id: string;
  protection_program_id: string;
  currency?: string;
  customer_email?: string;
  product_category?: string;
}>;

export interface HeadlessQuote {
  quote_id: string;
  status: "open";
  order_id: string;
  currency: string;
  order_amount_cents: number;
  fee_cents: number;
  covered_amount_cents: number;
  covered_reasons: string[];
  terms_url: string;
  expires_at: string;
  livemode: boolean;
  /** Always exactly 'This is not insurance'. */
  disclosure_text: "This is not insurance";
  /** The full disclosure to show. */
  disclosure: string;
}

export type HeadlessConfirmParams = EitherCase<{ quote_id: string }>;
export type HeadlessDeclineParams = EitherCase<{ quote_id: string; reason?: string }>;
