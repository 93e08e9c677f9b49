import { z } from "zod";
import { MAX_AMOUNT_MINOR, SUPPORTED_CURRENCIES } from "../vocabulary/money.ts";
import { CLAIM_STATUSES } from "../vocabulary/claims.ts";
import { EVENT_TYPES, TEST_EVENT_TYPE } from "../vocabulary/events.ts";
import { SHIPMENT_EVENT_STATUSES } from "../vocabulary/deliveries.ts";
import { ORDER_CONTEXT_SCHEMA_VERSIONS } from "../domain/order-context.ts";
import type { QuoteInput } from "../domain/quotes.ts";
import { MAX_ANALYTICS_DAYS, METRICS_INTERVALS } from "../domain/metrics.ts";
import { storeBuyerEmail } from "../domain/buyer-emails.ts";
import { shippingAddressHash } from "../domain/buyer-addresses.ts";
import { canonicalLanguageTag, canonicalTimeZone } from "../domain/plan-language.ts";
import type { Sealer } from "../secrets/sealer.ts";
import { DAY_MS } from "../vocabulary/time.ts";

// Wire schemas: they validate requests and are the source of the OpenAPI document. Bodies are strict:
// an unknown field is an error (parameter_unknown), never silently ignored.

const amount = z
  .number()
  .int()
  .positive()
  .max(MAX_AMOUNT_MINOR)
  .describe("Amount in the currency's minor units (cents; yen for JPY; fils, thousandths, for KWD).");
const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "must be a three-letter ISO 4217 code")
  .transform((code) => code.toUpperCase())
  .describe(`ISO 4217 code. Supported: ${SUPPORTED_CURRENCIES.join(", ")}.`);
const identifier = (what: string) => z.string().min(1).max(255).describe(what);
/**
 * The order id comes back in the buyer's e-mail and on the merchant's dashboard: printable characters only (no
 * control, format — zero-width, bidi override — or line-break characters) and no space at either end.
 */
const orderId = z
  .string()
  .min(1)
  .max(255)
  .regex(
    /^[^\p{C}\p{Z}](?:[^\p{C}\p{Zl}\p{Zp}]*[^\p{C}\p{Z}])?$/u,
    "must be printable characters, without a space at either end",
  )
  .describe("The merchant's order identifier.");
const email = z.email().max(254);
const reason = z.string().min(1).max(500);
/** The buyer's address: where the welcome e-mail goes and what the buyer signs in to the portal with. */
const customerEmail = email.describe(
  "The buyer's e-mail address: where the welcome e-mail goes and what the buyer signs in to the portal with.",
);
/** One line of printable text, surrounding space trimmed. */
const printableLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\p{C}\p{Zl}\p{Zp}]*$/u, "must be printable characters");
/** Shown to the buyer beside the plan and matched by the portal's look-up: printable, like the order id. */
const orderName = printableLine(64).describe(
  "The store's own order name as buyers know it (e.g. #1001; at most 64 characters, surrounding space trimmed): kept on the plan, shown to the buyer and accepted by the portal's look-up.",
);

/** The identity an offer experiment's variant follows (docs/api.md "Offer experiments"). */
const cartId = printableLine(200).describe(
  'The cart or checkout the offer is for (a cart token, your own cart id): while an offer experiment runs, the same cart always gets the same variant. Absent: the order id (docs/api.md "Offer experiments").',
);

/** The storefront's language, in which the quote's offerTexts are worded (docs/api.md "Offers"). */
const offerLocale = z
  .string()
  .trim()
  .min(1)
  .max(35)
  .regex(/^[A-Za-z0-9_-]+$/, "must be a language tag such as fr-FR")
  .describe(
    "The buyer's language as a BCP 47 tag (the storefront's locale, e.g. fr-FR): offerTexts are in it when its language is English, French, German, Spanish or Dutch, else in English.",
  );

export const quoteRequest = z.strictObject({
  order_amount_cents: amount,
  order_id: orderId,
  protection_program_id: identifier("The protection program that prices the offer."),
  currency: currency.default("USD"),
  customer_email: customerEmail.optional(),
  order_name: orderName.optional(),
  cart_id: cartId.optional(),
  locale: offerLocale.optional(),
});

