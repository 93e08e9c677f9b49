import { describe, it } from "vitest";
import assert from "node:assert/strict";
import {
  CLAIM_WINDOW_DAYS,
  DEFAULT_CLAIM_RULES,
  claimRulesSchema,
  evaluateClaimRules,
  parseStoredClaimRules,
  type ClaimFacts,
  type ClaimRules,
} from "./claim-rules.ts";
import { DENIAL_REASONS } from "./claim-decisions.ts";
import type { OrderDeliveryState } from "../vocabulary/deliveries.ts";
import { describeDecisionFact, type DecisionFact } from "./decision-basis.ts";

const DAY = 24 * 60 * 60 * 1000;
const PURCHASED = Date.UTC(2026, 0, 10);

/** A claim every rule lets through to review: filed the day after what happened, within coverage, plan active. */
const facts = (overrides: Partial<ClaimFacts> = {}): ClaimFacts => ({
  reason: "lost_in_transit",
  amountCents: 2_000,
  currency: "USD",
  remainingCents: 5_000,
  planStatus: "active",
  planEndedAt: null,
  purchasedAt: PURCHASED,
  occurredAt: PURCHASED + 5 * DAY,
  filedAt: PURCHASED + 6 * DAY,
  deliveredAt: null,
  riskLevel: "low",
  delivery: { state: "not_shipped", overdue: false, deliveredAt: null },
  ...overrides,
});

const autoApproving: ClaimRules = {
  autoApprove: {
    maxAmountCentsByCurrency: { USD: 2_500 },
    reasons: ["lost_in_transit", "damaged_in_transit"],
    maxRiskLevel: "elevated",
  },
  replacementAllowed: false,
};

