// A claim's changes: the merchant's confirmation of the refund or replacement they made for an approved claim (the
// API's POST /merchant/claims/{id}/resolution, the amount typed as money in the claim's currency), and the claims
// team's decisions in the console (each with its audit entry; the staff member is authenticated again inside the
// transaction, so a signed-out or disabled account decides nothing).
import { z } from "zod";
import { formatMoneyEnUs, parseTypedMoney } from "@purchase-protection/contract";
import type { CoreDeps } from "./deps.ts";
import { actorOf, type MerchantCaller } from "./callers.ts";
import { asStaff, type StaffCaller } from "./staff-session.ts";
import { DomainError } from "../domain/errors.ts";
import { parseInput } from "../domain/accounts.ts";
import { getMerchantClaim } from "../domain/claims.ts";
import { resolveClaim } from "../domain/claim-decisions.ts";
import { actOnClaim, type ClaimActionName } from "../domain/ops-claims.ts";

const resolutionSchema = z.object({
  kind: z.enum(["refund", "replacement"], "Choose what you did: a refund or a replacement."),
  reference: z
    .string()
    .trim()
    .min(1, "Enter your reference: the refund id, the order or its tracking number.")
    .max(200),
});

export interface ResolutionForm {
  kind: unknown;
  reference: unknown;
  /** As typed ("$129.99", "129.99"); empty: the claim's amount. */
  amount: string;
}

/** What the merchant typed as the amount in the claim's currency; undefined when empty (the claim's). */
function resolutionAmount(typed: string, currency: string): number | undefined {
  if (typed.trim() === "") return undefined;
  const cents = parseTypedMoney(typed, currency);
  if (cents === undefined || cents < 1)
    throw new DomainError(
      "invalid",
      "parameter_invalid",
      `Enter an amount such as ${formatMoneyEnUs(12_999, currency)}, or leave it empty for the claim's amount.`,
      "amount",
    );
  return cents;
}

export function claimsArea(deps: CoreDeps) {
  const { db, services } = deps;
  return {
    async resolve(caller: MerchantCaller, claimId: string, input: ResolutionForm) {
      const actor = actorOf(caller);
      const claim = await getMerchantClaim(db, actor, claimId);
      const amountCents = resolutionAmount(input.amount, claim.resolution?.currency ?? claim.currency);
      const { kind, reference } = parseInput(resolutionSchema, { kind: input.kind, reference: input.reference });
      return db.transaction((tx) =>
        resolveClaim(tx, services, actor, claimId, { channel: "merchant", kind, reference, amountCents }),
      );
    },
    /** A console action; only an admin records a payment (a reviewer is refused). */
    act: (caller: StaffCaller, claimId: string, input: { action: ClaimActionName } & Record<string, unknown>) =>
      asStaff(deps, caller, input.action === "record_payment" ? "admin" : "any", (tx, staff) =>
        actOnClaim(tx, services, staff, claimId, input, caller.ip ?? ""),
      ),
  };
}
