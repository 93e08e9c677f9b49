// A program's claim rules: what the service decides on its own when a claim is filed. The rules are data on the
// program (protection_programs.claim_rules, JSON); evaluateClaimRules is pure — the caller gathers the facts — and
// names the rule that decided, which the claim records (claims.decided_by "rule:<rule id>").
import { z } from "zod";
import { CLAIM_WINDOW_DAYS, COVERED_REASONS } from "./disclosure.ts";
import { RISK_LEVELS, type CoveredReason, type RiskLevel } from "../vocabulary/claims.ts";
import { SUPPORTED_CURRENCIES } from "../vocabulary/money.ts";
import type { OrderDeliveryState } from "../vocabulary/deliveries.ts";
import { DAY_MS } from "../vocabulary/time.ts";
import { orderDeliveredAt, type DerivedOrderDelivery } from "./delivery-states.ts";
import type { DecisionFact } from "./decision-basis.ts";

export type { CoveredReason };

/** The reasons that mean the parcel never arrived: auto-approved only while no delivery is recorded. */
export const NOT_DELIVERED_REASONS: readonly CoveredReason[] = [
  "lost_in_transit",
  "not_delivered_by_promised_date_plus_14_days",
];

export { CLAIM_WINDOW_DAYS };
/** A claim may be filed at most this long after what it is about happened (the rulebook's window). */
export const CLAIM_WINDOW_MS = CLAIM_WINDOW_DAYS * DAY_MS;

/**
 * The reasons about the parcel as it arrived (or, stolen, was left): what they are about happened at its delivery. The
 * rulebook gives 30 days from the event, so where a carrier recorded the delivery their window counts from it, for
 * every program alike — a scan dates the event better than the buyer's memory, in both directions (a buyer who typed
 * the order's day is not refused; a date typed long after the delivery does not stretch the window). A per-program
 * "from the order" would count from before the event and cut the published 30 days short, so it is no option.
 */
export const DELIVERY_WINDOW_REASONS: readonly CoveredReason[] = [
  "stolen_after_delivery",
  "damaged_in_transit",
  "arrived_defective",
  "wrong_item_delivered",
  "missing_items",
];

export interface ClaimWindow {
  /** What the window counts from: the carrier's recorded delivery, or the day the buyer says it happened. */
  from: "delivery" | "occurrence";
  startsAt: number;
  /** The last moment a claim may be filed (epoch ms UTC). */
  endsAt: number;
}

/**
 * A claim's window: from the order's delivery (orderDeliveredAt) for DELIVERY_WINDOW_REASONS when one is recorded,
 * else from when the buyer says it happened. Filing (fileClaim) and the claim_window rule both read it.
 */
export function claimWindowOf(reason: string, occurredAt: number, orderDeliveredAt: number | null): ClaimWindow {
  const fromDelivery = orderDeliveredAt !== null && (DELIVERY_WINDOW_REASONS as readonly string[]).includes(reason);
  const startsAt = fromDelivery ? orderDeliveredAt : occurredAt;
  return { from: fromDelivery ? "delivery" : "occurrence", startsAt, endsAt: startsAt + CLAIM_WINDOW_MS };
}

export const claimRulesSchema = z
  .object({
    /**
     * Approve without review: claims for these reasons asking at most their currency's amount. null: every claim is
     * reviewed.
     */
    autoApprove: z
      .object({
        /**
         * The most a claim is approved for without review in each currency, in that currency's minor units (2,500 is
         * $25.00, ¥2,500, KWD 2.500): one number cannot mean the same sum in every currency. A claim in a currency
         * without an amount goes to a person.
         */
        maxAmountCentsByCurrency: z
          .partialRecord(z.enum(SUPPORTED_CURRENCIES), z.number().int().min(1).max(100_000_000))
          .refine((amounts) => Object.keys(amounts).length > 0, "an amount in at least one currency"),
        reasons: z
          .array(z.enum(COVERED_REASONS))
          .min(1)
          .refine((reasons) => new Set(reasons).size === reasons.length, "each reason at most once"),
        /** The riskiest claim still approved without review (claim-risk.ts); a "high" one always goes to a person. */
        maxRiskLevel: z.enum(["low", "elevated"]).default("elevated"),
      })
      .strict()
      .nullable()
      .default(null),
    /** An approved claim may be resolved with a replacement (a reship) instead of a refund. */
    replacementAllowed: z.boolean().default(false),
  })
  .strict();