describe("evaluateClaimRules", () => {
  it("claim_window: denies a claim filed more than 30 days after what happened (outside_claim_window)", () => {
    const late = facts({ occurredAt: PURCHASED, filedAt: PURCHASED + CLAIM_WINDOW_DAYS * DAY + 1 });
    assert.deepEqual(evaluateClaimRules(autoApproving, late), {
      decision: "deny",
      ruleId: "claim_window",
      code: "outside_claim_window",
      basis: [{ fact: "filed_after_window", occurredAt: late.occurredAt, filedAt: late.filedAt }],
    });
    const lastDay = facts({ occurredAt: PURCHASED, filedAt: PURCHASED + CLAIM_WINDOW_DAYS * DAY });
    assert.equal(evaluateClaimRules(autoApproving, lastDay).decision, "approve");
  });

  it("claim_window: a reason about the parcel as it arrived counts its 30 days from the carrier's recorded delivery", () => {
    const deliveredAt = PURCHASED + 20 * DAY;
    const delivered = { state: "delivered", overdue: false, deliveredAt } as const;
    // The buyer typed the order's day: 40 days before filing, but 30 days after the delivery.
    const late = facts({ reason: "damaged_in_transit", delivery: delivered, occurredAt: PURCHASED });
    const lastDay = { ...late, filedAt: deliveredAt + CLAIM_WINDOW_DAYS * DAY };
    assert.equal(evaluateClaimRules(autoApproving, lastDay).decision, "approve");
    // A day after the window from the delivery: denied, and the basis names the delivery, whatever day was typed.
    const past = { ...lastDay, filedAt: lastDay.filedAt + 1, occurredAt: lastDay.filedAt - DAY };
    assert.deepEqual(evaluateClaimRules(autoApproving, past), {
      decision: "deny",
      ruleId: "claim_window",
      code: "outside_claim_window",
      basis: [{ fact: "filed_after_window", deliveredAt, filedAt: past.filedAt }],
    });
    // A delivery recorded on the order alone (no shipment kept) counts too; a parcel still out does not.
    const unshipped = { ...past, delivery: { state: "not_shipped", overdue: false, deliveredAt: null } as const };
    assert.equal(evaluateClaimRules(autoApproving, { ...unshipped, deliveredAt }).ruleId, "claim_window");
    assert.equal(evaluateClaimRules(autoApproving, unshipped).decision, "approve");
    const partly = { state: "in_transit", overdue: false, deliveredAt: null } as const;
    assert.equal(evaluateClaimRules(autoApproving, { ...past, delivery: partly, deliveredAt }).decision, "approve");
    // Reasons not about the arrived parcel keep the buyer's day.
    assert.notEqual(evaluateClaimRules(autoApproving, { ...past, reason: "lost_in_transit" }).ruleId, "claim_window");
  });

  it("plan_not_active: denies when the plan was voided or cancelled before the claim was filed", () => {
    for (const planStatus of ["voided", "cancelled"] as const) {
      const ended = facts({ planStatus, planEndedAt: PURCHASED + DAY });
      assert.deepEqual(evaluateClaimRules(autoApproving, ended), {
        decision: "deny",
        ruleId: "plan_not_active",
        code: "plan_not_active",
        basis: [{ fact: "plan_ended", endedAt: PURCHASED + DAY }],
      });
    }
  });

  it("amount_above_remaining: denies an amount above what is left of the coverage (amount_exceeds_coverage)", () => {
    assert.deepEqual(evaluateClaimRules(autoApproving, facts({ amountCents: 2_000, remainingCents: 1_999 })), {
      decision: "deny",
      ruleId: "amount_above_remaining",
      code: "amount_exceeds_coverage",
      basis: [{ fact: "amount_above_remaining", amountCents: 2_000, remainingCents: 1_999 }],
    });
    assert.equal(
      evaluateClaimRules(autoApproving, facts({ amountCents: 2_000, remainingCents: 2_000 })).decision,
      "approve",
    );
  });

  it("auto_approve: approves a chosen reason up to the program's amount", () => {
    assert.deepEqual(evaluateClaimRules(autoApproving, facts()), {
      decision: "approve",
      ruleId: "auto_approve",
      basis: [{ fact: "within_cover", amountCents: 2_000, remainingCents: 5_000 }, { fact: "no_delivery_recorded" }],
    });
    assert.deepEqual(evaluateClaimRules(autoApproving, facts({ reason: "damaged_in_transit", amountCents: 2_500 })), {
      decision: "approve",
      ruleId: "auto_approve",
      basis: [{ fact: "within_cover", amountCents: 2_500, remainingCents: 5_000 }],
    });
  });

  it("auto_approve: not above the amount, not for another reason, not without auto-approval", () => {
    const review = { decision: "review", ruleId: "review" };
    assert.deepEqual(evaluateClaimRules(autoApproving, facts({ amountCents: 2_501 })), review);
    assert.deepEqual(evaluateClaimRules(autoApproving, facts({ reason: "arrived_defective" })), review);
    assert.deepEqual(evaluateClaimRules(DEFAULT_CLAIM_RULES, facts()), review);
  });

  it("auto_approve: each currency up to its own amount, in its minor units; a currency without one goes to a person", () => {
    // About $25 in each: 2,500 cents, euro cents and pence, ¥3,750 (no minor unit), KWD 7.500 (7,500 fils).
    const limits = { USD: 2_500, EUR: 2_500, GBP: 2_500, JPY: 3_750, KWD: 7_500 };
    const rules: ClaimRules = {
      ...autoApproving,
      autoApprove: { ...autoApproving.autoApprove!, maxAmountCentsByCurrency: limits },
    };
    const plenty = { remainingCents: 1_000_000 };
    for (const [currency, limit] of Object.entries(limits)) {
      assert.equal(evaluateClaimRules(rules, facts({ currency, amountCents: limit, ...plenty })).decision, "approve");
      assert.deepEqual(evaluateClaimRules(rules, facts({ currency, amountCents: limit + 1, ...plenty })), {
        decision: "review",
        ruleId: "review",
      });
    }
    // ¥3,000 is within the yen's ¥3,750 though above the dollar's 2,500; KWD 3.000 within KWD 7.500.
    assert.equal(
      evaluateClaimRules(rules, facts({ currency: "JPY", amountCents: 3_000, ...plenty })).decision,
      "approve",
    );
    assert.equal(
      evaluateClaimRules(rules, facts({ currency: "KWD", amountCents: 3_000, ...plenty })).decision,
      "approve",
    );
    // The one amount no longer stands for every currency: a yen claim of ¥100 waits for a person under USD-only rules.
    for (const currency of ["JPY", "KWD", "CAD"])
      assert.deepEqual(evaluateClaimRules(autoApproving, facts({ currency, amountCents: 100 })), {
        decision: "review",
        ruleId: "review",
      });
  });

  it("auto_approve: a not-delivered reason is not approved once a delivery is recorded; others are", () => {
    const delivered = { deliveredAt: PURCHASED + 3 * DAY };
    const rules: ClaimRules = {
      autoApprove: {
        maxAmountCentsByCurrency: { USD: 2_500 },
        reasons: ["lost_in_transit", "not_delivered_by_promised_date_plus_14_days", "damaged_in_transit"],
        maxRiskLevel: "elevated",
      },
      replacementAllowed: false,
    };
    for (const reason of ["lost_in_transit", "not_delivered_by_promised_date_plus_14_days"]) {
      assert.equal(evaluateClaimRules(rules, facts({ reason })).decision, "approve");
      assert.deepEqual(evaluateClaimRules(rules, facts({ reason, ...delivered })), {
        decision: "review",
        ruleId: "review",
      });
    }
    assert.equal(evaluateClaimRules(rules, facts({ reason: "damaged_in_transit", ...delivered })).decision, "approve");
  });

  it("risk_review: a claim the rules would approve goes to a person when its risk is above the program's bar", () => {
    assert.equal(evaluateClaimRules(autoApproving, facts({ riskLevel: "elevated" })).decision, "approve");
    assert.deepEqual(evaluateClaimRules(autoApproving, facts({ riskLevel: "high" })), {
      decision: "review",
      ruleId: "risk_review",
    });
    const strict: ClaimRules = {
      ...autoApproving,
      autoApprove: { ...autoApproving.autoApprove!, maxRiskLevel: "low" },
    };
    assert.equal(evaluateClaimRules(strict, facts({ riskLevel: "low" })).decision, "approve");
    assert.deepEqual(evaluateClaimRules(strict, facts({ riskLevel: "elevated" })), {
      decision: "review",
      ruleId: "risk_review",
    });
  });

  it("risk never denies: a high-risk claim the rules would review or deny gets the same outcome as a low-risk one", () => {
    for (const input of [
      facts({ amountCents: 2_501 }),
      facts({ reason: "arrived_defective" }),
      facts({ remainingCents: 0 }),
      facts({ occurredAt: PURCHASED, filedAt: PURCHASED + 40 * DAY }),
    ])
      assert.deepEqual(
        evaluateClaimRules(autoApproving, { ...input, riskLevel: "high" }),
        evaluateClaimRules(autoApproving, { ...input, riskLevel: "low" }),
      );
  });

  it("delivery_review: where carriers reported shipments, each reason waits for the facts it rests on", () => {
    const rules: ClaimRules = {
      autoApprove: {
        maxAmountCentsByCurrency: { USD: 2_500 },
        reasons: [
          "lost_in_transit",
          "carrier_returned_to_sender",
          "not_delivered_by_promised_date_plus_14_days",
          "stolen_after_delivery",
          "damaged_in_transit",
        ],
        maxRiskLevel: "elevated",
      },
      replacementAllowed: false,
    };
    const outcome = (reason: string, state: OrderDeliveryState, extra: Partial<ClaimFacts> = {}) =>
      evaluateClaimRules(rules, facts({ reason, delivery: { state, overdue: false, deliveredAt: null }, ...extra }))
        .ruleId;
    // Lost: presumed lost, failed or returned; never while the parcel moves (or waits for its first scan).
    for (const state of ["stalled", "failed", "returned_to_sender"] as const)
      assert.equal(outcome("lost_in_transit", state), "auto_approve", state);
    for (const state of ["in_transit", "pending"] as const)
      assert.equal(outcome("lost_in_transit", state), "delivery_review", state);
    assert.equal(outcome("carrier_returned_to_sender", "returned_to_sender"), "auto_approve");
    assert.equal(outcome("carrier_returned_to_sender", "in_transit"), "delivery_review");
    // Late: only once 14 days past the promised date.
    assert.equal(outcome("not_delivered_by_promised_date_plus_14_days", "in_transit"), "delivery_review");
    assert.equal(
      evaluateClaimRules(
        rules,
        facts({
          reason: "not_delivered_by_promised_date_plus_14_days",
          delivery: { state: "in_transit", overdue: true, deliveredAt: null },
        }),
      ).ruleId,
      "auto_approve",
    );
    // Stolen after delivery needs a delivery, with or without shipment reports.
    assert.equal(outcome("stolen_after_delivery", "not_shipped"), "delivery_review");
    assert.equal(outcome("stolen_after_delivery", "delivered", { deliveredAt: PURCHASED + DAY }), "auto_approve");
    // Reasons the carriers cannot speak to, and orders without shipment reports, decide as before.
    assert.equal(outcome("damaged_in_transit", "in_transit"), "auto_approve");
    assert.equal(outcome("lost_in_transit", "not_shipped"), "auto_approve");
  });

  it("an approval names the carriers' fact it rested on; each fact reads as a sentence in the buyer's words", () => {
    const rules: ClaimRules = {
      autoApprove: {
        maxAmountCentsByCurrency: { USD: 2_500 },
        reasons: ["lost_in_transit", "stolen_after_delivery", "not_delivered_by_promised_date_plus_14_days"],
        maxRiskLevel: "elevated",
      },
      replacementAllowed: false,
    };
    const basisOf = (input: Partial<ClaimFacts>) => {
      const outcome = evaluateClaimRules(rules, facts(input));
      return outcome.decision === "review" ? [] : outcome.basis.slice(1);
    };
    assert.deepEqual(basisOf({ delivery: { state: "stalled", overdue: false, deliveredAt: null } }), [
      { fact: "delivery", state: "stalled", overdue: false },
    ]);
    assert.deepEqual(basisOf({ reason: "stolen_after_delivery", deliveredAt: PURCHASED + DAY }), [
      { fact: "delivered", at: PURCHASED + DAY },
    ]);
    assert.deepEqual(
      basisOf({
        reason: "not_delivered_by_promised_date_plus_14_days",
        delivery: { state: "in_transit", overdue: true, deliveredAt: null },
      }),
      [{ fact: "delivery", state: "in_transit", overdue: true }],
    );
    const sentences = [
      { fact: "within_cover", amountCents: 2_000, remainingCents: 5_000 },
      { fact: "delivery", state: "stalled", overdue: false },
      { fact: "delivery", state: "failed", overdue: false },
      { fact: "delivery", state: "in_transit", overdue: true },
      { fact: "delivered", at: PURCHASED + DAY },
      { fact: "no_delivery_recorded" },
      { fact: "filed_after_window", occurredAt: PURCHASED, filedAt: PURCHASED + 31 * DAY },
      { fact: "filed_after_window", deliveredAt: PURCHASED + DAY, filedAt: PURCHASED + 32 * DAY },
      { fact: "plan_ended", endedAt: PURCHASED + DAY },
      { fact: "amount_above_remaining", amountCents: 2_000, remainingCents: 1_999 },
    ].map((fact) => describeDecisionFact(fact as DecisionFact, "USD"));
    assert.deepEqual(sentences, [
      "You asked for $20.00, within the $50.00 your plan still covers.",
      "The carrier has reported no movement of your parcel for too long: it is presumed lost.",
      "The carrier reported that it could not deliver your parcel.",
      "Your parcel was not delivered within 14 days of the promised delivery date.",
      "The carrier recorded your parcel delivered on 11 January 2026.",
      "No delivery of your order has been recorded.",
      "You told us it happened on 10 January 2026, more than 30 days before the claim was filed on 10 February 2026.",
      "The carrier recorded your parcel delivered on 11 January 2026, more than 30 days before the claim was filed on 11 February 2026.",
      "Your protection ended on 11 January 2026, before the claim was filed.",
      "You asked for $20.00; your plan covers $19.99 more.",
    ]);
  });

  it("every denial's code is a published denial reason", () => {
    const published = DENIAL_REASONS.map((reason) => reason.code as string);
    const denials = [
      facts({ occurredAt: PURCHASED, filedAt: PURCHASED + 40 * DAY }),
      facts({ planStatus: "voided", planEndedAt: PURCHASED }),
      facts({ remainingCents: 0 }),
    ].map((input) => evaluateClaimRules(autoApproving, input));
    for (const outcome of denials) {
      assert.equal(outcome.decision, "deny");
      if (outcome.decision === "deny") assert.ok(published.includes(outcome.code), outcome.code);
    }
  });
});

