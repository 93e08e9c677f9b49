// A claim's risk: named fraud signals from facts the caller gathers (the buyer's other claims across the service, by
// the keyed hashes of their e-mail and shipping address; photos seen on other claims; the carrier's delivery scan; the
// amount asked; Shopify's own risk assessment of the order), each with a weight, and a level. Pure: recomputed whenever a fact changes. A risky claim goes to a person, who sees each
// signal and what it means; risk alone never denies (claim-rules.ts).
import { NOT_DELIVERED_REASONS } from "./claim-rules.ts";
import type { RiskLevel } from "../vocabulary/claims.ts";
import type { OrderRisk } from "../vocabulary/orders.ts";

/** Scores from these up are the level (the score is the signals' weights added, at most 100). */
export const RISK_LEVEL_FROM = { elevated: 25, high: 60 } as const;

/** Photos whose perceptual hashes differ in at most this many of 256 bits show the same picture. */
export const NEAR_PHOTO_MAX_BITS = 12;
/** "Soon" after a delivery scan, for a claim that says the parcel never reached the buyer. */
export const SOON_AFTER_DELIVERY_MS = 2 * 60 * 60 * 1000;

/** Claims that say the parcel never reached the buyer. */
const NEVER_ARRIVED: readonly string[] = [...NOT_DELIVERED_REASONS, "stolen_after_delivery"];

export interface PhotoMatch {
  /** exact: the same bytes (SHA-256 after the metadata were stripped); near: perceptual hashes a few bits apart. */
  kind: "exact" | "near";
  /** Bits apart (0 for exact). */
  distance: number;
  /** Whether the other claim is with the same store. */
  sameMerchant: boolean;
}

export interface ClaimRiskFacts {
  reason: string;
  amountCents: number;
  /** What the plan covers. */
  coveredAmountCents: number;
  filedAt: number;
  /** The carrier's delivery scan; null: none recorded. */
  deliveredAt: number | null;
  /**
   * The buyer's other claims with any store, by the keyed hash of their e-mail or of their shipping address; byEmail
   * and byAddress: how many of the last 365 days' each hash found. null: neither on the plan.
   */
  otherClaims: { last7Days: number; last365Days: number; byEmail: number; byAddress: number } | null;
  /** The best match of each of the claim's photos among other claims' photos. */
  photoMatches: readonly PhotoMatch[];
  /** Shopify's own risk assessment of the order; null: none read (not a Shopify order, or not read yet). */
  orderRisk: OrderRisk | null;
}

/** Which of the buyer's identifiers found their other claims. */
export type BuyerMatch = "email" | "address";

export type RiskSignal =
  | { name: "duplicate_photo"; weight: number; match: "exact" | "near"; distance: number; sameMerchant: boolean }
  /** matchedBy: absent on assessments made before addresses were hashed (the e-mail alone then). */
  | { name: "repeat_claimant"; weight: number; claims: number; matchedBy?: BuyerMatch[] }
  | { name: "claim_velocity"; weight: number; claims: number }
  | { name: "filed_soon_after_delivery"; weight: number; minutes: number }
  | { name: "whole_order_for_missing_items"; weight: number }
  | {
      name: "shopify_order_risk";
      weight: number;
      level: "high" | "medium";
      recommendation: OrderRisk["recommendation"];
      reasons: string[];
    };

/**
 * What Shopify's order risk levels weigh: high is Shopify's own "likely fraud" (a person looks, alone); medium is some
 * doubt (a person looks with another signal). Low, none and pending say nothing against the claim.
 */
const ORDER_RISK_WEIGHT: Partial<Record<OrderRisk["level"], number>> = { high: RISK_LEVEL_FROM.high, medium: 20 };

export interface ClaimRisk {
  score: number;
  level: RiskLevel;
  signals: RiskSignal[];
}

