// The app's Shopify Flow triggers: one trigger extension each (extensions/flow-<handle>/shopify.extension.toml,
// declaring the fields below in the same order), started by flowTriggerReceive from a durable job. Which event starts
// which trigger, and with what, is here: the protection and claim events of the outbox (docs/api.md "Webhooks"), each
// event's own snapshot of the plan or claim. A trigger is queued once per plan or claim (its job id says which), so an
// event read again, or a second claim.updated of one decision, starts no second workflow.
import { formatDecimalAmount } from "@purchase-protection/contract";
import type { Claim, Purchase, StoredEventType } from "../../server/index.ts";

export type FlowTriggerHandle =
  "protection-added" | "claim-filed" | "claim-decided" | "claim-paid" | "protection-cancelled";

/** What Flow is sent: the order (the order_reference field, by the order's numeric id) and the trigger's own fields. */
export type FlowPayload = Record<string, string | number>;

export interface FlowTriggerJob {
  handle: FlowTriggerHandle;
  /** The plan or claim the trigger is about: one trigger of a handle per subject, ever. */
  subject: string;
  payload: FlowPayload;
}

/** Amounts go to Flow as decimals in the currency's unit (its number_decimal fields). */
const amount = (cents: number, currency: string) => Number(formatDecimalAmount(cents, currency));

function planPayload(plan: Purchase): FlowPayload {
  return {
    order_id: Number(plan.orderId),
    "Reference number": plan.referenceNumber,
    "Protection fee": amount(plan.feeCents, plan.currency),
    "Covered amount": amount(plan.coveredAmountCents, plan.currency),
    Currency: plan.currency,
  };
}

function claimPayload(claim: Claim): FlowPayload {
  return {
    order_id: Number(claim.orderId),
    "Reference number": claim.referenceNumber,
    "Claim id": claim.id,
    "Claim reason": claim.reason,
    "Claimed amount": amount(claim.amountCents, claim.currency),
    Currency: claim.currency,
  };
}

/** The trigger an outbox event starts, or undefined (a claim's other updates start none). */
export function flowTriggerOf(type: StoredEventType, data: unknown): FlowTriggerJob | undefined {
  switch (type) {
    case "protection.confirmed": {
      const plan = data as Purchase;
      return { handle: "protection-added", subject: plan.id, payload: planPayload(plan) };
    }
    case "protection.cancelled": {
      const plan = data as Purchase;
      return { handle: "protection-cancelled", subject: plan.id, payload: planPayload(plan) };
    }
    case "claim.created": {
      const claim = data as Claim;
      return { handle: "claim-filed", subject: claim.id, payload: claimPayload(claim) };
    }
    case "claim.updated": {
      const claim = data as Claim;
      if (claim.status === "approved" || claim.status === "denied")
        return {
          handle: "claim-decided",
          subject: claim.id,
          payload: {
            ...claimPayload(claim),
            Decision: claim.status,
            "Decision reason": claim.decision?.message ?? "",
          },
        };
      if (claim.status === "paid")
        return {
          handle: "claim-paid",
          subject: claim.id,
          payload: {
            ...claimPayload(claim),
            "Paid amount": amount(claim.resolution?.amountCents ?? claim.amountCents, claim.currency),
            "Paid as": claim.resolution?.remedy ?? "",
          },
        };
      return undefined;
    }
    default:
      return undefined;
  }
}