/** A confirm's buyer address: required unless the quote has one (422 customer_email_required, docs/api.md "The buyer's address"). */
const customerEmailAtConfirm = () =>
  customerEmail
    .optional()
    .describe(
      "The buyer's e-mail address (wins over the quote's). Required unless the quote was given one: without an address no plan is made (422 customer_email_required) and the quote stays open.",
    );

/**
 * The door the order ships to, optional on confirms: only its keyed hash is kept (server/domain/buyer-addresses.ts), so
 * a claim's risk counts the buyer's claims to that door under another e-mail (docs/api.md "Claim risk").
 */
const shippingAddress = z
  .strictObject({
    country_code: z
      .string()
      .regex(/^[A-Za-z]{2}$/, "a two-letter country code (ISO 3166-1 alpha-2)")
      .describe("ISO 3166-1 alpha-2, e.g. GB."),
    postal_code: printableLine(20).optional().describe("As the buyer typed it; absent where the country has none."),
    line1: printableLine(200).describe("The first address line: the street and number."),
  })
  .optional()
  .describe(
    "Where the order ships: kept only as a keyed hash for the buyer's claim history (never stored in clear); optional.",
  );

/**
 * The buyer's language and time zone as the confirming surface knows them (server/domain/plan-language.ts): kept with
 * the plan for the buyer e-mails (docs/api.md "E-mail to buyers"). A tag or zone that is not one is 400 parameter_invalid.
 */
const customerLanguage = {
  customer_locale: z
    .string()
    .refine((tag) => canonicalLanguageTag(tag) !== undefined, "a BCP 47 language tag, e.g. fr-FR")
    .optional()
    .describe(
      "The buyer's language as a BCP 47 tag (the storefront's or checkout's locale, e.g. fr-FR): the buyer e-mails about the plan are written in it when its language is English, French, German, Spanish or Dutch, else in English.",
    ),
  customer_time_zone: z
    .string()
    .refine((zone) => canonicalTimeZone(zone) !== undefined, "an IANA time zone name, e.g. Europe/Paris")
    .optional()
    .describe("The buyer's IANA time zone (e.g. Europe/Paris): the buyer e-mails give dates in it, else in UTC."),
};

/** The confirm's customer_locale and customer_time_zone as the domain takes them. */
export const customerLanguageOf = (body: { customer_locale?: string; customer_time_zone?: string }) => ({
  locale: body.customer_locale,
  timeZone: body.customer_time_zone,
});

export const confirmRequest = z.strictObject({
  quoteId: identifier("From the quote response."),
  quoteToken: z
    .string()
    .min(1)
    .max(512)
    .describe("The single-use token from the quote's X-Service-Quote-Token header."),
  // Validated by the domain (server/domain/order-context.ts): a bad one, a missing one included, is 422
  // order_context_invalid (docs/api.md "Offers"). The preprocess lets a missing one through while the document keeps it required.
  order_context: z
    .preprocess((value) => value ?? null, z.unknown())
    .describe(
      `Versioned snake_case description of the binding order (schema_version, order, participants). Accepted schema_version values: ${ORDER_CONTEXT_SCHEMA_VERSIONS.join(", ")}.`,
    ),
  customer_email: customerEmailAtConfirm(),
  shipping_address: shippingAddress,
  ...customerLanguage,
});

export const declineRequest = z.strictObject({
  quoteId: identifier("The quote the buyer declined."),
  reason: reason.optional(),
});

export const voidRequest = z
  .strictObject({
    planId: identifier("The plan to void.").optional(),
    referenceNumber: identifier("Or: the plan's reference number.").optional(),
    orderId: identifier("Or: the merchant's order identifier.").optional(),
    reason: reason.optional(),
  })
  .refine((body) => [body.planId, body.referenceNumber, body.orderId].filter((v) => v !== undefined).length === 1, {
    message: "give exactly one of planId, referenceNumber, orderId",
    path: ["planId"],
  });

/** Reserved for future API versions: the body must be empty or {}. */
export const refundRequest = z.strictObject({});