export function assessClaimRisk(facts: ClaimRiskFacts): ClaimRisk {
  const signals: RiskSignal[] = [];
  const photo = [...facts.photoMatches].sort((a, b) => a.distance - b.distance)[0];
  if (photo)
    signals.push({
      name: "duplicate_photo",
      // The same bytes are the same photo: enough alone for a person to look.
      weight: photo.kind === "exact" ? RISK_LEVEL_FROM.high : 45,
      match: photo.kind,
      distance: photo.distance,
      sameMerchant: photo.sameMerchant,
    });
  const history = facts.otherClaims;
  if (history && history.last365Days >= 2)
    signals.push({
      name: "repeat_claimant",
      weight: history.last365Days >= 5 ? 40 : 20,
      claims: history.last365Days,
      matchedBy: [
        ...(history.byEmail > 0 ? (["email"] as const) : []),
        ...(history.byAddress > 0 ? (["address"] as const) : []),
      ],
    });
  if (history && history.last7Days >= 2)
    signals.push({ name: "claim_velocity", weight: 30, claims: history.last7Days });
  if (
    NEVER_ARRIVED.includes(facts.reason) &&
    facts.deliveredAt !== null &&
    facts.filedAt >= facts.deliveredAt &&
    facts.filedAt - facts.deliveredAt <= SOON_AFTER_DELIVERY_MS
  )
    signals.push({
      name: "filed_soon_after_delivery",
      weight: 20,
      minutes: Math.floor((facts.filedAt - facts.deliveredAt) / 60_000),
    });
  // Missing items are some of an order's items: a claim for the whole of it says otherwise.
  if (facts.reason === "missing_items" && facts.amountCents >= facts.coveredAmountCents)
    signals.push({ name: "whole_order_for_missing_items", weight: 15 });
  const orderRisk = facts.orderRisk;
  const orderRiskWeight = orderRisk && ORDER_RISK_WEIGHT[orderRisk.level];
  if (orderRisk && orderRiskWeight)
    signals.push({
      name: "shopify_order_risk",
      weight: orderRiskWeight,
      level: orderRisk.level === "high" ? "high" : "medium",
      recommendation: orderRisk.recommendation,
      reasons: orderRisk.reasons,
    });
  const score = Math.min(
    100,
    signals.reduce((sum, signal) => sum + signal.weight, 0),
  );
  const level: RiskLevel =
    score >= RISK_LEVEL_FROM.high ? "high" : score >= RISK_LEVEL_FROM.elevated ? "elevated" : "low";
  return { score, level, signals };
}

/** What a signal means, for the claims team (console) — never shown to the buyer. */
export function describeRiskSignal(signal: RiskSignal): string {
  switch (signal.name) {
    case "duplicate_photo":
      return signal.match === "exact"
        ? `A photo sent with this claim is the same file as one sent with another claim${signal.sameMerchant ? " to this store" : " to another store"}.`
        : `A photo sent with this claim shows nearly the same picture as one sent with another claim${signal.sameMerchant ? " to this store" : " to another store"} (${signal.distance} of 256 bits differ).`;
    case "repeat_claimant":
      return `The buyer filed ${signal.claims} other claims in the last 12 months, with any store using the service (${BY_MATCH[matchKey(signal.matchedBy)]}).`;
    case "claim_velocity":
      return `The buyer filed ${signal.claims} other claims in the last 7 days.`;
    case "filed_soon_after_delivery":
      return `Filed ${signal.minutes} minutes after the carrier scanned the parcel delivered, for a parcel the buyer says never reached them.`;
    case "whole_order_for_missing_items":
      return "Asks for the whole order's value for missing items, which are some of an order's items.";
    case "shopify_order_risk":
      return `Shopify assessed the order's risk as ${signal.level}${signal.recommendation === "none" ? "" : ` and recommends to ${signal.recommendation} it`}${signal.reasons.length > 0 ? `: ${signal.reasons.join("; ")}` : ""}.`;
  }
}

const BY_MATCH = {
  email: "found by the same e-mail address",
  address: "found by the same shipping address under another e-mail",
  both: "found by the same e-mail address and by the same shipping address",
} as const;

/** Which words say what found the buyer's claims; an assessment from before addresses were hashed used the e-mail. */
function matchKey(matchedBy: readonly BuyerMatch[] | undefined): keyof typeof BY_MATCH {
  const by = matchedBy ?? ["email"];
  if (by.includes("email") && by.includes("address")) return "both";
  return by.includes("address") ? "address" : "email";
}
