// What an automatic decision rested on (issue 31): the facts the claim rules used, kept with the decision
// (claims.decision_basis, JSON) and read back as sentences in the buyer's words — the portal shows them under the
// decision, the claims team's console beside it. A person's decision has none: its note and sentence say why.
import { formatMoneyEnUs as money } from "@purchase-protection/contract";
import type { OrderDeliveryState } from "../vocabulary/deliveries.ts";
import { CLAIM_WINDOW_DAYS } from "./disclosure.ts";

export type DecisionFact =
  | { fact: "within_cover"; amountCents: number; remainingCents: number }
  | { fact: "no_delivery_recorded" }
  | { fact: "delivered"; at: number }
  | { fact: "delivery"; state: OrderDeliveryState; overdue: boolean }
  | { fact: "filed_after_window"; occurredAt: number; filedAt: number }
  /** The window counted from the carrier's recorded delivery (claim-rules.ts claimWindowOf). */
  | { fact: "filed_after_window"; deliveredAt: number; filedAt: number }
  | { fact: "plan_ended"; endedAt: number }
  | { fact: "amount_above_remaining"; amountCents: number; remainingCents: number };

/** "27 November 2026": a UTC day, as the e-mails write dates. */
const day = (ms: number) =>
  new Date(ms).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

const DELIVERY_SENTENCES: Partial<Record<OrderDeliveryState, string>> = {
  stalled: "The carrier has reported no movement of your parcel for too long: it is presumed lost.",
  failed: "The carrier reported that it could not deliver your parcel.",
  returned_to_sender: "The carrier reported your parcel returned to the sender.",
  delivered: "The carrier reported your parcel delivered.",
  in_transit: "The carrier reports your parcel on its way.",
  pending: "The carrier has not scanned your parcel yet.",
};

/** One fact as the buyer reads it; `currency` is the claim's. */
export function describeDecisionFact(fact: DecisionFact, currency: string): string {
  switch (fact.fact) {
    case "within_cover":
      return `You asked for ${money(fact.amountCents, currency)}, within the ${money(fact.remainingCents, currency)} your plan still covers.`;
    case "no_delivery_recorded":
      return "No delivery of your order has been recorded.";
    case "delivered":
      return `The carrier recorded your parcel delivered on ${day(fact.at)}.`;
    case "delivery":
      return fact.overdue
        ? "Your parcel was not delivered within 14 days of the promised delivery date."
        : (DELIVERY_SENTENCES[fact.state] ?? "No shipment of your order has been reported.");
    case "filed_after_window":
      if ("deliveredAt" in fact)
        return `The carrier recorded your parcel delivered on ${day(fact.deliveredAt)}, more than ${CLAIM_WINDOW_DAYS} days before the claim was filed on ${day(fact.filedAt)}.`;
      return `You told us it happened on ${day(fact.occurredAt)}, more than ${CLAIM_WINDOW_DAYS} days before the claim was filed on ${day(fact.filedAt)}.`;
    case "plan_ended":
      return `Your protection ended on ${day(fact.endedAt)}, before the claim was filed.`;
    case "amount_above_remaining":
      return `You asked for ${money(fact.amountCents, currency)}; your plan covers ${money(Math.max(fact.remainingCents, 0), currency)} more.`;
  }
}

/** The stored basis (JSON) read back as sentences; none for a decision without one. */
export function decisionBasisSentences(stored: string | null, currency: string): string[] {
  if (!stored) return [];
  return (JSON.parse(stored) as DecisionFact[]).map((fact) => describeDecisionFact(fact, currency));
}
