import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Actor, type Services, type Tx } from "./context.ts";
import { COVERED_REASONS } from "./disclosure.ts";
import { appendEvent } from "./events.ts";
import type { Page, PageQuery } from "./pagination.ts";
import { findClaim, insertClaim, listClaimsPage, type ClaimFilters, type ClaimRecord } from "../store/claims.ts";
import { findPlanByReference } from "../store/plans.ts";

export type { ClaimFilters };

export const CLAIM_STATUSES = ["submitted", "under_review", "needs_information", "approved", "paid", "denied"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** A buyer's refund request under a plan, as the API shows it (ISO times). */
export type Claim = Omit<ClaimRecord, "mode" | "createdAt" | "updatedAt"> & {
  object: "claim";
  createdAt: string;
  updatedAt: string;
  livemode: boolean;
};

export async function listClaims(db: Tx, actor: Actor, query: PageQuery & ClaimFilters): Promise<Page<Claim>> {
  const page = await listClaimsPage(db, actor, query);
  return { ...page, data: page.data.map(toClaim) };
}

/** Files a buyer's claim under an active plan (the consumer portal's path). */
export async function submitClaim(
  tx: Tx,
  services: Services,
  actor: Actor,
  input: { referenceNumber: string; reason: string; description?: string },
): Promise<Claim> {
  if (!(COVERED_REASONS as readonly string[]).includes(input.reason)) {
    throw new DomainError(
      "invalid",
      "reason_not_covered",
      `'${input.reason}' is not one of the covered reasons.`,
      "reason",
    );
  }
  const plan = await findPlanByReference(tx, actor, input.referenceNumber);
  if (!plan) throw notFound("plan", input.referenceNumber, "referenceNumber");
  if (plan.status !== "active")
    throw new DomainError("conflict", "plan_not_active", `Plan '${input.referenceNumber}' is ${plan.status}.`);
  const now = services.clock();
  const id = newId("clm", now, services.random);
  await insertClaim(tx, actor, {
    id,
    planId: plan.id,
    reason: input.reason,
    description: input.description ?? "",
    amountCents: plan.coveredAmountCents,
    currency: plan.currency,
    createdAt: now,
  });
  const claim = toClaim((await findClaim(tx, id))!);
  await appendEvent(tx, services, actor, "claim.created", claim);
  return claim;
}

function toClaim(record: ClaimRecord): Claim {
  return {
    id: record.id,
    object: "claim",
    planId: record.planId,
    referenceNumber: record.referenceNumber,
    orderId: record.orderId,
    reason: record.reason,
    description: record.description,
    status: record.status,
    amountCents: record.amountCents,
    currency: record.currency,
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    livemode: record.mode === "live",
  };
}
