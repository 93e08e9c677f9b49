// Deciding and paying claims: the only place a claim's status changes after it is filed (apart from the buyer's answer
// to a request for information, in addClaimMessage). Every transition, in the caller's transaction: the claims row,
// one status_changed timeline entry, exactly one claim.updated event and the buyer's e-mail; a payment also the
// claim_reimbursement ledger entry. A transition the claim's status does not allow writes nothing (409).
import { newId } from "./ids.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { appendEvent } from "./events.ts";
import { queuePlanEmail, type EmailTemplate } from "./emails.ts";
import { appendLedgerEntry } from "./ledger.ts";
import { DEFAULT_BUYER_LOCALE, formatDecimalAmount } from "@purchase-protection/contract";
import { parseStoredClaimRules } from "./claim-rules.ts";
import { rulebookText } from "./rulebook-text.ts";
import type { DecisionFact } from "./decision-basis.ts";
import { toClaim, type Claim } from "./claim-views.ts";
import {
  DENIAL_REASON_CODES,
  type ClaimPayoutState,
  type ClaimStatus,
  type DenialReasonCode,
} from "../vocabulary/claims.ts";
import {
  findClaim,
  insertTimelineEntry,
  listRuleApprovedUnpaidClaimIds,
  lockClaimPlanFacts,
  lockClaimStatus,
  recordClaimDecision,
  recordClaimResolution,
  setClaimPayoutDone,
  setClaimPayoutError,
  setClaimPayoutState,
  sumApprovedUnpaidOnPlan,
  sumPaidOnPlan,
  updateClaimStatus,
  withdrawClaimApproval,
  type ClaimPlanFacts,
  type ClaimRecord,
  type ClaimRemedy,
  type TimelineActor,
} from "../store/claims.ts";

/** Who decides: one of the program's claim rules (at filing), with the facts it rested on (decision-basis.ts), or a
 * member of the claims team. */
export type ClaimDecider =
  { kind: "rule"; ruleId: string; basis: readonly DecisionFact[] } | { kind: "staff"; staffId: string };

export type { DenialReasonCode };

/**
 * The published reasons a claim is denied for, with the sentence the buyer reads in English, as a decision stores it
 * (docs/api.md "Denial reasons", GET /portal/reasons, the portal's terms page; every language: rulebook-text.ts).
 * A denial always carries one.
 */
export const DENIAL_REASONS = DENIAL_REASON_CODES.map((code) => ({
  code,
  message: rulebookText(DEFAULT_BUYER_LOCALE).denial(code),
}));

/** An approval's code and the sentence the buyer reads (in English, as a decision stores it). */
export const APPROVAL_DECISION = {
  code: "covered",
  message: rulebookText(DEFAULT_BUYER_LOCALE).approval(),
} as const;

/** The statuses a claim may take next from each status (docs/api.md "Claim decisions"). */
export const CLAIM_TRANSITIONS: Record<ClaimStatus, readonly ClaimStatus[]> = {
  submitted: ["under_review", "needs_information", "approved", "denied"],
  under_review: ["needs_information", "approved", "denied"],
  // Back to under_review only through the buyer's answer (addClaimMessage).
  needs_information: ["approved", "denied"],
  approved: ["paid"],
  paid: [],
  denied: [],
};

/** The merchant and mode of a claim: what staff code, which holds the claim but no API key, acts as. */
export const claimActorOf = (record: Pick<ClaimRecord, "merchantId" | "mode">): Actor => ({
  merchantId: record.merchantId,
  mode: record.mode,
});

const decidedByOf = (by: ClaimDecider) => (by.kind === "rule" ? `rule:${by.ruleId}` : `staff:${by.staffId}`);
const timelineActorOf = (by: ClaimDecider): TimelineActor => (by.kind === "rule" ? "service" : "claims_team");

/** The facts a rule's decision rested on, as stored (JSON); none for a person's. */
const basisOf = (by: ClaimDecider): string | null => (by.kind === "rule" ? JSON.stringify(by.basis) : null);