export type ClaimRules = z.output<typeof claimRulesSchema>;
/** Rules as a merchant writes them: what has a default may be left out. */
export type ClaimRulesInput = z.input<typeof claimRulesSchema>;

export const DEFAULT_CLAIM_RULES: ClaimRules = { autoApprove: null, replacementAllowed: false };

/** The rules stored on a program; a program whose JSON no longer parses decides nothing on its own. */
export function parseStoredClaimRules(json: string): ClaimRules {
  const parsed = claimRulesSchema.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : DEFAULT_CLAIM_RULES;
}

/** What the rules look at, all times epoch ms UTC. */
export interface ClaimFacts {
  reason: string;
  /** In the minor units of `currency`, the claim's (its plan's). */
  amountCents: number;
  currency: string;
  /** The plan's covered amount less what its claims were paid and what its other approved claims are owed. */
  remainingCents: number;
  planStatus: "active" | "voided" | "cancelled";
  /** When the plan was voided or cancelled; null while it is active. */
  planEndedAt: number | null;
  purchasedAt: number;
  occurredAt: number;
  filedAt: number;
  /** When the carrier reported the order delivered; null: no delivery recorded. */
  deliveredAt: number | null;
  /** The claim's risk level when it was filed (claim-risk.ts). */
  riskLevel: RiskLevel;
  /** What the order's shipments say now (delivery-states.ts); `not_shipped`: no shipment was reported. */
  delivery: DerivedOrderDelivery;
}

/** A decision names the facts it rested on (decision-basis.ts), which the buyer and the claims team read. */
export type RuleOutcome =
  | { decision: "deny"; ruleId: RuleId; code: string; basis: DecisionFact[] }
  | { decision: "approve"; ruleId: RuleId; basis: DecisionFact[] }
  | { decision: "review"; ruleId: "review" | "risk_review" | "delivery_review" };

export const RULE_IDS = [
  "claim_window",
  "plan_not_active",
  "amount_above_remaining",
  "auto_approve",
  "delivery_review",
  "risk_review",
  "review",
] as const;
export type RuleId = (typeof RULE_IDS)[number];

const OVERDUE = "not_delivered_by_promised_date_plus_14_days";

/** The carriers' word each reason needs before it is approved without review (docs/api.md "Claim decisions"). */
/** The order delivery states a "lost in transit" claim rests on: presumed lost, failed or returned. */
export const LOST_PARCEL_STATES: readonly OrderDeliveryState[] = ["stalled", "failed", "returned_to_sender"];

const DELIVERY_NEEDED: Partial<Record<string, readonly OrderDeliveryState[]>> = {
  lost_in_transit: LOST_PARCEL_STATES,
  carrier_returned_to_sender: ["returned_to_sender"],
};

function deliverySupports(reason: string, delivery: ClaimFacts["delivery"], deliveredAt: number | null): boolean {
  // Stolen after delivery: only a delivered parcel can be; with no delivery recorded a person looks.
  if (reason === "stolen_after_delivery") return deliveredAt !== null;
  if (delivery.state === "not_shipped") return true;
  if (reason === OVERDUE) return delivery.overdue;
  return DELIVERY_NEEDED[reason]?.includes(delivery.state) ?? true;
}