describe("claimRulesSchema", () => {
  it('"{}" parses to the defaults: nothing decided on its own, no replacements', () => {
    assert.deepEqual(claimRulesSchema.parse({}), DEFAULT_CLAIM_RULES);
    assert.deepEqual(parseStoredClaimRules("{}"), DEFAULT_CLAIM_RULES);
  });

  it("refuses unknown reasons, unknown fields, repeated reasons, unknown currencies and amounts that are not positive integers", () => {
    const usd = { USD: 100 };
    const bad = [
      { autoApprove: { maxAmountCentsByCurrency: usd, reasons: ["lost_luggage"] } },
      { autoApprove: { maxAmountCentsByCurrency: usd, reasons: [] } },
      { autoApprove: { maxAmountCentsByCurrency: usd, reasons: ["lost_in_transit", "lost_in_transit"] } },
      { autoApprove: { maxAmountCentsByCurrency: { USD: 0 }, reasons: ["lost_in_transit"] } },
      { autoApprove: { maxAmountCentsByCurrency: { JPY: 10.5 }, reasons: ["lost_in_transit"] } },
      { autoApprove: { maxAmountCentsByCurrency: { KWD: 100_000_001 }, reasons: ["lost_in_transit"] } },
      // No currency, a currency not settled, or the one amount for every currency of old.
      { autoApprove: { maxAmountCentsByCurrency: {}, reasons: ["lost_in_transit"] } },
      { autoApprove: { maxAmountCentsByCurrency: { XAU: 100 }, reasons: ["lost_in_transit"] } },
      { autoApprove: { maxAmountCents: 100, reasons: ["lost_in_transit"] } },
      { replacementAllowed: "yes" },
      { autoApprove: null, surprise: true },
      { autoApprove: { maxAmountCentsByCurrency: usd, reasons: ["lost_in_transit"], maxRiskLevel: "high" } },
    ];
    for (const rules of bad) assert.equal(claimRulesSchema.safeParse(rules).success, false, JSON.stringify(rules));
  });

  it("stored rules that no longer parse decide nothing on their own", () => {
    assert.deepEqual(parseStoredClaimRules('{"autoApprove":{"maxAmountCents":-1,"reasons":[]}}'), DEFAULT_CLAIM_RULES);
  });
});
