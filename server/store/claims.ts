// Claims (claims): a buyer's refund requests under a plan, read with the plan's reference number and order id; their
// timelines (claim_timeline) and the evidence files they brought (claim_evidence; the bytes live in the evidence store).
import type { Actor } from "../vocabulary/actors.ts";
import type { ClaimPayoutState, ClaimStatus } from "../vocabulary/claims.ts";
import type { Mode } from "../vocabulary/ids.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import type { PlanStatus } from "../vocabulary/plans.ts";
import type { OrderRisk } from "../vocabulary/orders.ts";
import { findOwnedRow, forUpdate, placeholders, type Queryable } from "./database.ts";
import { listPage } from "./pagination.ts";

export interface ClaimRecord {
  id: string;
  merchantId: string;
  planId: string;
  /** The claim's number on its plan (1, 2, … in filing order): with the reference number, its name for people. */
  number: number;
  referenceNumber: string;
  orderId: string;
  reason: string;
  description: string;
  status: ClaimStatus;
  amountCents: number;
  currency: string;
  occurredAt: number;
  decisionCode: string | null;
  decisionMessage: string | null;
  /** What a rule's decision rested on (JSON, server/domain/decision-basis.ts); null for a person's. */
  decisionBasis: string | null;
  decidedAt: number | null;
  /** "rule:<rule id>" or "staff:<staff id>". */
  decidedBy: string | null;
  remedy: ClaimRemedy | null;
  paidAmountCents: number;
  resolution: ClaimResolutionRecord | null;
  resolvedAt: number | null;
  payoutError: string | null;
  /** The merchant's orders are Shopify's: its claims are paid on Shopify, not confirmed by the merchant. */
  shopifyMerchant: boolean;
  /** The store's name, as the buyer reads who pays an approved claim. */
  merchantName: string;
  evidenceCount: number;
  createdAt: number;
  updatedAt: number;
  mode: Mode;
}

export type ClaimRemedy = "refund" | "replacement";

/** How a paid claim was resolved (claims.resolution, JSON). */
export interface ClaimResolutionRecord {
  kind: ClaimRemedy;
  channel: "merchant" | "shopify";
  amountCents: number;
  reference: string | null;
  note: string | null;
}

export type NewClaim = Pick<
  ClaimRecord,
  "id" | "planId" | "reason" | "description" | "amountCents" | "currency" | "occurredAt" | "createdAt"
>;

export interface ClaimFilters {
  status?: ClaimStatus;
  referenceNumber?: string;
  /** Only the claims of this plan (the portal's listing). */
  planId?: string;
  createdGte?: number;
  createdLt?: number;
}

export type TimelineActor = "buyer" | "merchant" | "claims_team" | "service";
export type TimelineKind = "submitted" | "message" | "status_changed";

export interface TimelineEntryRecord {
  id: string;
  claimId: string;
  actor: TimelineActor;
  kind: TimelineKind;
  status: ClaimStatus | null;
  text: string;
  createdAt: number;
}

export interface EvidenceRecord {
  id: string;
  claimId: string;
  entryId: string;
  sha256: string;
  contentType: string;
  byteSize: number;
  fileName: string;
  createdAt: number;
}

/** The plan a claim is filed under, as the filing rules need it. */
export interface ClaimablePlan {
  id: string;
  referenceNumber: string;
  status: PlanStatus;
  coveredAmountCents: number;
  currency: string;
  purchasedAt: number;
  customerEmailSealed: string | null;
  customerEmailHash: string | null;
}

interface ClaimRow {
  id: string;
  merchant_id: string;
  plan_id: string;
  number: number;
  reference_number: string;
  order_id: string;
  reason: string;
  description: string;
  status: ClaimStatus;
  amount_cents: number;
  currency: string;
  occurred_at: number;
  decision_code: string | null;
  decision_message: string | null;
  decision_basis: string | null;
  decided_at: number | null;
  decided_by: string | null;
  remedy: ClaimRemedy | null;
  paid_amount_cents: number;
  resolution: string | null;
  resolved_at: number | null;
  payout_error: string | null;
  shop_domain: string | null;
  merchant_name: string;
  evidence_count: number;
  created_at: number;
  updated_at: number;
  mode: Mode;
}