export const headlessQuoteRequest = z.strictObject({
  order_amount_cents: amount,
  order_id: orderId,
  protection_program_id: identifier("The protection program that prices the offer."),
  currency: currency.default("USD"),
  customer_email: customerEmail.optional(),
  order_name: orderName.optional(),
  product_category: z.string().min(1).max(100).optional(),
  cart_id: cartId.optional(),
});

/** A headless quote's body as the domain takes it (the API's route and the Shopify orders unit of work). */
export const headlessQuoteInput = (body: z.output<typeof headlessQuoteRequest>, sealer: Sealer): QuoteInput => ({
  orderAmountCents: body.order_amount_cents,
  orderId: body.order_id,
  programId: body.protection_program_id,
  currency: body.currency,
  customerEmail: body.customer_email === undefined ? undefined : storeBuyerEmail(sealer, body.customer_email),
  orderName: body.order_name,
  productCategory: body.product_category,
  cartId: body.cart_id,
});

/** A confirm's shipping address as the plan keeps it: its keyed hash (null without a country or a first line). */
export const shippingAddressHashOf = (
  address: z.output<typeof shippingAddress>,
  sealer: Pick<Sealer, "hash">,
): string | null =>
  address
    ? shippingAddressHash(sealer, {
        countryCode: address.country_code,
        postalCode: address.postal_code,
        line1: address.line1,
      })
    : null;

/** quote_id is the wire spelling; quoteId is accepted too. */
const headlessQuoteRef = {
  quote_id: identifier("From the headless quote.").optional(),
  quoteId: identifier("Alias of quote_id.").optional(),
};
const oneQuoteRef = (body: { quote_id?: string; quoteId?: string }) =>
  (body.quote_id === undefined) !== (body.quoteId === undefined);
const quoteRefIssue = { message: "give quote_id (or quoteId)", path: ["quote_id"] };

export const headlessConfirmRequest = z
  .strictObject({
    ...headlessQuoteRef,
    customer_email: customerEmailAtConfirm(),
    shipping_address: shippingAddress,
    ...customerLanguage,
  })
  .refine(oneQuoteRef, quoteRefIssue);
export const headlessDeclineRequest = z
  .strictObject({ ...headlessQuoteRef, reason: reason.optional() })
  .refine(oneQuoteRef, quoteRefIssue);

const timestamp = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));
const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  starting_after: z.string().min(1).max(255).optional(),
};

/** POST /purchases/{id}/customer-email: the merchant's server sets or corrects the buyer's address. */
export const purchaseCustomerEmailRequest = z.strictObject({ customer_email: customerEmail });

export const purchasesQuery = z.strictObject({
  ...pageQuery,
  status: z.enum(["active", "voided", "cancelled"]).optional(),
  order_id: z.string().min(1).max(255).optional(),
  created_gte: timestamp.optional(),
  created_lt: timestamp.optional(),
});

export const claimsQuery = z.strictObject({
  ...pageQuery,
  status: z.enum(CLAIM_STATUSES).optional(),
  reference_number: z.string().min(1).max(32).optional(),
  created_gte: timestamp.optional(),
  created_lt: timestamp.optional(),
});

export const eventsQuery = z.strictObject({ ...pageQuery, type: z.enum([...EVENT_TYPES, TEST_EVENT_TYPE]).optional() });

/** A UTC day (YYYY-MM-DD) or an ISO 8601 time, as ms: a day's start, or for `to` (the last day counted) its end. */
const dayOrTimestamp = (end: boolean) =>
  z.union([z.iso.date().transform((day) => Date.parse(`${day}T00:00:00Z`) + (end ? DAY_MS : 0)), timestamp]);

