// Request shapes of the public surface: snake_case as documented, or the same fields in camelCase (`EitherCase`).
// The responses are in responses.ts, generated from the API's OpenAPI document.
import type { EitherCase } from "./casing.ts";
import type { Claim, Event, Purchase, Quote, Shipment, WebhookEndpoint } from "./responses.ts";

export type QuoteParams = EitherCase<{
  order_amount_cents: number;
  order_id: string;
  protection_program_id: string;
  currency?: string;
  customer_email?: string;
  /** The store's own order name as buyers know it ("#1001"). */
  order_name?: string;
  /** The buyer's language (BCP 47, e.g. fr-FR): the quote's offerTexts are in it when served, else English. */
  locale?: string;
  /** The cart or checkout (a cart token): an offer experiment's variant follows it, else the order id. */
  cart_id?: string;
}>;

/** The quote body plus the single-use token read from the X-Service-Quote-Token header. */
export type QuoteWithToken = Quote & { quoteToken: string };

export type OrderContext = EitherCase<{
  schema_version: string;
  order: EitherCase<{ id: string; purchased_at: string; currency: string; covered_amount_cents: number }>;
  participants: { mode: "unnamed" | (string & {}) };
}>;

/**
 * Wire spelling `{ quoteId, quoteToken, order_context, customer_email }`, or all snake_case, or all camelCase. The
 * buyer's address is required unless the quote has one (422 customer_email_required).
 */
export type ConfirmParams = (
  | { quoteId: string; quoteToken: string; order_context: OrderContext }
  | EitherCase<{ quote_id: string; quote_token: string; order_context: OrderContext }>
) &
  EitherCase<{ customer_email?: string; shipping_address?: ShippingAddress } & CustomerLanguage>;

/** The buyer's language and time zone, kept with the plan: its e-mails are written in them (docs/api.md "E-mail to buyers"). */
export interface CustomerLanguage {
  /** A BCP 47 tag (the storefront's locale, e.g. "fr-FR"); English, French, German, Spanish or Dutch are served. */
  customer_locale?: string;
  /** An IANA time zone name, e.g. "Europe/Paris": the e-mails' dates are in it, else in UTC. */
  customer_time_zone?: string;
}

/**
 * Where the order ships, optional on confirms: the service keeps only a keyed hash of it, to count a buyer's claims to
 * the same door under another e-mail (docs/api.md "Claim risk").
 */
export type ShippingAddress = EitherCase<{
  /** ISO 3166-1 alpha-2, e.g. "GB". */
  country_code: string;
  postal_code?: string;
  /** The first address line: the street and number. */
  line1: string;
}>;

export type DeclineParams = EitherCase<{ quote_id: string; reason?: string }>;

/** Exactly one of planId, referenceNumber, orderId. */
export type VoidParams =
  | EitherCase<{ plan_id: string; reason?: string }>
  | EitherCase<{ reference_number: string; reason?: string }>
  | EitherCase<{ order_id: string; reason?: string }>;

/** One page: up to `limit` (1–100, default 20) items after the `starting_after` id (a page's `next_cursor`). */
export type PageQuery = EitherCase<{ limit?: number; starting_after?: string }>;

/** Pages of items created within [created_gte, created_lt). */
export type ListQuery = PageQuery & EitherCase<{ created_gte?: string | Date; created_lt?: string | Date }>;

export type ClaimsQuery = ListQuery & EitherCase<{ status?: Claim["status"]; reference_number?: string }>;
export type PurchasesQuery = ListQuery & EitherCase<{ status?: Purchase["status"]; order_id?: string }>;
export type EventsQuery = PageQuery & { type?: Event["type"] };

/**
 * Figures within [from, to); either end may be left open. `from` and `to` may also be UTC days (YYYY-MM-DD; `to` is
 * the last day counted); the analytics cover the last 30 days when neither is given, in a series by `interval`.
 */
export type MetricsQuery = { from?: string | Date; to?: string | Date; interval?: "day" | "week" | "month" };

export type RedeliverParams = EitherCase<{ endpoint_id?: string }>;

export type WebhookEndpointCreateParams = { url: string; events: WebhookEndpoint["events"] };
export type WebhookEndpointUpdateParams = {
  url?: string;
  events?: WebhookEndpoint["events"];
  status?: "enabled" | "disabled";
};

/** The reserved body of POST /orders/{orderId}/refund: nothing, or `{}`. */
export type RefundParams = Record<string, never>;

/** A shipment of a protected order: carrier and tracking number (≤ 100 characters), the promised day (YYYY-MM-DD, UTC). */
export type ShipmentParams = EitherCase<{ carrier: string; tracking_number: string; promised_delivery_date?: string }>;

/** A carrier's scan: its status, when it happened (ISO 8601 UTC, …Z), and optionally where and the carrier's words. */
export type ShipmentEventParams = EitherCase<{
  status: Shipment["events"][number]["status"];
  occurred_at: string;
  location?: string;
  message?: string;
}>;

/** Your AfterShip account's webhook secret (AfterShip: Settings > Webhooks), which signs its tracking webhooks. */
export type AftershipConnectionParams = { secret: string };

/** The fee-refund confirmation: your own reference of the refund (≤ 200 characters), if any. */
export type FeeRefundParams = { reference?: string };

/** What you did for the buyer of an approved claim: the remedy it was approved for; amountCents defaults to the claim's. */
export type ClaimResolutionParams = {
  kind: "refund" | "replacement";
  reference: string;
  amountCents?: number;
  note?: string;
};

export type HeadlessQuoteParams = EitherCase<{
  order_amount_cents: number;
  order_id: string;
  protection_program_id: string;
  currency?: string;
  customer_email?: string;
  order_name?: string;
  product_category?: string;
  /** The cart or checkout (a cart token): an offer experiment's variant follows it, else the order id. */
  cart_id?: string;
}>;

/** The buyer's address is required unless the quote has one (422 customer_email_required). */
export type HeadlessConfirmParams = EitherCase<
  {
    quote_id: string;
    customer_email?: string;
    shipping_address?: ShippingAddress;
  } & CustomerLanguage
>;

/** POST /purchases/{id}/customer-email: the buyer's address, set or corrected. */
export type CustomerEmailParams = EitherCase<{ customer_email: string }>;
export type HeadlessDeclineParams = EitherCase<{ quote_id: string; reason?: string }>;