const CLAIMS = "claims c JOIN plans p ON p.id = c.plan_id";
const CLAIM_COLUMNS =
  "c.id, c.merchant_id, c.plan_id, c.number, p.reference_number, p.order_id, c.reason, c.description, c.status, c.amount_cents, " +
  "c.currency, c.occurred_at, c.decision_code, c.decision_message, c.decision_basis, c.decided_at, c.decided_by, c.remedy, " +
  "c.paid_amount_cents, c.resolution, c.resolved_at, c.payout_error, " +
  "(SELECT m.shop_domain FROM merchants m WHERE m.id = c.merchant_id) AS shop_domain, " +
  "(SELECT m.name FROM merchants m WHERE m.id = c.merchant_id) AS merchant_name, " +
  "(SELECT COUNT(*) FROM claim_evidence e WHERE e.claim_id = c.id) AS evidence_count, c.created_at, c.updated_at, c.mode";

function toClaimRecord(row: ClaimRow): ClaimRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    planId: row.plan_id,
    number: Number(row.number),
    referenceNumber: row.reference_number,
    orderId: row.order_id,
    reason: row.reason,
    description: row.description,
    status: row.status,
    amountCents: row.amount_cents,
    currency: row.currency,
    occurredAt: Number(row.occurred_at),
    decisionCode: row.decision_code,
    decisionMessage: row.decision_message,
    decisionBasis: row.decision_basis,
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
    decidedBy: row.decided_by,
    remedy: row.remedy,
    paidAmountCents: Number(row.paid_amount_cents),
    resolution: row.resolution === null ? null : (JSON.parse(row.resolution) as ClaimResolutionRecord),
    resolvedAt: row.resolved_at === null ? null : Number(row.resolved_at),
    payoutError: row.payout_error,
    shopifyMerchant: row.shop_domain !== null,
    merchantName: row.merchant_name,
    evidenceCount: Number(row.evidence_count),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    mode: row.mode,
  };
}

/** Statuses after which a claim is closed: its open slot is released and nothing more can be added. */
export const CLOSED_CLAIM_STATUSES: readonly ClaimStatus[] = ["paid", "denied"];

/** The slot a claim holds while open: the unique `open_slot` makes "one open claim per plan and reason" a constraint. */
export const openSlotOf = (planId: string, reason: string) => `${planId}:${reason}`;

/**
 * The next claim number of the plan, as an SQL expression taking the plan id: read in the INSERT itself, whose caller
 * holds the plan's row lock, so two filings on one plan never take the same number (the unique (plan_id, number)
 * index would refuse it).
 */
export const NEXT_CLAIM_NUMBER = "(SELECT COALESCE(MAX(n.number), 0) + 1 FROM claims n WHERE n.plan_id = ?)";

/**
 * Stores a submitted claim holding its plan+reason open slot (created and updated now) with the plan's next claim
 * number; the caller holds the plan's row lock. False when another open claim holds the slot (a concurrent filing
 * that committed first): nothing is written then.
 */
export async function insertClaim(tx: Queryable, owner: Actor, claim: NewClaim): Promise<boolean> {
  const inserted = await tx.all(
    `INSERT INTO claims (id, merchant_id, mode, plan_id, number, reason, description, status, amount_cents, currency, occurred_at, open_slot, created_at, updated_at)
     VALUES (?, ?, ?, ?, ${NEXT_CLAIM_NUMBER}, ?, ?, 'submitted', ?, ?, ?, ?, ?, ?)
     ON CONFLICT (open_slot) DO NOTHING RETURNING id`,
    [
      claim.id,
      owner.merchantId,
      owner.mode,
      claim.planId,
      claim.planId,
      claim.reason,
      claim.description,
      claim.amountCents,
      claim.currency,
      claim.occurredAt,
      openSlotOf(claim.planId, claim.reason),
      claim.createdAt,
      claim.createdAt,
    ],
  );
  return inserted.length === 1;
}