/** GET /merchants/{id}/metrics and its CSV (docs/api.md "Analytics"). */
export const metricsQuery = z
  .strictObject({
    from: dayOrTimestamp(false).optional().describe("YYYY-MM-DD (that day's start, UTC) or an ISO 8601 time."),
    to: dayOrTimestamp(true)
      .optional()
      .describe("YYYY-MM-DD (the last day counted, UTC) or an ISO 8601 time (excluded)."),
    interval: z
      .enum(METRICS_INTERVALS)
      .default("day")
      .describe("The analytics' series: by UTC day, ISO week or month."),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from < query.to, {
    message: "must be after from",
    path: ["to"],
  })
  .refine(
    (query) =>
      query.from === undefined || query.to === undefined || query.to - query.from <= MAX_ANALYTICS_DAYS * DAY_MS,
    { message: `the period may span at most ${MAX_ANALYTICS_DAYS} days`, path: ["to"] },
  );

export const noQuery = z.strictObject({});

/** GET /programs (docs/api.md "Programs"). */
export const programsQuery = z.strictObject(pageQuery);

/** GET /settlements (docs/api.md "Settlement"). */
export const settlementsQuery = z.strictObject(pageQuery);

const webhookUrl = z
  .string()
  .min(1)
  .max(2048)
  .describe("Where events are POSTed. Live mode: https and a public address only.");
const webhookEvents = z
  .array(z.enum(["*", ...EVENT_TYPES]))
  .min(1)
  .max(EVENT_TYPES.length + 1)
  .describe('Event types to receive, or ["*"] for all.');

export const webhookEndpointCreate = z.strictObject({ url: webhookUrl, events: webhookEvents });

export const webhookEndpointUpdate = z.strictObject({
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  status: z
    .enum(["enabled", "disabled"])
    .optional()
    .describe("Disable the endpoint, or enable it again (also after it was marked failing)."),
});

export const webhookEndpointsQuery = z.strictObject(pageQuery);

/** DELETE and secret rotation carry no fields: the body must be empty or {}. */
export const emptyBody = z.strictObject({});

// The buyer portal's sign-ins and free-look cancellation (docs/api.md "Buyer portal API").
const referenceNumber = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .describe("The plan's reference number (CLM-YYYY-XXXXXXXX; case and surrounding space do not matter).");

export const portalLookupRequest = z
  .strictObject({
    email: z
      .string()
      .trim()
      .pipe(email)
      .describe("The address the plan was bought with (case and surrounding space do not matter)."),
    referenceNumber: referenceNumber.optional(),
    orderNumber: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .describe(
        "Or: the store's order number as the buyer knows it (#1001: a leading #, spaces and case do not matter) or the order id.",
      ),
  })
  .refine((body) => (body.referenceNumber === undefined) !== (body.orderNumber === undefined), {
    message: "give exactly one of referenceNumber, orderNumber",
    path: ["referenceNumber"],
  });

export const portalCoverageLinkRequest = z.strictObject({
  referenceNumber,
  token: z.string().min(1).max(200).describe("The `token` of the welcome e-mail's coverage link."),
});

export const portalCancelRequest = z.strictObject({
  referenceNumber: referenceNumber.describe("The signed-in plan's reference number."),
});

export const feeRefundRequest = z.strictObject({
  reference: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe("Your own reference of the refund (e.g. the payment processor's refund id)."),
});

/** POST /merchant/claims/{claimId}/resolution: what the merchant did for the buyer of an approved claim. */
export const claimResolutionRequest = z.strictObject({
  kind: z.enum(["refund", "replacement"]).describe("What was done: the remedy the claim was approved for."),
  amountCents: amount
    .optional()
    .describe(
      "What was refunded, or what the replacement is worth (minor units); default and at most the claim's amount.",
    ),
  reference: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe("Your reference of what was done (the refund id, the replacement order or its tracking number)."),
  note: z.string().trim().max(2000).optional().describe("Shown to the buyer on the claim's timeline."),
});

export const redeliverRequest = z.strictObject({
  endpoint_id: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("Only to this endpoint (default: every subscribed endpoint that is not disabled)."),
});

// The buyer portal's claims (docs/api.md "Claims"). These bodies also arrive as multipart/form-data text fields, where the
// amount is the digits of a form field; in JSON it is a number, never a string (docs/api.md "Money, currencies, time": money).
const claimText = (what: string) => z.string().trim().min(1).max(5000).describe(what);
const formAmount = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, "must be a positive whole number")
  .transform(Number)
  .pipe(amount);