/** The sentence the buyer reads, then the decider's note (both shown on the buyer's timeline). */
const withNote = (sentence: string, note: string | undefined) =>
  note?.trim() ? `${sentence}\n\n${note.trim()}` : sentence;

const conflict = (code: string, message: string, field?: string) => new DomainError("conflict", code, message, field);

/** The claim (the actor's) and its plan, locked in the order filing locks them: the plan, then the claim. */
async function lockClaim(tx: Tx, actor: Actor, claimId: string): Promise<{ claim: ClaimRecord; plan: ClaimPlanFacts }> {
  const owned = await findClaim(tx, claimId, actor);
  if (!owned) throw notFound("claim", claimId, "claimId");
  const plan = await lockClaimPlanFacts(tx, owned.planId);
  await lockClaimStatus(tx, claimId);
  const claim = await findClaim(tx, claimId);
  if (!plan || !claim) throw notFound("claim", claimId, "claimId");
  return { claim, plan };
}

/**
 * An approved claim whose plan ended before it was paid (the order was cancelled or refunded, or the buyer took the fee
 * back) can never be paid (assertPlanActive), so the claims team closes it: denied with plan_not_active, the one move
 * out of `approved` besides payment. Without it the claim would wait for a payment that is refused forever.
 */
export const canWithdrawApproval = (status: ClaimStatus, planStatus: ClaimPlanFacts["planStatus"]) =>
  status === "approved" && planStatus !== "active";

function assertTransition(claim: ClaimRecord, to: ClaimStatus): void {
  if (!CLAIM_TRANSITIONS[claim.status].includes(to))
    throw conflict("claim_transition_invalid", `Claim '${claim.id}' is ${claim.status}: it cannot become ${to}.`);
}

/**
 * docs/api.md "Money invariants": a voided plan's order was cancelled or refunded by the merchant, a cancelled plan's fee
 * went back to the buyer — neither approves nor pays a claim. Checked under the plan's row lock (lockClaim), which the
 * cancellation, the void and the refund report take too, so none of them can slip between this check and the write.
 */
function assertPlanActive(claim: ClaimRecord, plan: ClaimPlanFacts, to: "approved" | "paid"): void {
  if (plan.planStatus === "active") return;
  const since = plan.planEndedAt === null ? "" : ` on ${iso(plan.planEndedAt)}`;
  throw conflict(
    "plan_not_active",
    to === "approved"
      ? `Plan '${claim.referenceNumber}' was ${plan.planStatus}${since}: its claims can no longer be approved (deny with plan_not_active).`
      : `Plan '${claim.referenceNumber}' was ${plan.planStatus}${since}: its approved claims can no longer be paid.`,
  );
}

/**
 * A payout made outside the service (the Shopify app's refundCreate) begins: under the claim's lock, the claim must
 * still be approved (false: paid already, or its approval withdrawn since the payout was queued: nothing to pay) on an
 * active plan (409 plan_not_active), and the attempt is recorded on it (payout_attempts) before any money moves. From
 * then on a new scan no longer withdraws the approval (withdrawLostApprovals takes the same lock): the money may be on
 * its way. resolveClaim checks the claim again when it records the payment.
 */
export async function beginClaimPayout(tx: Tx, actor: Actor, claimId: string, attempt: number): Promise<boolean> {
  const { claim, plan } = await lockClaim(tx, actor, claimId);
  if (claim.status !== "approved") return false;
  assertPlanActive(claim, plan, "paid");
  await setClaimPayoutState(tx, claim.id, { state: "pending", attempts: attempt });
  return true;
}

/** The timeline entry, the claim.updated event and the buyer's e-mail of a transition the claims row already shows. */
async function recordTransition(
  tx: Tx,
  services: Services,
  actor: Actor,
  claim: ClaimRecord,
  entry: { actor: TimelineActor; status: ClaimStatus; text: string },
  email: EmailTemplate | null,
): Promise<Claim> {
  const now = services.clock();
  const entryId = newId("cte", now, services.random);
  await insertTimelineEntry(tx, actor, {
    id: entryId,
    claimId: claim.id,
    kind: "status_changed",
    ...entry,
    createdAt: now,
  });
  const updated = toClaim((await findClaim(tx, claim.id))!);
  await appendEvent(tx, services, actor, "claim.updated", updated);
  if (email)
    await queuePlanEmail(tx, services, actor, {
      template: email,
      planId: claim.planId,
      claimId: claim.id,
      occasion: entryId,
      // A decision the filing's rules made at once counts as the buyer's portal action (whoever files can repeat it);
      // the claims team's requests and decisions, and every payment, are the service's own: no cap holds them back.
      capBudget: email === "claim_decided" && entry.actor === "service" ? "portal" : undefined,
    });
  return updated;
}