/** The owner's plan by id, row-locked so that claims on one plan are filed one at a time (the remaining amount). */
export async function lockClaimablePlan(
  tx: Queryable,
  owner: Actor,
  planId: string,
): Promise<ClaimablePlan | undefined> {
  const row = await findOwnedRow<{
    id: string;
    reference_number: string;
    status: PlanStatus;
    covered_amount_cents: number;
    currency: string;
    purchased_at: number;
    customer_email_sealed: string | null;
    customer_email_hash: string | null;
  }>(
    tx,
    owner,
    "plans",
    "id, reference_number, status, covered_amount_cents, currency, purchased_at, customer_email_sealed, customer_email_hash",
    planId,
    forUpdate(tx),
  );
  return (
    row && {
      id: row.id,
      referenceNumber: row.reference_number,
      status: row.status,
      coveredAmountCents: row.covered_amount_cents,
      currency: row.currency,
      purchasedAt: Number(row.purchased_at),
      customerEmailSealed: row.customer_email_sealed,
      customerEmailHash: row.customer_email_hash,
    }
  );
}

/** The id of the open claim holding the plan+reason slot, if any. */
export async function findOpenClaimId(tx: Queryable, planId: string, reason: string): Promise<string | undefined> {
  const row = await tx.get<{ id: string }>("SELECT id FROM claims WHERE open_slot = ?", [openSlotOf(planId, reason)]);
  return row?.id;
}

/** What the plan's claims were paid so far (the covered amount less this is what is left to claim). */
export async function sumPaidOnPlan(tx: Queryable, planId: string): Promise<number> {
  const row = await tx.get<{ paid: number | string | null }>(
    "SELECT SUM(paid_amount_cents) AS paid FROM claims WHERE plan_id = ?",
    [planId],
  );
  return Number(row?.paid ?? 0);
}

/** One of the plan's claims in one of these statuses (the oldest), or undefined: what a money guard names. */
export async function findPlanClaimIn(
  tx: Queryable,
  planId: string,
  statuses: readonly ClaimStatus[],
): Promise<
  { id: string; status: ClaimStatus; amountCents: number; paidAmountCents: number; currency: string } | undefined
> {
  const row = await tx.get<{
    id: string;
    status: ClaimStatus;
    amount_cents: number;
    paid_amount_cents: number;
    currency: string;
  }>(
    `SELECT id, status, amount_cents, paid_amount_cents, currency FROM claims WHERE plan_id = ? AND status IN (${placeholders(statuses)})
     ORDER BY created_at, id LIMIT 1`,
    [planId, ...statuses],
  );
  return (
    row && {
      id: row.id,
      status: row.status,
      amountCents: Number(row.amount_cents),
      paidAmountCents: Number(row.paid_amount_cents),
      currency: row.currency,
    }
  );
}

