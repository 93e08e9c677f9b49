// A buyer e-mail's plan and claim as the worker reads them (server/store/emails.ts), for the tests that render the
// templates without a database: an active plan bought two days before NOW and a claim filed the day before, each test
// overriding what it tells apart.
import type { EmailClaim, EmailPlan } from "../../server/store/emails.ts";

/** Friday 27 Nov 2026, 14:05 UTC. */
export const NOW = Date.UTC(2026, 10, 27, 14, 5);
export const DAY = 24 * 60 * 60 * 1000;
export const SAMPLE_REFERENCE = "CLM-2026-7K3M9Q2X";

export const samplePlan = (overrides: Partial<EmailPlan> = {}): EmailPlan => ({
  referenceNumber: SAMPLE_REFERENCE,
  orderId: "gid-5550123",
  orderName: "#1001",
  status: "active",
  currency: "USD",
  payer: "buyer",
  buyerFeeCents: 370,
  coveredAmountCents: 12_999,
  purchasedAt: NOW - 2 * DAY,
  freeLookEndsAt: NOW,
  cancelledAt: null,
  hasBuyerEmail: true,
  merchantName: "Harbour Lane Ceramics & Co.",
  refundChannel: "merchant",
  feeRefundChannel: "merchant",
  ...overrides,
});

export const sampleClaim = (overrides: Partial<EmailClaim> = {}): EmailClaim => ({
  id: "clm_01m81b5h80k2x0n4q3ycz7rd",
  planId: "plan_01m81b5h80k2x0n4q3ycz7rd",
  number: 2,
  reason: "damaged_in_transit",
  description: "The parcel arrived crushed.",
  status: "submitted",
  amountCents: 12_999,
  currency: "USD",
  occurredAt: NOW - 3 * DAY,
  decisionCode: null,
  decisionMessage: null,
  decidedAt: null,
  decisionNote: null,
  remedy: null,
  paidAmountCents: 0,
  resolution: null,
  resolvedAt: null,
  createdAt: NOW - DAY,
  latestRequest: null,
  ...overrides,
});