/**
 * The carrier scanned a parcel again after a rule approved its order's "lost in transit" claim: before the claim is
 * paid, the approval is withdrawn and the claim goes back to the claims team, the buyer told why (the timeline entry
 * and the claim_reopened e-mail). A system move, not in CLAIM_TRANSITIONS: nobody can make it from the console. A
 * person's approval stays as it is (the console shows the new scan), and so does any approval on another cart than
 * Shopify (below). Returns the claims moved back.
 */
export async function withdrawLostApprovals(
  tx: Tx,
  services: Services,
  actor: Actor,
  planId: string,
  scan: { description: string; occurredAt: number },
  /** Whether the order's parcels still look lost; asked only when there is an approval to take back. */
  stillLost: () => Promise<boolean>,
): Promise<string[]> {
  const moved: string[] = [];
  const approved = await listRuleApprovedUnpaidClaimIds(tx, planId, "lost_in_transit");
  if (approved.length === 0 || (await stillLost())) return moved;
  for (const claimId of approved) {
    const { claim } = await lockClaim(tx, actor, claimId);
    // Paid, or decided again, between the list and the lock.
    if (claim.status !== "approved" || !claim.decidedBy?.startsWith("rule:")) continue;
    // Another cart's merchant pays the claim itself, and was told to by the approval's own claim.updated event (its
    // resolution pending): it may have refunded the buyer already. Withdrawn, its confirmation would be refused and it
    // never reimbursed, and the buyer told no refund was made: the approval stands, like one whose Shopify payout began.
    if (!claim.shopifyMerchant) continue;
    // Its payout began (beginClaimPayout, under the same lock): the money may be moving, the approval stays.
    if (!(await withdrawClaimApproval(tx, claim.id, services.clock()))) continue;
    const day = new Date(scan.occurredAt).toISOString().slice(0, 10);
    await recordTransition(
      tx,
      services,
      actor,
      claim,
      {
        actor: "service",
        status: "under_review",
        text: `The carrier scanned your parcel again on ${day} (${scan.description}): it is not lost after all. The approval is withdrawn before any refund, and the claims team will decide again.`,
      },
      "claim_reopened",
    );
    moved.push(claim.id);
  }
  return moved;
}

/**
 * What is left of the plan's coverage for this claim: the covered amount less what the plan's claims were paid and what
 * its other approved claims are owed. The rules at filing and every approval measure a claim against it.
 */
export async function coverageLeftFor(
  tx: Tx,
  plan: Pick<ClaimPlanFacts, "planId" | "coveredAmountCents">,
  claimId: string,
): Promise<number> {
  return (
    plan.coveredAmountCents -
    (await sumPaidOnPlan(tx, plan.planId)) -
    (await sumApprovedUnpaidOnPlan(tx, plan.planId, claimId))
  );
}

/** A reviewer starts on a submitted claim. */
export async function startReview(
  tx: Tx,
  services: Services,
  actor: Actor,
  claimId: string,
  by: ClaimDecider,
): Promise<Claim> {
  return moveClaim(tx, services, actor, claimId, by, { status: "under_review", text: "" }, null);
}

/** A move that changes only the status: the claim locked, the move checked, the status set, the move recorded. */
async function moveClaim(
  tx: Tx,
  services: Services,
  actor: Actor,
  claimId: string,
  by: ClaimDecider,
  move: { status: ClaimStatus; text: string },
  email: EmailTemplate | null,
): Promise<Claim> {
  const { claim } = await lockClaim(tx, actor, claimId);
  assertTransition(claim, move.status);
  await updateClaimStatus(tx, claim.id, move.status, services.clock());
  return recordTransition(tx, services, actor, claim, { actor: timelineActorOf(by), ...move }, email);
}

