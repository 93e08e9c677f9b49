import { z } from "zod";
import { DomainError } from "./errors.ts";
import { iso } from "./context.ts";
import type { QuoteRecord } from "./quotes.ts";
import type { OrderContext } from "../vocabulary/plans.ts";

// docs/api.md "Offers": confirm carries a versioned, snake_case description of the binding order. Anything missing,
// malformed or inconsistent with the quote is `order_context_invalid`, raised before anything is created. The
// document's fields keep their snake_case names everywhere, in field paths too: they are its version's schema.

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|\+00:00)$/;
/**
 * How far a merchant's or a browser's clock may differ from ours. purchased_at must lie within
 * [quote created − skew, now + skew]: earlier would shorten the buyer's 48-hour free look (1970 voids it), later is
 * not a purchase that has happened.
 */
export const CLOCK_SKEW_MS = 15 * 60 * 1000;

const isRealDate = (value: string) => {
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

/**
 * The order_context versions this API reads (docs/api.md "Versioning"), oldest first; the last is the current one. A version
 * leaves this list only after the 90-day deprecation overlap.
 */
export const ORDER_CONTEXT_SCHEMA_VERSIONS = ["2026-01-01"] as const;
const accepted = new Set<string>(ORDER_CONTEXT_SCHEMA_VERSIONS);

const orderContextSchema = z.strictObject({
  schema_version: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date of the form YYYY-MM-DD")
    .refine(isRealDate, "must be a real calendar date")
    .refine(
      (version) => accepted.has(version),
      `is not an accepted version; the accepted versions are ${ORDER_CONTEXT_SCHEMA_VERSIONS.join(", ")}`,
    ),
  order: z.strictObject({
    id: z.string().min(1).max(255),
    purchased_at: z
      .string()
      .regex(ISO_UTC, "must be an ISO 8601 timestamp in UTC (…Z)")
      .refine((v) => !Number.isNaN(Date.parse(v)) && isRealDate(v.slice(0, 10)), "must be a real time"),
    currency: z.string(),
    covered_amount_cents: z.number().int().positive(),
  }),
  participants: z.strictObject({
    mode: z.literal("unnamed"),
  }),
}) satisfies z.ZodType<OrderContext>;

/** The parsed order_context, checked against the quote it confirms. */
export function validateOrderContext(raw: unknown, quote: QuoteRecord, nowMs: number): OrderContext {
  if (raw === undefined || raw === null) throw invalid("order_context is required.", []);
  const parsed = orderContextSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
    const at = [...issue.path.map(String), ...keys.slice(0, 1)];
    const what = issue.code === "unrecognized_keys" ? "is not a known field" : issue.message;
    throw invalid(`${["order_context", ...at].join(".")} ${what}.`, at);
  }
  const context = parsed.data;
  if (context.order.id !== quote.orderId) {
    throw invalid(`order_context.order.id must be the quoted order '${quote.orderId}'.`, ["order", "id"]);
  }
  if (context.order.currency !== quote.currency) {
    throw invalid(`order_context.order.currency must be the quoted currency ${quote.currency}.`, ["order", "currency"]);
  }
  // The consent record keeps this amount as what the buyer saw: it must be the quoted one.
  if (context.order.covered_amount_cents !== quote.coveredAmountCents) {
    throw invalid(
      `order_context.order.covered_amount_cents must be the quoted covered amount ${quote.coveredAmountCents}.`,
      ["order", "covered_amount_cents"],
    );
  }
  const purchasedAt = Date.parse(context.order.purchased_at);
  if (purchasedAt < quote.createdAt - CLOCK_SKEW_MS) {
    throw invalid(`order_context.order.purchased_at is before the quote was made (${iso(quote.createdAt)}).`, [
      "order",
      "purchased_at",
    ]);
  }
  if (purchasedAt > nowMs + CLOCK_SKEW_MS) {
    throw invalid("order_context.order.purchased_at is in the future.", ["order", "purchased_at"]);
  }
  return context;
}

/**
 * An order_context_invalid naming the field `at` within the document. Messages name the document as docs/api.md "Offers"
 * does (order_context); the field path starts from the confirm input's name for it, orderContext.
 */
const invalid = (message: string, at: string[]) =>
  new DomainError("order_context_invalid", "order_context_invalid", message, ["orderContext", ...at].join("."));