/** The owner's claim (any claim when no owner is given: the caller has already scoped it). */
export async function findClaim(tx: Queryable, claimId: string, owner?: Actor): Promise<ClaimRecord | undefined> {
  const row = owner
    ? await tx.get<ClaimRow>(
        `SELECT ${CLAIM_COLUMNS} FROM ${CLAIMS} WHERE c.id = ? AND c.merchant_id = ? AND c.mode = ?`,
        [claimId, owner.merchantId, owner.mode],
      )
    : await tx.get<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM ${CLAIMS} WHERE c.id = ?`, [claimId]);
  return row && toClaimRecord(row);
}

/** The claim's status, row-locked (a message and a decision on one claim run one at a time). */
export async function lockClaimStatus(tx: Queryable, claimId: string): Promise<ClaimStatus | undefined> {
  const row = await tx.get<{ status: ClaimStatus }>(`SELECT status FROM claims WHERE id = ?${forUpdate(tx)}`, [
    claimId,
  ]);
  return row?.status;
}

/** Sets the claim's status (releasing its open slot when the status closes it). */
export async function updateClaimStatus(
  tx: Queryable,
  claimId: string,
  status: ClaimStatus,
  at: number,
): Promise<void> {
  const closes = CLOSED_CLAIM_STATUSES.includes(status);
  await tx.run(`UPDATE claims SET status = ?, updated_at = ?${closes ? ", open_slot = NULL" : ""} WHERE id = ?`, [
    status,
    at,
    claimId,
  ]);
}

/** Marks the claim touched (a message arrived) without changing its status. */
export async function touchClaim(tx: Queryable, claimId: string, at: number): Promise<void> {
  await tx.run("UPDATE claims SET updated_at = ? WHERE id = ?", [at, claimId]);
}

/** Test seam: what the claim was paid (claims are paid through recordClaimResolution). */
export async function setClaimPaidAmount(tx: Queryable, claimId: string, paidAmountCents: number): Promise<void> {
  await tx.run("UPDATE claims SET paid_amount_cents = ? WHERE id = ?", [paidAmountCents, claimId]);
}

/**
 * Records a decision: the new status (approved or denied), its published code and sentence, who made it and, for an
 * approval, the remedy owed. A denial releases the open slot.
 */
export async function recordClaimDecision(
  tx: Queryable,
  claimId: string,
  decision: {
    status: "approved" | "denied";
    code: string;
    message: string;
    decidedBy: string;
    /** What a rule's decision rested on (JSON); none for a person's. */
    basis?: string | null;
    remedy: ClaimRemedy | null;
    at: number;
  },
): Promise<void> {
  await updateClaimStatus(tx, claimId, decision.status, decision.at);
  await tx.run(
    "UPDATE claims SET decision_code = ?, decision_message = ?, decided_by = ?, decision_basis = ?, decided_at = ?, remedy = ? WHERE id = ?",
    [
      decision.code,
      decision.message,
      decision.decidedBy,
      decision.basis ?? null,
      decision.at,
      decision.remedy,
      claimId,
    ],
  );
}

/** The plan's claims for `reason` that a rule approved and nobody paid yet, oldest first. */
export async function listRuleApprovedUnpaidClaimIds(tx: Queryable, planId: string, reason: string): Promise<string[]> {
  const rows = await tx.all<{ id: string }>(
    `SELECT id FROM claims WHERE plan_id = ? AND reason = ? AND status = 'approved' AND decided_by LIKE 'rule:%'
     ORDER BY created_at, id`,
    [planId, reason],
  );
  return rows.map((row) => row.id);
}

/** The plan's claims not yet closed (paid or denied), in filing order. */
export async function listOpenClaimIds(tx: Queryable, planId: string): Promise<string[]> {
  const rows = await tx.all<{ id: string }>(
    `SELECT id FROM claims WHERE plan_id = ? AND status NOT IN (${placeholders(CLOSED_CLAIM_STATUSES)}) ORDER BY created_at, id`,
    [planId, ...CLOSED_CLAIM_STATUSES],
  );
  return rows.map((row) => row.id);
}

/**
 * An approval withdrawn before payment: the claim back under review, its decision, remedy and payout state cleared.
 * Only while no payout attempt has begun (payout_attempts = 0); returns whether it was withdrawn.
 */
export async function withdrawClaimApproval(tx: Queryable, claimId: string, at: number): Promise<boolean> {
  const changed = await tx.run(
    `UPDATE claims SET status = 'under_review', decision_code = NULL, decision_message = NULL, decision_basis = NULL,
       decided_by = NULL, decided_at = NULL, remedy = NULL, payout_error = NULL, payout_state = NULL, updated_at = ?
     WHERE id = ? AND status = 'approved' AND payout_attempts = 0`,
    [at, claimId],
  );
  return changed > 0;
}

/** Marks the claim paid with how it was resolved (releasing its open slot and clearing a failed payout's error). */
export async function recordClaimResolution(
  tx: Queryable,
  claimId: string,
  resolution: ClaimResolutionRecord,
  at: number,
): Promise<void> {
  await updateClaimStatus(tx, claimId, "paid", at);
  await tx.run(
    "UPDATE claims SET paid_amount_cents = ?, resolution = ?, resolved_at = ?, payout_error = NULL WHERE id = ?",
    [resolution.amountCents, JSON.stringify(resolution), at, claimId],
  );
}

/** The payout job's latest step, kept on the claim (the app writes it with the job's own bookkeeping). */
export async function setClaimPayoutState(
  tx: Queryable,
  claimId: string,
  payout: { state: ClaimPayoutState; attempts: number },
): Promise<void> {
  await tx.run("UPDATE claims SET payout_state = ?, payout_attempts = ? WHERE id = ?", [
    payout.state,
    payout.attempts,
    claimId,
  ]);
}

/**
 * The payout job is done: a claim it paid shows it done; one it did not pay (its approval was withdrawn before the job
 * began) shows no payout and no attempt, as before it was queued.
 */
export async function setClaimPayoutDone(tx: Queryable, claimId: string, attempts: number): Promise<void> {
  await tx.run(
    `UPDATE claims SET payout_state = CASE WHEN status = 'paid' THEN 'done' END,
       payout_attempts = CASE WHEN status = 'paid' THEN ? ELSE 0 END
     WHERE id = ?`,
    [attempts, claimId],
  );
}

/** The last failed attempt to pay an approved claim (shown to the merchant and the claims team until it is paid). */
export async function setClaimPayoutError(tx: Queryable, claimId: string, message: string): Promise<void> {
  await tx.run("UPDATE claims SET payout_error = ? WHERE id = ? AND status = 'approved'", [message, claimId]);
}

/** What the plan's other approved claims are owed and not yet paid (approving one more must leave room for them). */
export async function sumApprovedUnpaidOnPlan(tx: Queryable, planId: string, exceptClaimId: string): Promise<number> {
  const row = await tx.get<{ owed: number | string | null }>(
    "SELECT SUM(amount_cents) AS owed FROM claims WHERE plan_id = ? AND status = 'approved' AND id <> ?",
    [planId, exceptClaimId],
  );
  return Number(row?.owed ?? 0);
}

/** What the claim rules and an approval need to know of the claim's plan, its order and its program. */
export interface ClaimPlanFacts {
  planId: string;
  planStatus: PlanStatus;
  /** When the plan was voided or cancelled; null while active. */
  planEndedAt: number | null;
  coveredAmountCents: number;
  purchasedAt: number;
  /** When the carrier reported the order delivered; null: no delivery recorded. */
  deliveredAt: number | null;
  /** The claim_rules JSON of the program that priced the plan ("{}" when the program is gone). */
  claimRules: string;
  /** The keyed hash of the buyer's e-mail (its claims across the service); null: none on the plan, or redacted. */
  customerEmailHash: string | null;
  /** The keyed hash of the order's shipping address (likewise); null: not known, or redacted. */
  shippingAddressHash: string | null;
  /** The order's risk as its store platform assessed it; null: none read. */
  orderRisk: OrderRisk | null;
}

/**
 * The facts of a claim's plan, row-locking the plan: decisions on its claims run one at a time (what is left to
 * approve), and in the order filing takes its locks (the plan first, then a claim).
 */
export async function lockClaimPlanFacts(tx: Queryable, planId: string): Promise<ClaimPlanFacts | undefined> {
  const row = await tx.get<{
    plan_id: string;
    status: PlanStatus;
    voided_at: number | string | null;
    cancelled_at: number | string | null;
    covered_amount_cents: number | string;
    purchased_at: number | string;
    delivered_at: number | string | null;
    claim_rules: string | null;
    customer_email_hash: string | null;
    shipping_address_hash: string | null;
    order_risk: string | null;
  }>(
    `SELECT p.id AS plan_id, p.status, p.voided_at, p.cancelled_at, p.covered_amount_cents, p.purchased_at,
            p.customer_email_hash, p.shipping_address_hash, p.order_risk,
            (SELECT o.delivered_at FROM orders o WHERE o.plan_id = p.id) AS delivered_at,
            (SELECT pp.claim_rules FROM quotes q JOIN protection_programs pp ON pp.id = q.program_id
              WHERE q.id = p.quote_id) AS claim_rules
       FROM plans p WHERE p.id = ?${forUpdate(tx)}`,
    [planId],
  );
  if (!row) return undefined;
  const endedAt = row.voided_at ?? row.cancelled_at;
  return {
    planId: row.plan_id,
    planStatus: row.status,
    planEndedAt: row.status === "active" || endedAt === null ? null : Number(endedAt),
    coveredAmountCents: Number(row.covered_amount_cents),
    purchasedAt: Number(row.purchased_at),
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
    claimRules: row.claim_rules ?? "{}",
    customerEmailHash: row.customer_email_hash,
    shippingAddressHash: row.shipping_address_hash,
    orderRisk: row.order_risk === null ? null : (JSON.parse(row.order_risk) as OrderRisk),
  };
}

export async function insertTimelineEntry(tx: Queryable, owner: Actor, entry: TimelineEntryRecord): Promise<void> {
  await tx.run(
    `INSERT INTO claim_timeline (id, claim_id, merchant_id, mode, actor, kind, status, text, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      entry.id,
      entry.claimId,
      owner.merchantId,
      owner.mode,
      entry.actor,
      entry.kind,
      entry.status,
      entry.text,
      entry.createdAt,
    ],
  );
}

