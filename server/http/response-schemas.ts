import { z } from "zod";
import { OFFER_WORDING_KEYS, REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { CLAIM_STATUSES } from "../vocabulary/claims.ts";
import { SUPPORTED_CURRENCIES } from "../vocabulary/money.ts";
import { CONSENT_EVIDENCE, PAYERS } from "../vocabulary/plans.ts";
import { DISCLOSURE_PHRASE } from "../domain/disclosure.ts";
import { METRICS_INTERVALS } from "../domain/metrics.ts";
import { LEDGER_KINDS } from "../domain/ledger.ts";
import { EVENT_TYPES, TEST_EVENT_TYPE, type StoredEventType } from "../vocabulary/events.ts";
import {
  ORDER_DELIVERY_STATES,
  SHIPMENT_EVENT_STATUSES,
  SHIPMENT_SOURCES,
  SHIPMENT_STATES,
} from "../vocabulary/deliveries.ts";
import { snakeCaseKey } from "./casing.ts";

// Response shapes for the OpenAPI document (requests are described by the schemas that validate them). Strict objects,
// so a field the handlers return and this file does not declare fails test/api/response-schemas.test.ts.

const cents = z.number().int();
const timestamp = z.string().describe("ISO 8601 UTC.");
const coveredReasons = z.array(z.string()).length(12);
/** docs/api.md "Who pays": who pays the fee and which part; feeCents stays the whole price of the protection. */
const payer = z
  .enum(PAYERS)
  .describe("Who pays for protection: buyer (an offer at checkout), merchant (every order protected), or split.");
const feeParts = {
  payer,
  buyerFeeCents: cents.describe("The part of feeCents the buyer pays (0 when the merchant pays)."),
  merchantFeeCents: cents.describe(
    "The part of feeCents the merchant pays itself; buyerFeeCents + merchantFeeCents = feeCents.",
  ),
};

export const error = z.strictObject({
  error: z.strictObject({
    type: z.enum([
      "invalid_request_error",
      "authentication_error",
      "permission_error",
      "rate_limit_error",
      "api_error",
    ]),
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
    request_id: z.string(),
  }),
});

export const quote = z.strictObject({
  quoteId: z.string(),
  status: z.literal("open"),
  orderId: z.string(),
  currency: z.string(),
  orderAmountCents: cents,
  feeCents: cents,
  ...feeParts,
  coveredAmountCents: cents,
  coveredReasons,
  disclosureText: z.string().describe("The full two-sentence disclosure, to be shown verbatim."),
  termsUrl: z.string(),
  offerWording: z
    .enum(OFFER_WORDING_KEYS)
    .describe(
      'The offer\'s label, a key of the approved wordings (docs/api.md "Offer experiments"): show its text with the fee, next to an unticked box.',
    ),
  expiresAt: z.string().describe("ISO 8601 UTC; quotes live 30 minutes."),
  livemode: z.boolean(),
  offerTexts: z
    .strictObject({
      locale: z.string().describe("The buyer locale the texts are in (the request's locale when served, else en)."),
      label: z.string().describe("The offer's label in its wording, `{price}` standing for the price shown."),
      covers: z.string(),
      termsLink: z.string(),
      groupLabel: z.string(),
      disclosure: z.string().describe("The visible disclosure, both sentences, in the buyer's language."),
      decline: z.string(),
      adding: z.string(),
      confirmed: z.string().describe("`{reference}` standing for the plan's reference number."),
      declined: z.string(),
      cartError: z.string(),
    })
    .describe(
      "The widget's sentences in the buyer's language (packages/widget/README.md \"Languages\"); disclosureText stays English.",
    ),
});

export const confirmation = z.strictObject({
  referenceNumber: z.string().regex(REFERENCE_NUMBER_PATTERN),
  planId: z.string(),
  status: z.literal("confirmed"),
  orderId: z.string(),
  currency: z.string(),
  feeCents: cents,
  ...feeParts,
  coveredAmountCents: cents,
  freeLookEndsAt: timestamp,
  coverageUrl: z.string(),
  livemode: z.boolean(),
});

export const declined = z.strictObject({
  quoteId: z.string(),
  status: z.literal("declined"),
  reason: z.string().nullable(),
  declinedAt: timestamp,
  livemode: z.boolean(),
});

export const purchase = z.strictObject({
  id: z.string(),
  object: z.literal("purchase"),
  referenceNumber: z.string().regex(REFERENCE_NUMBER_PATTERN),
  status: z.enum(["active", "voided", "cancelled"]),
  orderId: z.string(),
  orderStatus: z.enum(["protected", "merchant_refunded"]),
  quoteId: z.string(),
  currency: z.string(),
  feeCents: cents,
  ...feeParts,
  coveredAmountCents: cents,
  purchasedAt: timestamp,
  freeLookEndsAt: timestamp,
  createdAt: timestamp,
  voidedAt: timestamp.nullable(),
  voidReason: z.string().nullable(),
  cancelledAt: timestamp.nullable().describe("When the buyer cancelled within the 48-hour free look."),
  customerLocale: z
    .string()
    .nullable()
    .describe(
      "The buyer's locale recorded at confirm (BCP 47, e.g. fr-FR), in which the buyer e-mails are written; null: not known or not a served language (English).",
    ),
  customerTimeZone: z
    .string()
    .nullable()
    .describe("The buyer's IANA time zone recorded at confirm, in which the buyer e-mails give dates; null: UTC."),
  feeRefund: z
    .strictObject({
      amountCents: cents,
      currency: z.string(),
      channel: z
        .enum(["shopify", "merchant"])
        .describe("shopify: the app refunds it; merchant: the merchant confirms it."),
      status: z.enum(["pending", "refunded"]),
      reference: z.string().nullable(),
      refundedAt: timestamp.nullable(),
    })
    .nullable()
    .describe("The fee owed back after a free-look cancellation; null otherwise."),
  livemode: z.boolean(),
  presentment: z
    .strictObject({
      currency: z.string().describe("The buyer's currency; the amounts here are in its minor units."),
      coveredAmountCents: cents.describe("The covered goods as the buyer paid for them."),
      buyerPaidCents: cents
        .nullable()
        .describe("What the buyer paid for the protection (its order line); null: the order had no protection line."),
      exchangeRate: z
        .string()
        .regex(/^\d+\.\d{10}$/)
        .describe(
          "Units of `currency` (the plan's) per unit of the buyer's currency, from the order's subtotal in both, to 10 decimal places (half up).",
        ),
    })
    .optional()
    .describe(
      "Only on a plan whose buyer paid in another currency than the plan's (a Shopify Markets order): what they saw and paid. The plan's amounts, its ledger and statements stay in `currency`.",
    ),
});

/** What the buyer saw and agreed to, kept with the plan. */
const consentRecord = z.strictObject({
  quoteId: z.string(),
  surface: z.enum(["widget", "api", "server"]),
  disclosureText: z.string(),
  feeCents: cents,
  coveredAmountCents: cents,
  currency: z.string(),
  coveredReasons,
  termsUrl: z.string(),
  acceptedAt: timestamp,
  payer: payer.optional().describe("Who paid (absent on plans made before payers: the buyer paid all of it)."),
  buyerFeeCents: cents.optional(),
  merchantFeeCents: cents.optional(),
  buyerShown: z
    .enum(["choice", "notice"])
    .optional()
    .describe("choice: the buyer accepted an offer; notice: the merchant protected the order and told the buyer."),
  evidence: z
    .array(z.enum(CONSENT_EVIDENCE))
    .optional()
    .describe(
      "A server confirm's grounds on the platform's order: choice_attribute, checkout_metafield, protection_line. Absent for browser confirms.",
    ),
});

export const purchaseWithConsent = purchase.extend({ consent: consentRecord });

export const merchantRefund = z.strictObject({
  orderId: z.string(),
  status: z.literal("merchant_refunded"),
  refundedAt: timestamp,
  purchase,
  settlementCredit: z.strictObject({ amountCents: cents, currency: z.string(), statement: z.literal("next") }),
  consumerRefundIssued: z.literal(false).describe("The merchant refunded the buyer; no consumer refund is issued."),
  livemode: z.boolean(),
});

const decisionFields = {
  code: z
    .string()
    .describe('`covered` for an approval; a denial\'s published reason code (docs/api.md "Claim decisions").'),
  message: z.string().describe("The sentence the buyer reads."),
  basis: z
    .array(z.string())
    .describe(
      "What an automatic decision rested on (the claim's amount, the carriers' facts), one sentence each in the buyer's words; empty for the claims team's decisions (docs/api.md \"Claim decisions\").",
    ),
  decidedAt: timestamp,
};

const portalClaimDecision = z
  .strictObject(decisionFields)
  .nullable()
  .describe("The decision with its published reason code and the sentence the buyer reads; null until decided.");

const claimDecision = z
  .strictObject({
    ...decisionFields,
    decidedBy: z.enum(["rule", "claims_team"]).describe("One of the program's claim rules, or the claims team."),
    ruleId: z.string().nullable().describe("The rule that decided (decidedBy rule), else null."),
  })
  .nullable()
  .describe("The decision with its published reason code and the sentence the buyer reads; null until decided.");

const claimResolution = z
  .strictObject({
    remedy: z.enum(["refund", "replacement"]),
    amountCents: cents.describe("Pending: what to refund (or what the replacement is worth); done: what was paid."),
    currency: z.string(),
    status: z.enum(["pending", "done"]).describe("pending: approved, to be paid; done: paid."),
    channel: z
      .enum(["shopify", "merchant"])
      .describe(
        "shopify: the service pays it on the Shopify order; merchant: you pay it and confirm (POST …/resolution).",
      ),
    reference: z.string().nullable().describe("The Shopify refund or order id, or your reference; null until paid."),
    resolvedAt: timestamp.nullable(),
    error: z.string().nullable().describe("The last failed attempt to pay it on Shopify, until it is paid."),
  })
  .nullable()
  .describe("What an approved claim is owed and, once paid, how it was paid; null unless approved or paid.");

/** The claim's number on its plan, as buyers name a claim ("claim 2 on CLM-2026-…"). */
const claimNumber = z
  .number()
  .int()
  .positive()
  .describe("The claim's number on its plan (1, 2, … in filing order): buyers name it 'claim 2 on CLM-2026-…'.");

export const claim = z.strictObject({
  id: z.string(),
  object: z.literal("claim"),
  planId: z.string(),
  number: claimNumber,
  referenceNumber: z.string().regex(REFERENCE_NUMBER_PATTERN),
  orderId: z.string(),
  reason: z.string(),
  description: z.string(),
  status: z.enum(CLAIM_STATUSES),
  amountCents: cents,
  currency: z.string(),
  occurredAt: timestamp,
  decision: claimDecision,
  resolution: claimResolution,
  evidenceCount: z.number().int().nonnegative(),
  createdAt: timestamp,
  updatedAt: timestamp,
  livemode: z.boolean(),
});

export const evidenceFile = z.strictObject({
  id: z.string(),
  contentType: z.enum(["image/jpeg", "image/png", "image/webp", "image/heic", "application/pdf"]),
  byteSize: z.number().int().positive(),
  fileName: z.string().describe("The buyer's file name, sanitised: display only."),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** A claim as its buyer sees it in the portal. */
export const portalClaim = z.strictObject({
  id: z.string(),
  object: z.literal("claim"),
  number: claimNumber,
  referenceNumber: z.string().regex(REFERENCE_NUMBER_PATTERN),
  reason: z.string(),
  reasonName: z.string(),
  status: z.enum(CLAIM_STATUSES),
  description: z.string(),
  occurredAt: timestamp,
  amountCents: cents,
  currency: z.string(),
  decision: portalClaimDecision,
  payout: z
    .strictObject({
      remedy: z.enum(["refund", "replacement"]),
      amountCents: cents,
      currency: z.string(),
      status: z.enum(["pending", "paid"]).describe("pending: approved, to be paid; paid: done."),
      payer: z
        .enum(["shopify_refund", "merchant"])
        .describe("shopify_refund: paid automatically on the Shopify order; merchant: the store pays it itself."),
      dueBy: z.iso.date().describe("The day (UTC) by which it is paid: the approval plus the payer's window."),
      paidAt: timestamp.nullable(),
      terms: z.string().describe("The sentence the buyer reads: who pays, how and by when."),
    })
    .nullable()
    .describe("What an approved or paid claim brings the buyer; null unless approved or paid."),
  evidence: z.array(evidenceFile),
  createdAt: timestamp,
  updatedAt: timestamp,
  livemode: z.boolean(),
});

export const portalClaimWithTimeline = portalClaim.extend({
  timeline: z.array(
    z.strictObject({
      id: z.string(),
      at: timestamp,
      actor: z.enum(["buyer", "merchant", "claims_team", "service"]),
      kind: z.enum(["submitted", "message", "status_changed"]),
      status: z.enum(CLAIM_STATUSES).nullable(),
      text: z.string(),
      evidence: z.array(evidenceFile),
    }),
  ),
});

export const evidenceDownload = z.string().describe("The file's bytes (binary), Content-Type from its stored type.");

// docs/api.md "Settlement": closed statements and their ledger entries. Amounts are signed from the merchant's side.
const ledgerKind = z.enum(LEDGER_KINDS);
export const settlementStatement = z.strictObject({
  id: z.string(),
  object: z.literal("settlement_statement"),
  currency: z.string(),
  periodStart: timestamp,
  periodEnd: timestamp.describe("Exclusive."),
  period: z.enum(["weekly", "monthly", "partial"]),
  openingBalanceCents: cents,
  totals: z.record(ledgerKind, cents).describe("The period's entries summed per kind."),
  netCents: cents,
  closingBalanceCents: cents.describe("Opening balance plus net: positive we owe the merchant, negative it owes us."),
  direction: z.enum(["payable_to_merchant", "payable_by_merchant", "settled"]),
  entryCount: z.number().int().nonnegative(),
  createdAt: timestamp,
  livemode: z.boolean(),
});
export const ledgerEntry = z.strictObject({
  id: z.string(),
  kind: ledgerKind,
  amountCents: cents,
  currency: z.string(),
  sourceId: z.string(),
  planId: z.string().nullable(),
  createdAt: timestamp,
  lateFrom: z
    .strictObject({ statementId: z.string(), periodStart: timestamp, periodEnd: timestamp })
    .nullable()
    .describe(
      "Set when the entry was written after the period of its time had closed (on that statement): it is settled on this statement instead.",
    ),
});
export const settlementWithEntries = settlementStatement.extend({ entries: z.array(ledgerEntry) });
export const settlementCsv = z
  .string()
  .describe(
    "text/csv: a header row, then one row per entry (entry_id, created_at, kind, amount_cents, currency, source_id, plan_id, note; note says `late entry: occurred in <period start>/<period end> (closed as <statement id>)` for an entry written after its period closed).",
  );

export const settlementBalance = z.strictObject({
  object: z.literal("settlement_balance"),
  currency: z.string(),
  periodStart: timestamp.describe("The open period: from the last statement's end or the period's start."),
  periodEnd: timestamp.describe("Exclusive: the end of the period holding now."),
  period: z.enum(["weekly", "monthly"]),
  closesAt: timestamp.describe("When the period's statement closes: its end plus the 15-minute grace."),
  openingBalanceCents: cents.describe("The last closed statement's closing balance; 0 before the first."),
  totals: z.record(ledgerKind, cents).describe("The entries on no statement yet, summed per kind."),
  netCents: cents,
  balanceCents: cents.describe("Opening balance plus net: positive we owe the merchant, negative it owes us."),
  direction: z.enum(["payable_to_merchant", "payable_by_merchant", "settled"]),
  entryCount: z.number().int().nonnegative(),
  lateEntries: z
    .strictObject({ count: z.number().int().nonnegative(), amountCents: cents })
    .describe("Of those entries, the ones stamped inside a period already closed: the next statement settles them."),
  merchantShareBps: z.number().int().nullable().describe("The merchant's share of each fee (the first program's)."),
  livemode: z.boolean(),
});
export const settlementBalances = z.strictObject({
  object: z.literal("list"),
  data: z.array(settlementBalance).describe("One per currency the merchant has money in, by currency."),
});

const count = z.number().int().nonnegative();
const rate = (what: string) => z.number().min(0).nullable().describe(`${what}; null when the denominator is 0.`);
const analyticsFigures = z.strictObject({
  offersShown: count.describe("Quotes created: every offer a buyer was shown."),
  confirmed: count,
  declined: count,
  abandoned: count.describe("Shown and neither confirmed nor declined (still open or expired)."),
  attachRateByOrders: rate("confirmed / offersShown: abandoned offers are counted in the denominator"),
  offeredValueCents: cents.describe("The order value of every offer shown."),
  protectedOrderValueCents: cents.describe("The order value of the confirmed offers."),
  attachRateByValue: rate("protectedOrderValueCents / offeredValueCents (abandoned offers counted)"),
  feeCents: cents.describe(
    "Fees of the plans protected in the period that are still active, whoever paid them (buyerFeeCents + merchantFeeCents).",
  ),
  buyerFeeCents: cents.describe("What buyers paid of those fees: the program's revenue."),
  merchantFeeCents: cents.describe(
    "What the merchant paid itself of those fees (merchant-paid and split plans): its cost.",
  ),
  merchantShareCents: cents.describe("The merchant's share of those fees, earned on what buyers paid."),
  claimsFiled: count,
  claimRate: rate("claimsFiled / confirmed"),
  claimsDecided: count.describe("Claims decided in the period (their standing decision)."),
  claimsApproved: count.describe("Of those, approved (paid since included)."),
  approvalRate: rate("claimsApproved / claimsDecided"),
  paidCents: cents.describe("Paid on claims in the period (when they were paid)."),
  lossRatio: rate("paidCents / feeCents"),
});
const periodFigures = analyticsFigures.extend({
  medianDecisionMs: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe("The median time from filing to the decision of the claims decided in the period; null when none."),
});
const ratio = z.number().min(0).max(1);
const offerExperimentResult = z.strictObject({
  id: z.string(),
  programId: z.string(),
  state: z.enum(["running", "stopped", "rolled_out"]),
  rolledOutVariant: z.string().nullable().describe("The variant the program took (state rolled_out), else null."),
  startedAt: timestamp,
  stoppedAt: timestamp.nullable(),
  reading: z
    .enum(["too_small", "no_clear_leader", "leader"])
    .describe(
      "too_small: a variant was shown fewer than 100 offers in the period, too few to call; no_clear_leader: no variant's attach rate interval lies wholly above every other's; leader: `leader`'s does.",
    ),
  leader: z.string().nullable(),
  variants: z.array(
    z.strictObject({
      key: z.enum(["A", "B", "C"]),
      control: z.boolean().describe("The program as it is when each offer is quoted (rateBps, offerWording null)."),
      rateBps: z.number().int().positive().nullable(),
      offerWording: z.enum(OFFER_WORDING_KEYS).nullable(),
      offersShown: count,
      confirmed: count,
      attachRate: ratio.nullable().describe("confirmed / offersShown; null without offers."),
      attachRateInterval: z
        .strictObject({ low: ratio, high: ratio })
        .nullable()
        .describe("The attach rate's 95 % Wilson score interval; null without offers."),
      revenue: z
        .array(
          z.strictObject({
            currency: z.string(),
            offersShown: count,
            feeCents: cents.describe("Fees of the variant's plans still active."),
            revenuePerOfferCents: z.number().nonnegative().describe("feeCents / offersShown, unrounded."),
          }),
        )
        .describe("Per currency with offers, by currency code."),
    }),
  ),
});

export const merchantMetrics = z.strictObject({
  object: z.literal("merchant_metrics"),
  merchantId: z.string(),
  livemode: z.boolean(),
  period: z.strictObject({ from: timestamp.nullable(), to: timestamp.nullable() }),
  quotes: z.strictObject({ total: count, confirmed: count, declined: count, open: count, expired: count }),
  attachRate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe("Confirmed quotes over all decided or expired quotes; null without any."),
  plans: z.strictObject({ active: count, voided: count, cancelled: count }),
  ordersMerchantRefunded: count,
  claims: z.strictObject({ total: count, byStatus: z.partialRecord(z.enum(CLAIM_STATUSES), count) }),
  fees: z
    .array(
      z.strictObject({
        currency: z.string(),
        feeCents: cents,
        buyerFeeCents: cents,
        merchantFeeCents: cents,
        merchantShareCents: cents,
      }),
    )
    .describe("Fees of active plans per currency: the whole, what buyers paid and what the merchant paid itself."),
  analytics: z
    .strictObject({
      period: z
        .strictObject({ from: timestamp, to: timestamp })
        .describe("[from, to): as asked, or the last 30 UTC days (today included) when neither end is given."),
      previousPeriod: z
        .strictObject({ from: timestamp, to: timestamp })
        .describe("The period of equal length just before: every figure's comparison."),
      interval: z.enum(METRICS_INTERVALS),
      currencies: z
        .array(
          z.strictObject({
            currency: z.string(),
            current: periodFigures,
            previous: periodFigures,
            series: z
              .array(analyticsFigures.extend({ start: z.string().describe("The bucket's first UTC day, YYYY-MM-DD.") }))
              .describe("Every bucket of the period by `interval` (ISO weeks start on Monday), oldest first."),
          }),
        )
        .describe("One per currency with activity in either period, by currency code."),
      claimsByReason: z
        .array(z.strictObject({ reason: z.string(), count, previousCount: count }))
        .describe("Claims filed per covered reason in the period and the previous one, most filed first."),
      experiments: z
        .array(offerExperimentResult)
        .describe('The offer experiments that ran in the period, newest first (docs/api.md "Offer experiments").'),
    })
    .describe('docs/api.md "Analytics": the figures of a period of UTC days, per currency.'),
});
export const metricsCsv = z
  .string()
  .describe(
    "text/csv: a header row, then one row per currency and bucket of the analytics' series (period_start, currency, then every figure in snake_case; a ratio without a denominator is empty).",
  );

/** The camelCase object's fields under their snake_case names (the headless wire format). */
function snakeCased<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return z.strictObject(
    Object.fromEntries(Object.entries(schema.shape).map(([key, field]) => [snakeCaseKey(key), field])),
  );
}

export const headlessQuote = snakeCased(
  // The storefront's sentences are the widget's, not a server's (docs/api.md "Headless (server path)").
  quote.omit({ offerTexts: true }).extend({
    disclosureText: z.literal(DISCLOSURE_PHRASE),
    disclosure: z.string().describe("The full two-sentence disclosure."),
  }),
);
export const headlessConfirmation = snakeCased(confirmation);
export const headlessDeclined = snakeCased(declined);

// Delivery facts (docs/api.md "Delivery facts" and "Delivery states").
export const shipment = z.strictObject({
  id: z.string(),
  object: z.literal("shipment"),
  orderId: z.string(),
  source: z.enum(SHIPMENT_SOURCES).describe("shopify: from the shop's fulfilment; api: reported by the merchant."),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable().describe("Null only for a Shopify fulfilment without one."),
  promisedDeliveryDate: z.string().nullable().describe("YYYY-MM-DD (a UTC day), or null."),
  state: z.enum(SHIPMENT_STATES).describe('Derived from the scans and the time (docs/api.md "Delivery states").'),
  deliveredAt: timestamp.nullable(),
  lastScanAt: timestamp.nullable(),
  stalledSince: timestamp.nullable().describe("When the parcel became presumed lost; null unless stalled."),
  deliveryDeadline: timestamp
    .nullable()
    .describe("The end of the promised day + 14 days; null without a promised date."),
  overdue: z.boolean().describe("Not delivered within 14 days of the promised date."),
  events: z.array(
    z.strictObject({
      id: z.string(),
      status: z.enum(SHIPMENT_EVENT_STATUSES),
      occurredAt: timestamp,
      location: z.string().nullable(),
      message: z.string().nullable(),
      recordedAt: timestamp,
    }),
  ),
  createdAt: timestamp,
  updatedAt: timestamp,
  livemode: z.boolean(),
});

// Tracking callbacks (docs/api.md "Tracking callbacks").
export const trackingConnection = z.strictObject({
  object: z.literal("tracking_connection"),
  provider: z.literal("aftership"),
  callbackPath: z.string().describe("Where AfterShip is to send this mode's webhooks, on the API's host."),
  createdAt: timestamp,
  updatedAt: timestamp,
  livemode: z.boolean(),
});

export const trackingCallback = z.strictObject({
  object: z.literal("tracking_callback"),
  event: z.string(),
  shipmentIds: z
    .array(z.string())
    .describe("The shipments of the tracking number and carrier; empty: none is known and nothing was recorded."),
  scansRecorded: z.number().int().describe("The checkpoints new to those shipments, recorded as scans."),
});

export const orderDelivery = z.strictObject({
  object: z.literal("order_delivery"),
  orderId: z.string(),
  state: z.enum(ORDER_DELIVERY_STATES),
  deliveredAt: timestamp.nullable().describe("When the last of its shipments was delivered, once all are."),
  overdue: z.boolean(),
  shipments: z.array(shipment),
  livemode: z.boolean(),
});

const eventOf = <Payload extends z.ZodType>(types: readonly StoredEventType[], payload: Payload) =>
  z.strictObject({
    id: z.string(),
    object: z.literal("event"),
    type: z.enum(types),
    created: z.number().int().describe("Unix seconds."),
    livemode: z.boolean(),
    data: z.strictObject({ object: payload }),
  });

/** A protection program: the id quotes name as protection_program_id and the terms that price them (docs/api.md "Programs"). */
export const program = z.strictObject({
  id: z.string().startsWith("prog_"),
  object: z.literal("protection_program"),
  name: z.string(),
  active: z.boolean().describe("Whether quotes may name it."),
  rateBps: z.number().int().describe("The fee: this many hundredths of a percent of the covered amount."),
  minFeeCents: cents.describe(
    "@deprecated Since 2026-11-27; works until 2027-02-25. Use currencyLimits: the smallest fee in the program's first currency.",
  ),
  maxCoveredCents: cents.describe(
    "@deprecated Since 2026-11-27; works until 2027-02-25. Use currencyLimits: the largest covered amount in the program's first currency.",
  ),
  merchantShareBps: z.number().int().describe("The merchant's share of each fee, in hundredths of a percent."),
  currencies: z.array(z.string()),
  currencyLimits: z
    .partialRecord(
      z.enum(SUPPORTED_CURRENCIES),
      z.strictObject({
        minFeeCents: cents.describe("The smallest fee, in the currency's minor units."),
        maxCoveredCents: cents.describe("The largest amount one plan covers, in the currency's minor units."),
      }),
    )
    .describe("Per currency of `currencies` (its ISO 4217 code): the program's limits in that currency's minor units."),
  productCategories: z.array(z.string()).describe("Empty: any category."),
  settlementPeriod: z.enum(["weekly", "monthly"]),
  payer,
  buyerShareBps: z
    .number()
    .int()
    .min(1)
    .max(9_999)
    .nullable()
    .describe("Split only: the buyer's share of the fee, in hundredths of a percent; null otherwise."),
  livemode: z.boolean(),
  createdAt: timestamp,
});

export const webhookEndpoint = z.strictObject({
  id: z.string(),
  object: z.literal("webhook_endpoint"),
  url: z.string(),
  events: z.array(z.enum(["*", ...EVENT_TYPES])),
  status: z.enum(["enabled", "disabled", "failing"]),
  failingSince: timestamp.nullable(),
  previousSecretExpiresAt: timestamp.nullable(),
  livemode: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const event = z.union([
  eventOf(["offer.declined"], declined),
  eventOf(["protection.confirmed", "protection.voided", "protection.cancelled", "protection.updated"], purchase),
  eventOf(["order.merchant_refunded"], merchantRefund),
  eventOf(["claim.created", "claim.updated"], claim),
  eventOf(["shipment.updated"], shipment),
  eventOf([TEST_EVENT_TYPE], webhookEndpoint).describe(
    "webhook_endpoint.test: sent from the dashboard to the one endpoint it names, never to subscribers.",
  ),
]);

export const webhookEndpointWithSecret = webhookEndpoint.extend({
  secret: z.string().startsWith("whsec_").describe("Shown this once."),
});

export const deletedWebhookEndpoint = z.strictObject({
  id: z.string(),
  object: z.literal("webhook_endpoint"),
  deleted: z.literal(true),
});

export const redelivery = z.strictObject({
  object: z.literal("redelivery"),
  eventId: z.string(),
  deliveries: z.array(z.strictObject({ id: z.string(), endpointId: z.string() })),
});

export const webhookAttempt = z.strictObject({
  id: z.string(),
  object: z.literal("webhook_attempt"),
  deliveryId: z.string(),
  eventId: z.string(),
  outcome: z.enum(["succeeded", "failed"]),
  statusCode: z.number().int().nullable().describe("The receiver's HTTP status; null when no response came."),
  error: z.string().nullable(),
  responseExcerpt: z
    .string()
    .nullable()
    .describe("The first 500 characters of the receiver's answer; null when it sent none (or no response came)."),
  durationMs: z.number().int(),
  attemptedAt: timestamp,
});

export const page = <Item extends z.ZodType>(item: Item) =>
  z.strictObject({
    object: z.literal("list"),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  });

/** The buyer portal's coverage summary of one plan (docs/api.md "Buyer portal API"). */
export const portalPlan = z.strictObject({
  object: z.literal("portal_plan"),
  referenceNumber: z.string().regex(REFERENCE_NUMBER_PATTERN),
  status: z.enum(["active", "voided", "cancelled"]),
  merchantName: z.string(),
  orderId: z.string(),
  orderName: z
    .string()
    .nullable()
    .describe("The store's own order name as the buyer knows it (#1001); null when the store gave none."),
  currency: z.string(),
  feeCents: cents,
  payer,
  buyerFeeCents: cents.describe("What the buyer paid of the fee: what a free-look cancellation refunds."),
  coveredAmountCents: cents,
  remainingCoveredCents: cents.describe(
    "The covered amount less what earlier claims on the plan were paid; 0 once the plan was cancelled or voided.",
  ),
  purchasedAt: timestamp,
  freeLookEndsAt: timestamp,
  cancellable: z
    .boolean()
    .describe("Active, still within the 48-hour free look, and the buyer paid for it (not a merchant-paid plan)."),
  cancelledAt: timestamp.nullable(),
  feeRefund: z
    .strictObject({
      amountCents: cents,
      currency: z.string(),
      status: z.enum(["pending", "refunded"]),
      refundedAt: timestamp.nullable(),
    })
    .nullable(),
  claimWindowDays: z.literal(30),
  deliveredAt: timestamp
    .nullable()
    .describe(
      "When the carrier delivered the order (the last of its shipments, once all are); null: no delivery recorded.",
    ),
  deliveryClaimsUntil: timestamp
    .nullable()
    .describe(
      "The last moment to claim for a reason whose window counts from the delivery (claimWindowFrom 'delivery' in GET /portal/reasons): deliveredAt plus 30 days; null without a delivery.",
    ),
  coveredReasons: z.array(z.strictObject({ code: z.string(), name: z.string() })).length(12),
  disclosureText: z.string().describe("The full two-sentence disclosure."),
  locale: z
    .string()
    .nullable()
    .describe(
      "The buyer's locale recorded at confirm (customer_locale): the portal's language for them; null: not known.",
    ),
  livemode: z.boolean(),
});

export const portalSession = z.strictObject({
  object: z.literal("portal_session"),
  portalToken: z.string().startsWith("pps_").describe("Send as 'Authorization: Bearer <portalToken>'."),
  expiresAt: timestamp.describe("At most 30 minutes after the sign-in."),
  plan: portalPlan,
});

export const deletedPortalSession = z.strictObject({
  object: z.literal("portal_session"),
  deleted: z.literal(true),
});

const evidenceQuota = z.strictObject({ maxFiles: z.number().int(), maxBytes: z.number().int() });

export const portalReasons = z.strictObject({
  object: z.literal("list"),
  data: z
    .array(
      z.strictObject({
        code: z.string(),
        name: z.string(),
        description: z.string(),
        claimWindowFrom: z
          .enum(["delivery", "occurrence"])
          .describe(
            "What the 30 days count from: the carrier's recorded delivery of the order when it has one (else the day it happened), or the day it happened.",
          ),
      }),
    )
    .length(12),
  denialReasons: z
    .array(z.strictObject({ code: z.string(), message: z.string() }))
    .describe("The published reasons a claim is denied for, with the sentence the buyer reads."),
  claimWindowDays: z.literal(30),
  freeLookHours: z.literal(48),
  payout: z
    .strictObject({
      shopifyBusinessDays: z.number().int(),
      merchantDays: z.number().int(),
      bankBusinessDays: z.string(),
    })
    .describe(
      "Who pays an approved claim and by when: on a Shopify store the app refunds the original payment (or places the replacement order) within shopifyBusinessDays business days of the approval; on other carts the store does within merchantDays days. Banks take bankBusinessDays business days to show a refund.",
    ),
  evidence: z.strictObject({
    maxFiles: z.number().int(),
    maxFileBytes: z.number().int(),
    contentTypes: z.array(z.string()),
    quotas: z
      .strictObject({ claim: evidenceQuota, plan: evidenceQuota, session: evidenceQuota })
      .describe(
        "What a claim, a plan (all its claims together) and one portal session may hold in all, across every filing and message; past it 409 evidence_quota_exceeded.",
      ),
  }),
});
