// The Flow triggers' payloads against the trigger extensions' declared fields (extensions/flow-*/shopify.extension.toml),
// checked as Flow checks flowTriggerReceive (test/support/flow-triggers.ts): every event that starts a trigger sends
// exactly the declared fields with values of their types; every trigger the app starts has an extension; a claim's
// other updates start none; a payload that does not match is refused field by field.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { flowTriggerOf, type FlowTriggerHandle } from "../../app/shopify/flow-triggers.ts";
import type { Claim, Purchase } from "../../server/index.ts";
import { flowTriggerErrors, flowTriggerExtensions } from "../support/flow-triggers.ts";

const extensions = flowTriggerExtensions();

const plan = {
  id: "plan_01",
  object: "purchase",
  referenceNumber: "PP-2026-7K3M9Q2X",
  status: "active",
  orderId: "5000000123",
  orderStatus: "protected",
  quoteId: "quo_01",
  currency: "JPY",
  feeCents: 450,
  payer: "buyer",
  buyerFeeCents: 450,
  merchantFeeCents: 0,
  coveredAmountCents: 12_000,
  purchasedAt: "2026-11-27T10:00:00.000Z",
  freeLookEndsAt: "2026-11-29T10:00:00.000Z",
  createdAt: "2026-11-27T10:00:00.000Z",
  voidedAt: null,
  voidReason: null,
  cancelledAt: null,
  customerLocale: null,
  customerTimeZone: null,
  feeRefund: null,
  livemode: false,
} satisfies Purchase;

const claim = (status: Claim["status"], extra: Partial<Claim> = {}): Claim => ({
  id: "clm_01",
  object: "claim",
  planId: plan.id,
  number: 1,
  referenceNumber: plan.referenceNumber,
  orderId: plan.orderId,
  reason: "lost_in_transit",
  description: "Never came.",
  status,
  amountCents: 5_000,
  currency: "USD",
  occurredAt: "2026-11-27T10:00:00.000Z",
  decision: null,
  resolution: null,
  evidenceCount: 0,
  createdAt: "2026-11-27T11:00:00.000Z",
  updatedAt: "2026-11-27T11:00:00.000Z",
  livemode: false,
  ...extra,
});

const decision = {
  code: "approved",
  message: "Your claim is approved.",
  basis: [],
  decidedAt: "2026-11-27T12:00:00.000Z",
  decidedBy: "claims_team" as const,
  ruleId: null,
};

describe("Flow triggers", () => {
  const started: [string, unknown, FlowTriggerHandle][] = [
    ["protection.confirmed", plan, "protection-added"],
    ["protection.cancelled", { ...plan, status: "cancelled" }, "protection-cancelled"],
    ["claim.created", claim("submitted"), "claim-filed"],
    ["claim.updated", claim("approved", { decision }), "claim-decided"],
    ["claim.updated", claim("denied", { decision: { ...decision, code: "not_covered" } }), "claim-decided"],
    [
      "claim.updated",
      claim("paid", {
        decision,
        resolution: {
          remedy: "refund",
          amountCents: 4_250,
          currency: "USD",
          status: "done",
          channel: "shopify",
          reference: "gid://shopify/Refund/1",
          resolvedAt: "2026-11-27T13:00:00.000Z",
          error: null,
        },
      }),
      "claim-paid",
    ],
  ];

  it("each event's payload is exactly its trigger's declared fields, with values of their types", () => {
    for (const [type, data, handle] of started) {
      const trigger = flowTriggerOf(type as never, data);
      assert.equal(trigger?.handle, handle, type);
      assert.deepEqual(flowTriggerErrors(extensions, handle, trigger!.payload), [], `${type} → ${handle}`);
      assert.equal(trigger!.payload.order_id, 5_000_000_123);
    }
    const paid = flowTriggerOf("claim.updated", started[5][1])!;
    assert.deepEqual([paid.payload["Paid amount"], paid.payload["Paid as"]], [42.5, "refund"]);
    // Amounts in the currency's unit: JPY has no minor unit.
    assert.equal(flowTriggerOf("protection.confirmed", plan)!.payload["Protection fee"], 450);
  });

  it("every trigger the app starts has an extension, and every flow_trigger extension is started", () => {
    assert.deepEqual([...extensions.keys()].sort(), [...new Set(started.map(([, , handle]) => handle))].sort());
  });

  it("a claim's other updates and other events start no trigger", () => {
    for (const status of ["submitted", "under_review", "needs_information"] as const)
      assert.equal(flowTriggerOf("claim.updated", claim(status)), undefined, status);
    assert.equal(flowTriggerOf("protection.voided", plan), undefined);
    assert.equal(flowTriggerOf("protection.updated", plan), undefined);
  });

  it("Flow refuses a payload that does not match: unknown trigger, missing field, wrong type, undeclared key", () => {
    const payload = flowTriggerOf("protection.confirmed", plan)!.payload;
    assert.deepEqual(flowTriggerErrors(extensions, "protection-renewed", payload), [
      "Trigger 'protection-renewed' does not exist",
    ]);
    const { Currency: _currency, ...missing } = payload;
    assert.deepEqual(flowTriggerErrors(extensions, "protection-added", missing), ["'Currency' is required"]);
    assert.deepEqual(flowTriggerErrors(extensions, "protection-added", { ...payload, "Protection fee": "4.50" }), [
      "'Protection fee' is not a valid number_decimal",
    ]);
    assert.deepEqual(flowTriggerErrors(extensions, "protection-added", { ...payload, order_id: "5000000123" }), [
      "'order_id' is not a valid order_reference",
    ]);
    assert.deepEqual(flowTriggerErrors(extensions, "protection-added", { ...payload, Note: "x" }), [
      "'Note' is not a field of 'protection-added'",
    ]);
  });
});