/**
 * Approves the claim for a refund (or, where the program's rules allow it, a replacement). The rulebook is checked
 * again now: the plan must still be active (a voided plan's order was cancelled or refunded, a cancelled plan's fee
 * returned) and the amount within what is left of the coverage once paid and other approved claims are counted.
 */
export async function approveClaim(
  tx: Tx,
  services: Services,
  actor: Actor,
  claimId: string,
  by: ClaimDecider,
  input: { note?: string; remedy?: ClaimRemedy },
): Promise<Claim> {
  const { claim, plan } = await lockClaim(tx, actor, claimId);
  assertTransition(claim, "approved");
  assertPlanActive(claim, plan, "approved");
  const remaining = await coverageLeftFor(tx, plan, claim.id);
  if (claim.amountCents > remaining)
    throw conflict(
      "amount_exceeds_remaining",
      `The claim asks for ${claim.amountCents}, more than the ${Math.max(remaining, 0)} left of the plan's coverage after paid and approved claims (deny with amount_exceeds_coverage).`,
    );
  const remedy = input.remedy ?? "refund";
  if (remedy === "replacement" && !parseStoredClaimRules(plan.claimRules).replacementAllowed)
    throw conflict(
      "replacement_not_allowed",
      "The program's claim rules do not allow replacements; approve a refund.",
      "remedy",
    );
  const { code, message } = APPROVAL_DECISION;
  return recordDecision(tx, services, actor, claim, by, { status: "approved", code, message, remedy }, input.note);
}

/** Denies the claim for one of the published reasons; its sentence is what the buyer reads. */
export async function denyClaim(
  tx: Tx,
  services: Services,
  actor: Actor,
  claimId: string,
  by: ClaimDecider,
  input: { code: string; note?: string },
): Promise<Claim> {
  const reason = DENIAL_REASONS.find((candidate) => candidate.code === input.code);
  if (!reason)
    throw new DomainError(
      "unprocessable",
      "denial_reason_unknown",
      `'${input.code}' is not a published denial reason (${DENIAL_REASONS.map((known) => known.code).join(", ")}).`,
      "code",
    );
  const { claim, plan } = await lockClaim(tx, actor, claimId);
  if (canWithdrawApproval(claim.status, plan.planStatus)) {
    if (reason.code !== "plan_not_active")
      throw conflict(
        "claim_transition_invalid",
        `Claim '${claim.id}' is approved and its plan was ${plan.planStatus}: it can only be denied with plan_not_active.`,
        "code",
      );
  } else assertTransition(claim, "denied");
  return recordDecision(
    tx,
    services,
    actor,
    claim,
    by,
    { status: "denied", code: reason.code, message: reason.message, remedy: null },
    input.note,
  );
}

/**
 * Records an approval or a denial by `by` (with a rule's basis) and its timeline entry, the published sentence with
 * the decider's note, which the buyer is e-mailed (claim_decided).
 */
async function recordDecision(
  tx: Tx,
  services: Services,
  actor: Actor,
  claim: ClaimRecord,
  by: ClaimDecider,
  decision: { status: "approved" | "denied"; code: string; message: string; remedy: ClaimRemedy | null },
  note: string | undefined,
): Promise<Claim> {
  await recordClaimDecision(tx, claim.id, {
    ...decision,
    decidedBy: decidedByOf(by),
    basis: basisOf(by),
    at: services.clock(),
  });
  return recordTransition(
    tx,
    services,
    actor,
    claim,
    { actor: timelineActorOf(by), status: decision.status, text: withNote(decision.message, note) },
    "claim_decided",
  );
}

