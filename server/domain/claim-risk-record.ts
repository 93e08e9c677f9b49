// Gathers a claim's risk facts from the store, assesses them (claim-risk.ts) and keeps the assessment: at filing,
// before the claim rules read its level, and again when the buyer adds files.
import type { Services, Tx } from "./context.ts";
import { assessClaimRisk, NEAR_PHOTO_MAX_BITS, type ClaimRisk, type PhotoMatch } from "./claim-risk.ts";
import { hammingDistance } from "../evidence/index.ts";
import type { ClaimPlanFacts, ClaimRecord } from "../store/claims.ts";
import {
  countOtherClaimsByBuyer,
  findExactPhotoMatches,
  findPhotoCandidates,
  saveRiskAssessment,
} from "../store/claim-risk.ts";

export async function recordClaimRisk(
  tx: Tx,
  services: Services,
  claim: ClaimRecord,
  plan: Pick<ClaimPlanFacts, "coveredAmountCents" | "deliveredAt" | "customerEmailHash">,
): Promise<ClaimRisk> {
  const at = services.clock();
  const otherClaims = plan.customerEmailHash
    ? await countOtherClaimsByBuyer(tx, { mode: claim.mode, emailHash: plan.customerEmailHash, claimId: claim.id, at })
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
  });
  await saveRiskAssessment(tx, claim, { claimId: claim.id, ...risk, assessedAt: at });
  return risk;
}
