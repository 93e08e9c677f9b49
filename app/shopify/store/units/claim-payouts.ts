// The claim payout jobs' units of work (app/shopify/claim-payouts.server.ts): a claim's payout job queued with its
// payout state, the payout begun, and the claim resolved with the job's completion; each one transaction.
import {
  beginClaimPayout,
  recordClaimPayoutStep,
  resolveClaim,
  type Actor,
  type ClaimResolutionInput,
  type Database,
  type Services,
} from "../../../../server/index.ts";
import type { JobCompletion } from "../../jobs.server.ts";
import { enqueueNamedJobOnce, type NamedJobOnce } from "../../named-jobs.ts";

/** Queues the claim's payout job and, when it was added (or re-armed), marks the claim's payout pending. */
export function queueClaimPayout(
  db: Database,
  services: Services,
  payoutJob: NamedJobOnce<"pay_claim">,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const isNew = await enqueueNamedJobOnce(tx, services, payoutJob);
    if (isNew)
      await recordClaimPayoutStep(tx, payoutJob.payload.claimId, { state: "pending", attempts: 0, error: null });
    return isNew;
  });
}

/** The core's check before money moves, recording the attempt (see beginClaimPayout); false when no longer approved. */
export function startClaimPayout(db: Database, owner: Actor, claimId: string, attempt: number): Promise<boolean> {
  return db.transaction((tx) => beginClaimPayout(tx, owner, claimId, attempt));
}

/** The claim's resolution, the job's completion and the claim's payout state commit together. */
export async function savePaidClaim(
  db: Database,
  services: Services,
  owner: Actor,
  claimId: string,
  resolution: ClaimResolutionInput,
  completion: JobCompletion,
): Promise<void> {
  await db.transaction(async (tx) => {
    await resolveClaim(tx, services, owner, claimId, resolution);
    await completion.markDone(tx);
  });
}
