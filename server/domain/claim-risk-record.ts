// Gathers a claim's risk facts from the store, assesses them (claim-risk.ts) and keeps the assessment: at filing,
// before the claim rules read its level, and again when the buyer adds files or the order's risk is read anew.
import type { Services, Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import type { OrderRisk } from "../vocabulary/orders.ts";
import { assessClaimRisk, NEAR_PHOTO_MAX_BITS, type ClaimRisk, type PhotoMatch } from "./claim-risk.ts";
import { hammingDistance } from "../evidence/index.ts";
import {
  findClaim,
  listOpenClaimIds,
  lockClaimPlanFacts,
  type ClaimPlanFacts,
  type ClaimRecord,
} from "../store/claims.ts";
import {
  countOtherClaimsByBuyer,
  findExactPhotoMatches,
  findPhotoCandidates,
  saveOrderRisk,
  saveRiskAssessment,
} from "../store/claim-risk.ts";
import { findOrderByExternalId } from "../store/orders.ts";

export async function recordClaimRisk(
  tx: Tx,
  services: Services,
  claim: ClaimRecord,
  plan: Pick<
    ClaimPlanFacts,
    "coveredAmountCents" | "deliveredAt" | "customerEmailHash" | "shippingAddressHash" | "orderRisk"
  >,
): Promise<ClaimRisk> {
  const at = services.clock();
  const otherClaims =
    plan.customerEmailHash || plan.shippingAddressHash
      ? await countOtherClaimsByBuyer(tx, {
          mode: claim.mode,
          emailHash: plan.customerEmailHash,
          addressHash: plan.shippingAddressHash,
          claimId: claim.id,
          at,
        })
      : null;
  const sameMerchant = (merchantId: string) => merchantId === claim.merchantId;
  const exact: PhotoMatch[] = (await findExactPhotoMatches(tx, claim.id)).map((match) => ({
    kind: "exact",
    distance: 0,
    sameMerchant: sameMerchant(match.otherMerchantId),
  }));
  const near: PhotoMatch[] = (await findPhotoCandidates(tx, claim.id))
    .map((candidate) => ({
      kind: "near" as const,
      distance: hammingDistance(candidate.hash, candidate.otherHash),
      sameMerchant: sameMerchant(candidate.otherMerchantId),
    }))
    .filter((match) => match.distance <= NEAR_PHOTO_MAX_BITS);
  const risk = assessClaimRisk({
    reason: claim.reason,
    amountCents: claim.amountCents,
    coveredAmountCents: plan.coveredAmountCents,
    filedAt: claim.createdAt,
    deliveredAt: plan.deliveredAt,
    otherClaims,
    // Exact first: a near match at distance 0 is the same file seen twice.
    photoMatches: [...exact, ...near],
    orderRisk: plan.orderRisk,
  });
  await saveRiskAssessment(tx, claim, { claimId: claim.id, ...risk, assessedAt: at });
  return risk;
}

/**
 * The store platform assessed the protected order's risk (on Shopify, read by its app when a claim is filed or when
 * Shopify says the assessment changed): kept on the plan, and each open claim on it assessed again (the claims team
 * sees the risk as it now stands; no rule decides again). Returns false when the owner has no such protected order.
 */
export async function recordOrderRisk(
  tx: Tx,
  services: Services,
  owner: Actor,
  externalOrderId: string,
  risk: OrderRisk,
): Promise<boolean> {
  const order = await findOrderByExternalId(tx, owner, externalOrderId);
  if (!order) return false;
  // Writing the plan's row locks it first, as filing and decisions do: a claim filed meanwhile waits and is assessed
  // with this risk.
  await saveOrderRisk(tx, order.planId, risk);
  const plan = (await lockClaimPlanFacts(tx, order.planId))!;
  for (const claimId of await listOpenClaimIds(tx, order.planId))
    await recordClaimRisk(tx, services, (await findClaim(tx, claimId))!, plan);
  return true;
}
