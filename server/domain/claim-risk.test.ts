import { describe, it } from "vitest";
import assert from "node:assert/strict";
import {
  assessClaimRisk,
  describeRiskSignal,
  RISK_LEVEL_FROM,
  SOON_AFTER_DELIVERY_MS,
  type ClaimRiskFacts,
} from "./claim-risk.ts";

const FILED = Date.UTC(2026, 5, 1, 12);

/** The buyer's other claims, found by e-mail unless `byAddress` of them were found by the shipping address alone. */
const history = (last7Days: number, last365Days: number, byAddress = 0) => ({
  last7Days,
  last365Days,
  byEmail: last365Days - byAddress,
  byAddress,
});

/** A claim with nothing against it. */
const facts = (overrides: Partial<ClaimRiskFacts> = {}): ClaimRiskFacts => ({
  reason: "damaged_in_transit",
  amountCents: 2_000,
  coveredAmountCents: 5_000,
  filedAt: FILED,
  deliveredAt: null,
  otherClaims: history(0, 0),
  photoMatches: [],
  orderRisk: null,
  ...overrides,
});
const names = (input: ClaimRiskFacts) => assessClaimRisk(input).signals.map((signal) => signal.name);

describe("assessClaimRisk", () => {
  it("a claim with nothing against it is low, with no signal", () => {
    assert.deepEqual(assessClaimRisk(facts()), { score: 0, level: "low", signals: [] });
    assert.deepEqual(assessClaimRisk(facts({ otherClaims: null })).signals, []);
  });

  it("duplicate_photo: the same file on another claim is high alone; a near-same picture is elevated", () => {
    const exact = assessClaimRisk(facts({ photoMatches: [{ kind: "exact", distance: 0, sameMerchant: false }] }));
    assert.equal(exact.level, "high");
    assert.deepEqual(exact.signals[0], {
      name: "duplicate_photo",
      weight: RISK_LEVEL_FROM.high,
      match: "exact",
      distance: 0,
      sameMerchant: false,
    });
    const near = assessClaimRisk(
      facts({
        photoMatches: [
          { kind: "near", distance: 9, sameMerchant: true },
          { kind: "near", distance: 4, sameMerchant: false },
        ],
      }),
    );
    assert.equal(near.level, "elevated");
    assert.equal(near.signals.length, 1, "one signal for the photos, the closest match");
    assert.equal(near.signals[0].name === "duplicate_photo" && near.signals[0].distance, 4);
  });

  it("repeat_claimant: from 2 other claims in 12 months, heavier from 5; claim_velocity: from 2 in 7 days", () => {
    assert.deepEqual(names(facts({ otherClaims: history(0, 1) })), []);
    assert.deepEqual(names(facts({ otherClaims: history(0, 2) })), ["repeat_claimant"]);
    assert.equal(assessClaimRisk(facts({ otherClaims: history(0, 5) })).score, 40);
    assert.deepEqual(names(facts({ otherClaims: history(1, 1) })), []);
    const both = assessClaimRisk(facts({ otherClaims: history(2, 2) }));
    assert.deepEqual(
      both.signals.map((signal) => signal.name),
      ["repeat_claimant", "claim_velocity"],
    );
    assert.equal(both.level, "elevated");
  });

  it("repeat_claimant says which of the buyer's hashes found the claims: e-mail, address, or both", () => {
    const matchedBy = (input: ClaimRiskFacts) => {
      const signal = assessClaimRisk(input).signals.find((candidate) => candidate.name === "repeat_claimant");
      return signal?.name === "repeat_claimant" ? signal.matchedBy : undefined;
    };
    assert.deepEqual(matchedBy(facts({ otherClaims: history(0, 2) })), ["email"]);
    // A buyer who changed e-mail but ships to the same door.
    assert.deepEqual(matchedBy(facts({ otherClaims: history(0, 2, 2) })), ["address"]);
    assert.deepEqual(matchedBy(facts({ otherClaims: { last7Days: 0, last365Days: 3, byEmail: 2, byAddress: 2 } })), [
      "email",
      "address",
    ]);
    const described = (byEmail: number, byAddress: number) =>
      describeRiskSignal(
        assessClaimRisk(facts({ otherClaims: { last7Days: 0, last365Days: 2, byEmail, byAddress } })).signals[0],
      );
    assert.match(described(0, 2), /\(found by the same shipping address under another e-mail\)\.$/);
    assert.match(described(2, 1), /\(found by the same e-mail address and by the same shipping address\)\.$/);
    // An assessment kept before addresses were hashed: its claims were found by e-mail.
    assert.match(
      describeRiskSignal({ name: "repeat_claimant", weight: 20, claims: 2 }),
      /\(found by the same e-mail address\)\.$/,
    );
  });

  it("shopify_order_risk: Shopify's high risk is high alone, medium weighs some; low, none and pending nothing", () => {
    const risk = (level: "high" | "medium" | "low" | "none" | "pending") =>
      assessClaimRisk(
        facts({
          orderRisk: {
            level,
            recommendation: level === "high" ? "cancel" : "accept",
            reasons: ["Card verification (CVV) failed"],
          },
        }),
      );
    const high = risk("high");
    assert.equal(high.level, "high");
    assert.deepEqual(high.signals, [
      {
        name: "shopify_order_risk",
        weight: RISK_LEVEL_FROM.high,
        level: "high",
        recommendation: "cancel",
        reasons: ["Card verification (CVV) failed"],
      },
    ]);
    assert.equal(
      describeRiskSignal(high.signals[0]),
      "Shopify assessed the order's risk as high and recommends to cancel it: Card verification (CVV) failed.",
    );
    const medium = risk("medium");
    assert.deepEqual([medium.score, medium.level], [20, "low"]);
    assert.deepEqual(names(facts({ orderRisk: { level: "medium", recommendation: "investigate", reasons: [] } })), [
      "shopify_order_risk",
    ]);
    for (const level of ["low", "none", "pending"] as const) assert.deepEqual(risk(level).signals, [], level);
  });

  it("filed_soon_after_delivery: a never-arrived claim within 2 hours after the delivery scan; not other reasons", () => {
    const scanned = FILED - SOON_AFTER_DELIVERY_MS;
    for (const reason of ["lost_in_transit", "stolen_after_delivery", "not_delivered_by_promised_date_plus_14_days"])
      assert.deepEqual(names(facts({ reason, deliveredAt: scanned })), ["filed_soon_after_delivery"], reason);
    assert.deepEqual(names(facts({ reason: "lost_in_transit", deliveredAt: scanned - 1 })), []);
    assert.deepEqual(names(facts({ reason: "damaged_in_transit", deliveredAt: FILED - 60_000 })), []);
    assert.deepEqual(names(facts({ reason: "lost_in_transit", deliveredAt: FILED + 60_000 })), [], "scan after filing");
  });

  it("whole_order_for_missing_items: missing items asking for the whole covered amount", () => {
    assert.deepEqual(names(facts({ reason: "missing_items", amountCents: 5_000 })), ["whole_order_for_missing_items"]);
    assert.deepEqual(names(facts({ reason: "missing_items", amountCents: 4_999 })), []);
    assert.deepEqual(names(facts({ reason: "lost_in_transit", amountCents: 5_000 })), []);
  });

  it("adds the weights up to at most 100 and names the level from the score", () => {
    const all = assessClaimRisk(
      facts({
        reason: "missing_items",
        amountCents: 5_000,
        otherClaims: history(6, 6),
        photoMatches: [{ kind: "exact", distance: 0, sameMerchant: true }],
      }),
    );
    assert.equal(all.score, 100);
    assert.equal(all.level, "high");
    assert.equal(assessClaimRisk(facts({ reason: "missing_items", amountCents: 5_000 })).level, "low");
  });

  it("says what each signal means, for the claims team", () => {
    const every = assessClaimRisk(
      facts({
        reason: "stolen_after_delivery",
        deliveredAt: FILED - 30 * 60_000,
        otherClaims: history(3, 4),
        photoMatches: [{ kind: "near", distance: 5, sameMerchant: false }],
      }),
    ).signals.map(describeRiskSignal);
    assert.deepEqual(every, [
      "A photo sent with this claim shows nearly the same picture as one sent with another claim to another store (5 of 256 bits differ).",
      "The buyer filed 4 other claims in the last 12 months, with any store using the service (found by the same e-mail address).",
      "The buyer filed 3 other claims in the last 7 days.",
      "Filed 30 minutes after the carrier scanned the parcel delivered, for a parcel the buyer says never reached them.",
    ]);
  });
});