/** What an approval rests on: the amount within the cover, and the delivery fact the reason needed. */
function approvalBasis(facts: ClaimFacts): DecisionFact[] {
  const basis: DecisionFact[] = [
    { fact: "within_cover", amountCents: facts.amountCents, remainingCents: facts.remainingCents },
  ];
  if (facts.reason === "stolen_after_delivery" && facts.deliveredAt !== null)
    basis.push({ fact: "delivered", at: facts.deliveredAt });
  else if (facts.delivery.state !== "not_shipped" && (facts.reason in DELIVERY_NEEDED || facts.reason === OVERDUE))
    basis.push({ fact: "delivery", state: facts.delivery.state, overdue: facts.delivery.overdue });
  else if ((NOT_DELIVERED_REASONS as readonly string[]).includes(facts.reason))
    basis.push({ fact: "no_delivery_recorded" });
  return basis;
}

/** The most a claim in `currency` is approved for without review; null: no amount in that currency, a person decides. */
function autoApproveLimit(autoApprove: NonNullable<ClaimRules["autoApprove"]>, currency: string): number | null {
  const amounts: Partial<Record<string, number>> = autoApprove.maxAmountCentsByCurrency;
  return Object.hasOwn(amounts, currency) ? amounts[currency]! : null;
}

/**
 * The first rule that decides, in order: the three exclusions of the rulebook (denials), then auto-approval unless the
 * carriers' reports do not bear the claim out ("delivery_review") or its risk is above the program's bar
 * ("risk_review"); anything else waits for the claims team ("review").
 */
export function evaluateClaimRules(rules: ClaimRules, facts: ClaimFacts): RuleOutcome {
  const window = claimWindowOf(facts.reason, facts.occurredAt, orderDeliveredAt(facts.delivery, facts.deliveredAt));
  if (facts.filedAt > window.endsAt)
    return {
      decision: "deny",
      ruleId: "claim_window",
      code: "outside_claim_window",
      basis: [
        window.from === "delivery"
          ? { fact: "filed_after_window", deliveredAt: window.startsAt, filedAt: facts.filedAt }
          : { fact: "filed_after_window", occurredAt: facts.occurredAt, filedAt: facts.filedAt },
      ],
    };
  // Coverage ended (voided or cancelled) before what happened, or before the claim was filed.
  if (facts.planStatus !== "active" && facts.planEndedAt !== null && facts.planEndedAt <= facts.filedAt)
    return {
      decision: "deny",
      ruleId: "plan_not_active",
      code: "plan_not_active",
      basis: [{ fact: "plan_ended", endedAt: facts.planEndedAt }],
    };
  if (facts.amountCents > facts.remainingCents)
    return {
      decision: "deny",
      ruleId: "amount_above_remaining",
      code: "amount_exceeds_coverage",
      basis: [{ fact: "amount_above_remaining", amountCents: facts.amountCents, remainingCents: facts.remainingCents }],
    };
  const auto = rules.autoApprove;
  const limit = auto ? autoApproveLimit(auto, facts.currency) : null;
  if (
    auto &&
    limit !== null &&
    (auto.reasons as readonly string[]).includes(facts.reason) &&
    facts.amountCents <= limit &&
    !((NOT_DELIVERED_REASONS as readonly string[]).includes(facts.reason) && facts.deliveredAt !== null)
  ) {
    // Where carriers reported the order's shipments, the approval rests on what they say; else on the claim alone.
    if (!deliverySupports(facts.reason, facts.delivery, facts.deliveredAt))
      return { decision: "review", ruleId: "delivery_review" };
    // Risk never denies: a claim the rules would approve but whose risk is above the program's bar goes to a person.
    if (RISK_LEVELS.indexOf(facts.riskLevel) > RISK_LEVELS.indexOf(auto.maxRiskLevel))
      return { decision: "review", ruleId: "risk_review" };
    return { decision: "approve", ruleId: "auto_approve", basis: approvalBasis(facts) };
  }
  return { decision: "review", ruleId: "review" };
}