/** Records an evidence file with the portal session that uploaded it (its quota counts by it). */
export async function insertEvidence(
  tx: Queryable,
  owner: Actor,
  evidence: EvidenceRecord & { sessionId: string; perceptualHash: string | null },
): Promise<void> {
  await tx.run(
    `INSERT INTO claim_evidence (id, claim_id, entry_id, merchant_id, mode, sha256, content_type, byte_size, file_name, session_id, perceptual_hash, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      evidence.id,
      evidence.claimId,
      evidence.entryId,
      owner.merchantId,
      owner.mode,
      evidence.sha256,
      evidence.contentType,
      evidence.byteSize,
      evidence.fileName,
      evidence.sessionId,
      evidence.perceptualHash,
      evidence.createdAt,
    ],
  );
}

/** How many evidence files, and how many bytes, are recorded. */
export interface EvidenceUsage {
  files: number;
  bytes: number;
}

/**
 * The evidence recorded on the plan (every claim of it), on one of its claims and by one portal session. Read under
 * the plan's row lock, which every evidence insert of the plan holds, so it cannot change before the caller inserts.
 */
export async function evidenceUsage(
  tx: Queryable,
  planId: string,
  claimId: string,
  sessionId: string,
): Promise<{ plan: EvidenceUsage; claim: EvidenceUsage; session: EvidenceUsage }> {
  const [byPlan, bySession] = await Promise.all([
    tx.get<{
      files: number | string;
      bytes: number | string;
      claim_files: number | string;
      claim_bytes: number | string;
    }>(
      `SELECT COUNT(*) AS files, COALESCE(SUM(e.byte_size), 0) AS bytes,
              COALESCE(SUM(CASE WHEN e.claim_id = ? THEN 1 ELSE 0 END), 0) AS claim_files,
              COALESCE(SUM(CASE WHEN e.claim_id = ? THEN e.byte_size ELSE 0 END), 0) AS claim_bytes
         FROM claims c JOIN claim_evidence e ON e.claim_id = c.id WHERE c.plan_id = ?`,
      [claimId, claimId, planId],
    ),
    tx.get<{ files: number | string; bytes: number | string }>(
      "SELECT COUNT(*) AS files, COALESCE(SUM(byte_size), 0) AS bytes FROM claim_evidence WHERE session_id = ?",
      [sessionId],
    ),
  ]);
  return {
    plan: { files: Number(byPlan!.files), bytes: Number(byPlan!.bytes) },
    claim: { files: Number(byPlan!.claim_files), bytes: Number(byPlan!.claim_bytes) },
    session: { files: Number(bySession!.files), bytes: Number(bySession!.bytes) },
  };
}

/** The claim's timeline, oldest first. */
export async function listTimeline(tx: Queryable, claimId: string): Promise<TimelineEntryRecord[]> {
  const rows = await tx.all<{
    id: string;
    claim_id: string;
    actor: TimelineActor;
    kind: TimelineKind;
    status: ClaimStatus | null;
    text: string;
    created_at: number;
  }>(
    // Within one millisecond the submission comes first and a status change follows the message that caused it.
    `SELECT id, claim_id, actor, kind, status, text, created_at FROM claim_timeline WHERE claim_id = ?
     ORDER BY created_at, CASE kind WHEN 'submitted' THEN 0 WHEN 'message' THEN 1 ELSE 2 END, id`,
    [claimId],
  );
  return rows.map((row) => ({
    id: row.id,
    claimId: row.claim_id,
    actor: row.actor,
    kind: row.kind,
    status: row.status,
    text: row.text,
    createdAt: Number(row.created_at),
  }));
}

interface EvidenceRow {
  id: string;
  claim_id: string;
  entry_id: string;
  sha256: string;
  content_type: string;
  byte_size: number;
  file_name: string;
  created_at: number;
}

const EVIDENCE_COLUMNS = "id, claim_id, entry_id, sha256, content_type, byte_size, file_name, created_at";

const toEvidenceRecord = (row: EvidenceRow): EvidenceRecord => ({
  id: row.id,
  claimId: row.claim_id,
  entryId: row.entry_id,
  sha256: row.sha256,
  contentType: row.content_type,
  byteSize: row.byte_size,
  fileName: row.file_name,
  createdAt: Number(row.created_at),
});

/** The evidence of these claims, oldest first. */
export async function listEvidence(tx: Queryable, claimIds: readonly string[]): Promise<EvidenceRecord[]> {
  if (claimIds.length === 0) return [];
  const rows = await tx.all<EvidenceRow>(
    `SELECT ${EVIDENCE_COLUMNS} FROM claim_evidence WHERE claim_id IN (${placeholders(claimIds)}) ORDER BY created_at, id`,
    [...claimIds],
  );
  return rows.map(toEvidenceRecord);
}

/** Which of these content addresses an evidence row still names. */
export async function findNamedEvidence(tx: Queryable, sha256s: readonly string[]): Promise<Set<string>> {
  if (sha256s.length === 0) return new Set();
  const rows = await tx.all<{ sha256: string }>(
    `SELECT DISTINCT sha256 FROM claim_evidence WHERE sha256 IN (${placeholders(sha256s)})`,
    [...sha256s],
  );
  return new Set(rows.map((row) => row.sha256));
}

/** One evidence file of the claim, or undefined. */
export async function findEvidence(
  tx: Queryable,
  claimId: string,
  evidenceId: string,
): Promise<EvidenceRecord | undefined> {
  const row = await tx.get<EvidenceRow>(
    `SELECT ${EVIDENCE_COLUMNS} FROM claim_evidence WHERE id = ? AND claim_id = ?`,
    [evidenceId, claimId],
  );
  return row && toEvidenceRecord(row);
}

export function listClaimsPage(
  tx: Queryable,
  owner: Actor,
  query: PageQuery & ClaimFilters,
): Promise<Page<ClaimRecord>> {
  const filters: [string, string | number | undefined][] = [
    ["c.status = ?", query.status],
    ["p.reference_number = ?", query.referenceNumber],
    ["c.plan_id = ?", query.planId],
    ["c.created_at >= ?", query.createdGte],
    ["c.created_at < ?", query.createdLt],
  ];
  return listPage(tx, owner, CLAIMS, CLAIM_COLUMNS, filters, query, toClaimRecord, "c");
}