/** Asks the buyer for more; the message is what the buyer reads (timeline and e-mail), and they answer in the portal. */
export async function requestInformation(
  tx: Tx,
  services: Services,
  actor: Actor,
  claimId: string,
  by: ClaimDecider,
  input: { message: string },
): Promise<Claim> {
  const message = input.message.trim();
  if (!message)
    throw new DomainError("invalid", "parameter_invalid", "The message tells the buyer what is needed.", "message");
  return moveClaim(
    tx,
    services,
    actor,
    claimId,
    by,
    { status: "needs_information", text: message },
    "claim_information_needed",
  );
}

export interface ClaimResolutionInput {
  /** shopify: the service paid it on the Shopify order; merchant: the merchant did and confirms it. */
  channel: "merchant" | "shopify";
  kind: ClaimRemedy;
  /** Default: the claim's amount; at most that. For a replacement, what the reshipped goods are worth. */
  amountCents?: number;
  /** The Shopify refund or order id, or the merchant's own reference. */
  reference: string | null;
  note?: string;
}

/**
 * An approved claim was paid: refunded or replaced, through Shopify or by the merchant. The merchant is owed what was
 * paid (claim_reimbursement). Paying a paid claim again returns it unchanged; a claim whose plan was cancelled or
 * voided since its approval is not paid (409 plan_not_active).
 */
export async function resolveClaim(
  tx: Tx,
  services: Services,
  actor: Actor,
  claimId: string,
  input: ClaimResolutionInput,
): Promise<Claim> {
  const { claim, plan } = await lockClaim(tx, actor, claimId);
  if (claim.shopifyMerchant && input.channel === "merchant")
    throw conflict(
      "claim_resolution_automatic",
      `Claim '${claim.id}' is on a Shopify order: the service pays it on Shopify and marks it paid; it needs no confirmation.`,
    );
  if (!claim.shopifyMerchant && input.channel === "shopify")
    throw conflict("claim_resolution_manual", `Claim '${claim.id}' is not on a Shopify order: its merchant pays it.`);
  if (claim.status === "paid") return toClaim(claim);
  assertTransition(claim, "paid");
  assertPlanActive(claim, plan, "paid");
  const remedy = claim.remedy ?? "refund";
  if (input.kind !== remedy)
    throw conflict("remedy_mismatch", `Claim '${claim.id}' was approved for a ${remedy}, not a ${input.kind}.`, "kind");
  const amountCents = input.amountCents ?? claim.amountCents;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents > claim.amountCents)
    throw new DomainError(
      "unprocessable",
      "amount_exceeds_claim",
      `The amount paid is between 1 and the claim's amount (${claim.amountCents}).`,
      "amountCents",
    );
  const note = input.note?.trim() || null;
  await recordClaimResolution(
    tx,
    claim.id,
    { kind: remedy, channel: input.channel, amountCents, reference: input.reference, note },
    services.clock(),
  );
  await appendLedgerEntry(tx, services, actor, {
    kind: "claim_reimbursement",
    amountCents,
    currency: claim.currency,
    sourceId: claim.id,
    planId: claim.planId,
  });
  const done =
    remedy === "refund"
      ? `Refund of ${formatDecimalAmount(amountCents, claim.currency)} ${claim.currency} paid.`
      : "A replacement was sent.";
  return recordTransition(
    tx,
    services,
    actor,
    claim,
    {
      actor: input.channel === "merchant" ? "merchant" : "service",
      status: "paid",
      text: withNote(done, note ?? undefined),
    },
    "claim_paid",
  );
}

/**
 * Where the app's Shopify payout of the claim stands after its job's latest step (queued, an attempt failed or gave
 * up, done), written in the job's own transaction. A failed attempt's error is shown until a later attempt succeeds
 * (only while the claim is approved). A job done without paying (it found the approval withdrawn) leaves the claim no
 * payout state, so that a new approval queues the payout again (queueApprovedClaimPayouts).
 */
export async function recordClaimPayoutStep(
  tx: Tx,
  claimId: string,
  step: { state: ClaimPayoutState; attempts: number; error: string | null },
): Promise<void> {
  if (step.state === "done") return setClaimPayoutDone(tx, claimId, step.attempts);
  await setClaimPayoutState(tx, claimId, step);
  if (step.error !== null) await setClaimPayoutError(tx, claimId, step.error);
}