export const fileClaimRequest = z.strictObject({
  referenceNumber: z.string().min(1).max(32).describe("The plan's reference number (the signed-in plan's)."),
  reason: z.string().min(1).max(100).describe("One of the 12 covered reasons (GET /portal/reasons)."),
  occurredAt: z
    .union([z.iso.date(), z.iso.datetime()])
    .transform((value) => ({
      at: Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value),
      day: value.length === 10,
    }))
    .describe(
      "When it happened: YYYY-MM-DD or an ISO 8601 date-time in UTC (…Z). At most 30 days ago, not before the purchase, not in the future.",
    ),
  description: claimText("What happened (1 to 5000 characters)."),
  amountCents: amount
    .optional()
    .describe("The amount asked for (default: the covered amount less what earlier claims were paid)."),
});

/** fileClaimRequest as multipart/form-data text fields: the amount as a field's digits. */
export const fileClaimForm = fileClaimRequest.extend({
  amountCents: formAmount
    .optional()
    .describe("The amount asked for, in digits (default: the covered amount less what earlier claims were paid)."),
});

export const claimMessageRequest = z.strictObject({
  message: claimText("The buyer's message (1 to 5000 characters)."),
});

export const portalClaimsQuery = z.strictObject(pageQuery);

// Delivery facts (docs/api.md "Delivery facts"): shipments of a protected order and their carriers' scans.
export const shipmentRequest = z.strictObject({
  carrier: printableLine(100).describe("The carrier's name as you know it (e.g. UPS, DHL Express, Royal Mail)."),
  trackingNumber: printableLine(100).describe(
    "The carrier's tracking number: the shipment's key on its order (the same number again is the same shipment).",
  ),
  promisedDeliveryDate: z.iso
    .date()
    .optional()
    .describe(
      "The delivery date promised to the buyer (YYYY-MM-DD, a UTC day): past its end + 14 days undelivered, the shipment is overdue.",
    ),
});

export const shipmentEventRequest = z.strictObject({
  status: z.enum(SHIPMENT_EVENT_STATUSES).describe("What the carrier's scan says."),
  occurredAt: z.iso
    .datetime()
    .transform((value) => Date.parse(value))
    .describe("When the scan happened: an ISO 8601 date-time in UTC (…Z); not in the future."),
  location: printableLine(200).optional().describe("Where, as the carrier says it (a town, a depot)."),
  message: printableLine(500).optional().describe("The carrier's own words."),
});

/** POST /tracking/aftership: the merchant's AfterShip webhook secret (Settings > Webhooks in AfterShip). */
export const aftershipConnectionRequest = z.strictObject({
  secret: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
    .describe("The webhook secret of your AfterShip account, which signs its tracking webhooks."),
});

const aftershipText = z
  .string()
  .nullish()
  .transform((text) => text ?? null);
/**
 * An AfterShip tracking webhook's body (server/domain/tracking-callbacks.ts cites the documentation), read for the
 * fields the adapter uses. Not strict, unlike the service's own bodies: AfterShip adds fields between webhook versions.
 */
export const aftershipCallback = z
  .object({
    event: z
      .string()
      .describe("tracking_update, edd_revise or tracking_pending_time: only tracking_update records scans."),
    msg: z
      .object({
        tracking_number: aftershipText,
        slug: aftershipText.describe("AfterShip's code of the carrier."),
        checkpoints: z
          .array(
            z.object({
              checkpoint_time: aftershipText,
              created_at: aftershipText,
              tag: aftershipText,
              subtag: aftershipText,
              message: aftershipText,
              location: aftershipText,
            }),
          )
          .nullish(),
      })
      .nullish(),
  })
  .transform(({ event, msg }) => ({
    event,
    trackingNumber: msg?.tracking_number ?? null,
    slug: msg?.slug ?? null,
    checkpoints: (msg?.checkpoints ?? []).map((checkpoint) => ({
      checkpointTime: checkpoint.checkpoint_time,
      createdAt: checkpoint.created_at,
      tag: checkpoint.tag,
      subtag: checkpoint.subtag,
      message: checkpoint.message,
      location: checkpoint.location,
    })),
  }));
