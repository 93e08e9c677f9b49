// The claims team's console (/ops) over every merchant's claims: the queue (what waits for a decision or a payout,
// oldest first — or highest risk or newest first — with its age), one claim with everything deciding it needs
// (merchant, plan and consent record, order, evidence, timeline, decision, payout), and the team's actions on it. Each
// action is the claim decision function (claim-decisions.ts) and its audit entry in the caller's one transaction.
// Nothing here reads an API key.
//
// A Shopify shop's approved claim is paid by the app's payout job. When that job gives up (dead: it never runs again),
// the merchant pays in the Shopify admin and an admin of the claims team records it here; while the job may still pay,
// nobody can, so that the job and a person never both pay.
import { z } from "zod";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { DomainError, notFound } from "./errors.ts";
import type { Mode } from "../vocabulary/ids.ts";
import { COVERED_REASONS, reasonName } from "./disclosure.ts";
import { getPortalClaim, readMerchantEvidence, type EvidenceDownload } from "./claims.ts";
import { toClaim, type Claim, type EvidenceFile, type TimelineEntry } from "./claim-views.ts";
import { CLAIM_STATUSES, RISK_LEVELS, type ClaimStatus, type RiskLevel } from "../vocabulary/claims.ts";
import {
  approveClaim,
  claimActorOf,
  CLAIM_TRANSITIONS,
  DENIAL_REASONS,
  canWithdrawApproval,
  denyClaim,
  requestInformation,
  resolveClaim,
  startReview,
  type ClaimDecider,
} from "./claim-decisions.ts";
import { parseStoredClaimRules } from "./claim-rules.ts";
import { describeRiskSignal, type RiskSignal } from "./claim-risk.ts";
import { findRiskAssessments } from "../store/claim-risk.ts";
import { getPurchase, type Purchase } from "./purchases.ts";
import { appendAudit, parseInput, type AuditAction, type AuditDetail, type StaffPrincipal } from "./staff.ts";
import {
  findClaim,
  lockClaimPlanFacts,
  lockClaimStatus,
  sumApprovedUnpaidOnPlan,
  sumPaidOnPlan,
  type ClaimRecord,
} from "../store/claims.ts";
import {
  countClaimsByStatus,
  findClaimContext,
  findClaimShopifyPayout,
  findOpsOrder,
  listClaimMerchants,
  listPlanClaimSummaries,
  listQueue,
  QUEUE_ORDERS,
  riskRank,
  setClaimAssignee,
} from "../store/ops-claims.ts";
import type { ClaimPayoutState } from "../vocabulary/claims.ts";
import type { OrderLine, ShipTo } from "../vocabulary/orders.ts";
import { addBusinessDays } from "./payout-terms.ts";
import { sniffEvidenceType } from "../evidence/sniff.ts";
import { CLAIM_REVIEW_BUSINESS_DAYS } from "../email/layout.ts";
import { getOrderDelivery, type OrderDelivery } from "./shipments.ts";
import { claimDecisionStats, type ClaimDecisionStats } from "./metrics.ts";
import { DAY_MS } from "../vocabulary/time.ts";

/** What the queue shows by default: claims waiting for a decision, and approved ones waiting to be paid. */
export const OPEN_QUEUE_STATUSES: readonly ClaimStatus[] = [
  "submitted",
  "under_review",
  "needs_information",
  "approved",
];
export const QUEUE_PAGE_SIZE = 50;
/** The queue's decision figures cover the claims decided in this many days before now. */
export const DECISION_STATS_DAYS = 30;
const MERCHANT_FILTER_LIMIT = 500;

/** The statuses the buyer was promised a review in (CLAIM_REVIEW_BUSINESS_DAYS): the claims team's turn to act. */
const REVIEW_PROMISE_STATUSES: readonly ClaimStatus[] = ["submitted", "under_review"];

/** Where a claim stands against the review promise: overdue, due within a business day, or neither. */
export type ReviewMarker = "overdue" | "due_soon" | null;

/**
 * The review promise of a claim the claims team must act on: due CLAIM_REVIEW_BUSINESS_DAYS business days after it was
 * filed or, once the buyer answered a question, after the answer ("the review continues, within 5 business days", the
 * e-mails say; payout-terms' business days); "due soon" from one business day before. Null for a claim waiting for the
 * buyer or already decided.
 */
export function reviewPromise(
  status: ClaimStatus,
  reviewFromMs: number,
  nowMs: number,
): { dueAt: string; marker: ReviewMarker } | null {
  if (!REVIEW_PROMISE_STATUSES.includes(status)) return null;
  const dueMs = addBusinessDays(reviewFromMs, CLAIM_REVIEW_BUSINESS_DAYS);
  const soonMs = addBusinessDays(reviewFromMs, CLAIM_REVIEW_BUSINESS_DAYS - 1);
  return { dueAt: iso(dueMs), marker: nowMs >= dueMs ? "overdue" : nowMs >= soonMs ? "due_soon" : null };
}

/** The queue's views: the open claims, one status, approved claims whose Shopify payout failed, or everything. */
export const QUEUE_VIEWS = ["open", ...CLAIM_STATUSES, "payout_error", "all"] as const;
export type QueueView = (typeof QUEUE_VIEWS)[number];

const emptyAsUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema.optional());

const queueFilterSchema = z.object({
  view: optional(z.enum(QUEUE_VIEWS, "Choose one of the listed statuses.")).default("open"),
  reason: optional(z.enum(COVERED_REASONS, "Choose one of the covered reasons.")),
  mode: optional(z.enum(["test", "live"], "Choose test or live.")),
  merchantId: optional(z.string().max(64)),
  /** Part of a reference number ("clm-2026-7k3m", "7K3M9Q2X"): letters, digits and hyphens, any case. */
  reference: optional(
    z
      .string()
      .trim()
      .max(40, "At most 40 characters.")
      .regex(/^[A-Za-z0-9-]+$/, "A reference number has letters, digits and hyphens only (CLM-2026-7K3M9Q2X).")
      .transform((text) => text.toUpperCase()),
  ),
  /** "mine": only the claims the signed-in staff member took. */
  assignee: optional(z.enum(["mine"], "Choose everyone's claims or yours.")),
  /** "elevated": elevated or high; "high": high only. */
  risk: optional(z.enum(["elevated", "high"], "Choose elevated or high.")),
  /** The queue's order: oldest first (the default), highest risk first (oldest first within a level), newest first. */
  sort: optional(z.enum(QUEUE_ORDERS, "Choose one of the listed orders.")).default("oldest"),
  /** The cursor of the next page: `<risk rank>.<created_at>.<claim id>` of the previous page's last row. */
  after: optional(z.string().regex(/^\d\.\d{1,16}\.[a-z0-9_]{1,64}$/, "Not a page cursor.")),
});
export type QueueFilters = z.output<typeof queueFilterSchema>;

export interface QueueRow {
  id: string;
  merchantId: string;
  merchantName: string;
  mode: Mode;
  referenceNumber: string;
  reason: string;
  reasonName: string;
  status: ClaimStatus;
  amountCents: number;
  currency: string;
  evidenceCount: number;
  /** The last failed Shopify payout of an approved claim. */
  payoutError: string | null;
  createdAt: string;
  updatedAt: string;
  /** How long since it was filed, in ms. */
  ageMs: number;
  /** The staff member who took it (their address), or null. */
  assigneeEmail: string | null;
  /** The claim's risk level; null: not assessed (filed before claims were). */
  riskLevel: RiskLevel | null;
  /** The review promise's due time and marker (null: the claim waits for the buyer or is decided). */
  review: { dueAt: string; marker: ReviewMarker } | null;
}

export interface Queue {
  filters: QueueFilters;
  rows: QueueRow[];
  /** The `after` of the next page, or null on the last. */
  nextAfter: string | null;
  counts: { byStatus: Partial<Record<ClaimStatus, number>>; payoutErrors: number };
  merchants: { id: string; name: string }[];
  /** How the claims of the filter's merchant and mode (else all) were decided in the last DECISION_STATS_DAYS days. */
  decisions: ClaimDecisionStats;
}

/** The queue in its order, by the (validated) filters of the queue page's form; "mine" is `staffId`'s. */
export async function listClaimQueue(db: Tx, services: Services, filters: unknown, staffId?: string): Promise<Queue> {
  const parsed = parseInput(queueFilterSchema, filters);
  const statuses =
    parsed.view === "open"
      ? OPEN_QUEUE_STATUSES
      : parsed.view === "all"
        ? CLAIM_STATUSES
        : parsed.view === "payout_error"
          ? (["approved"] as const)
          : [parsed.view];
  const [cursorRank, cursorTime, cursorId] = parsed.after?.split(".") ?? [];
  const records = await listQueue(
    db,
    {
      statuses,
      payoutErrorOnly: parsed.view === "payout_error",
      reason: parsed.reason,
      mode: parsed.mode,
      merchantId: parsed.merchantId,
      reference: parsed.reference,
      // No staff member, no claims of theirs: "mine" without one matches nothing rather than everything.
      assigneeStaffId: parsed.assignee === "mine" ? (staffId ?? "") : undefined,
      riskLevels: parsed.risk && RISK_LEVELS.slice(RISK_LEVELS.indexOf(parsed.risk)),
      order: parsed.sort,
      after: parsed.after ? { riskRank: Number(cursorRank), createdAt: Number(cursorTime), id: cursorId } : undefined,
    },
    QUEUE_PAGE_SIZE + 1,
  );
  const now = services.clock();
  const page = records.slice(0, QUEUE_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    filters: parsed,
    rows: page.map(({ assigneeStaffId: _assignee, reviewFrom, ...record }) => ({
      ...record,
      reasonName: reasonName(record.reason),
      createdAt: iso(record.createdAt),
      updatedAt: iso(record.updatedAt),
      ageMs: Math.max(0, now - record.createdAt),
      review: reviewPromise(record.status, reviewFrom, now),
    })),
    nextAfter: records.length > QUEUE_PAGE_SIZE ? `${riskRank(last.riskLevel)}.${last.createdAt}.${last.id}` : null,
    counts: await countClaimsByStatus(db),
    merchants: await listClaimMerchants(db, MERCHANT_FILTER_LIMIT),
    decisions: await claimDecisionStats(db, {
      merchantId: parsed.merchantId,
      mode: parsed.mode,
      fromMs: now - DECISION_STATS_DAYS * DAY_MS,
      toMs: now,
    }),
  };
}

/** The console's actions on a claim. */
export type ClaimActionName =
  "start_review" | "approve" | "deny" | "request_information" | "record_payment" | "assign_to_me" | "unassign";

export interface OpsOrder {
  id: string;
  /** The store's order name ("#1001"), when it gave one. */
  name: string | null;
  /** Where the order came from: a Shopify shop (its order webhook) or another cart (the API's order_context). */
  source: "shopify" | "api";
  status: string;
  createdAt: string;
  refundedAt: string | null;
  /** When the carrier reported delivery; null: none recorded. */
  deliveredAt: string | null;
  /** Its shipments, their scans and states (docs/api.md "Delivery facts"), as GET /orders/{id}/delivery has them. */
  delivery: OrderDelivery;
  /** The goods ordered; null: not known (other carts send none, older Shopify orders kept none). */
  lines: OrderLine[] | null;
  /** Where it was shipped, to the town; null: not known, nothing shipped, or redacted. */
  shipTo: ShipTo | null;
}

/** A claim's risk as the claims team reads it: each signal with what it means (server/domain/claim-risk.ts). */
export interface OpsClaimRisk {
  level: RiskLevel;
  score: number;
  assessedAt: string;
  signals: { name: RiskSignal["name"]; weight: number; meaning: string }[];
}

export interface OpsClaimDetail {
  claim: Claim;
  /** null: filed before claims were assessed. */
  risk: OpsClaimRisk | null;
  reasonName: string;
  merchant: { id: string; name: string };
  mode: Mode;
  /** The staff address behind a claims-team decision (staff see who decided; merchants and buyers never do). */
  decidedByEmail: string | null;
  /** The staff member who took the claim, or null. */
  assignee: { staffId: string; email: string } | null;
  /** May a staff member take it (or give it back)? Not once it is paid or denied. */
  assignable: boolean;
  /** The review promise (null: the claim waits for the buyer or is decided). */
  review: { dueAt: string; marker: ReviewMarker } | null;
  plan: Purchase;
  /**
   * What this claim may still be approved for: the plan's covered amount less what its claims were paid and what its
   * other approved claims are owed.
   */
  remainingCents: number;
  order: OpsOrder | null;
  evidence: EvidenceFile[];
  timeline: TimelineEntry[];
  otherClaims: {
    id: string;
    reason: string;
    reasonName: string;
    status: ClaimStatus;
    amountCents: number;
    createdAt: string;
  }[];
  replacementAllowed: boolean;
  /**
   * How far the app's payout job of a Shopify shop's claim got, as the claim keeps it (null until the app queues it);
   * null for other merchants' claims.
   */
  shopifyPayoutJob: { status: ClaimPayoutState; attempts: number } | null;
  /** An approved claim whose Shopify payout gave up: an admin may record the payment made in the Shopify admin. */
  paymentRecordable: boolean;
  /** The decisions the claim's status allows now. */
  actions: ClaimActionName[];
  denialReasons: readonly { code: string; message: string }[];
}

/** The actions a claim in `status` on a plan in `planStatus` allows (the decision functions' own transitions). */
export function allowedActions(status: ClaimStatus, planStatus: Purchase["status"]): ClaimActionName[] {
  const next = CLAIM_TRANSITIONS[status];
  const actions: ClaimActionName[] = [];
  if (next.includes("under_review")) actions.push("start_review");
  if (next.includes("approved")) actions.push("approve");
  if (next.includes("denied") || canWithdrawApproval(status, planStatus)) actions.push("deny");
  if (next.includes("needs_information")) actions.push("request_information");
  return actions;
}

async function claimActor(db: Tx, claimId: string) {
  const context = await findClaimContext(db, claimId);
  if (!context) throw notFound("claim", claimId, "claimId");
  return { context, actor: { merchantId: context.merchantId, mode: context.mode } satisfies Actor };
}

const CLOSED_STATUSES: readonly ClaimStatus[] = ["paid", "denied"];

/** One claim with everything its review needs, its delivery's states and review promise at the services' clock. */
export async function getOpsClaim(db: Tx, services: Services, claimId: string): Promise<OpsClaimDetail> {
  const { context, actor } = await claimActor(db, claimId);
  const record = (await findClaim(db, claimId, actor))!;
  const [withTimeline, plan, order, paid, approvedUnpaid, others, payout, assessments] = await Promise.all([
    getPortalClaim(db, { ...actor, planId: context.planId }, claimId),
    getPurchase(db, actor, context.planId, true),
    findOpsOrder(db, context.planId),
    sumPaidOnPlan(db, context.planId),
    sumApprovedUnpaidOnPlan(db, context.planId, claimId),
    listPlanClaimSummaries(db, context.planId, claimId),
    findClaimShopifyPayout(db, claimId),
    findRiskAssessments(db, [claimId]),
  ]);
  const job = payout?.payout ?? null;
  const delivery = order && (await getOrderDelivery(db, services, actor, order.externalId));
  const assessment = assessments.get(claimId);
  return {
    claim: toClaim(record),
    risk: assessment
      ? {
          level: assessment.level,
          score: assessment.score,
          assessedAt: iso(assessment.assessedAt),
          signals: (assessment.signals as RiskSignal[]).map((signal) => ({
            name: signal.name,
            weight: signal.weight,
            meaning: describeRiskSignal(signal),
          })),
        }
      : null,
    reasonName: reasonName(record.reason),
    merchant: { id: context.merchantId, name: context.merchantName },
    mode: context.mode,
    decidedByEmail: context.decidedByEmail,
    assignee:
      context.assigneeStaffId === null
        ? null
        : { staffId: context.assigneeStaffId, email: context.assigneeEmail ?? "a former staff member" },
    assignable: !CLOSED_STATUSES.includes(record.status),
    review: reviewPromise(record.status, context.reviewFrom, services.clock()),
    plan,
    remainingCents: Math.max(0, plan.coveredAmountCents - paid - approvedUnpaid),
    order:
      order && delivery
        ? {
            id: order.externalId,
            name: order.orderName,
            source: order.shopify ? "shopify" : "api",
            lines: order.lines,
            shipTo: order.shipTo,
            status: order.status,
            createdAt: iso(order.createdAt),
            refundedAt: order.refundedAt === null ? null : iso(order.refundedAt),
            deliveredAt: order.deliveredAt === null ? null : iso(order.deliveredAt),
            delivery,
          }
        : null,
    evidence: withTimeline.evidence,
    timeline: withTimeline.timeline,
    otherClaims: others.map((other) => ({
      ...other,
      reasonName: reasonName(other.reason),
      createdAt: iso(other.createdAt),
    })),
    replacementAllowed: parseStoredClaimRules(order?.claimRules ?? "{}").replacementAllowed,
    shopifyPayoutJob: job && { status: job.state, attempts: job.attempts },
    paymentRecordable: record.status === "approved" && job?.state === "dead",
    actions: allowedActions(record.status, plan.status),
    // An approval withdrawn because the plan ended has one reason only (canWithdrawApproval).
    denialReasons: canWithdrawApproval(record.status, plan.status)
      ? DENIAL_REASONS.filter((reason) => reason.code === "plan_not_active")
      : DENIAL_REASONS,
  };
}

/**
 * An evidence file of any claim (the console's download and photos, behind a staff session), typed by its bytes read
 * again now: the type stored at upload was sniffed too, but no stored label, old or wrong, decides how a browser
 * treats the bytes. Bytes of no accepted type are application/octet-stream.
 */
export async function readOpsEvidence(
  db: Tx,
  services: Services,
  claimId: string,
  evidenceId: string,
): Promise<EvidenceDownload> {
  const { actor } = await claimActor(db, claimId);
  const file = await readMerchantEvidence(db, services, actor, claimId, evidenceId);
  return { ...file, contentType: sniffEvidenceType(file.bytes)?.contentType ?? "application/octet-stream" };
}

const NOTE_MAX = 2_000;
const note = z.preprocess(
  emptyAsUndefined,
  z.string().trim().max(NOTE_MAX, `At most ${NOTE_MAX} characters.`).optional(),
);
const REFERENCE_MAX = 200;
const DENIAL_CODES = DENIAL_REASONS.map((reason) => reason.code) as [string, ...string[]];

const claimActionSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("start_review") }),
  z.object({
    action: z.literal("approve"),
    remedy: z.preprocess(emptyAsUndefined, z.enum(["refund", "replacement"], "Choose refund or replacement.")),
    note,
  }),
  z.object({
    action: z.literal("deny"),
    code: z.preprocess(emptyAsUndefined, z.enum(DENIAL_CODES, "Choose the reason for the denial.")),
    note,
  }),
  z.object({
    action: z.literal("request_information"),
    message: z
      .string("Write what the buyer should send.")
      .trim()
      .min(1, "Write what the buyer should send.")
      .max(NOTE_MAX, `At most ${NOTE_MAX} characters.`),
  }),
  z.object({ action: z.literal("assign_to_me") }),
  z.object({ action: z.literal("unassign") }),
  z.object({
    action: z.literal("record_payment"),
    reference: z
      .string("Enter the Shopify refund or order number.")
      .trim()
      .min(1, "Enter the Shopify refund or order number.")
      .max(REFERENCE_MAX, `At most ${REFERENCE_MAX} characters.`),
    note,
  }),
]);

export type ClaimActionInput = z.input<typeof claimActionSchema>;

const AUDIT_ACTION: Record<ClaimActionName, AuditAction> = {
  start_review: "claim.review_started",
  approve: "claim.approved",
  deny: "claim.denied",
  request_information: "claim.information_requested",
  record_payment: "claim.payment_recorded",
  assign_to_me: "claim.assigned",
  unassign: "claim.unassigned",
};

const conflict = (code: string, message: string) => new DomainError("conflict", code, message);

/**
 * Records that the merchant paid a Shopify shop's approved claim in the Shopify admin (an admin's action): the claim
 * is paid with the merchant's reference, only once its payout job is dead. The claim is locked first (the plan, then
 * the claim, as the decision functions lock them), so that of two people recording one payment only one does.
 */
async function recordShopifyAdminPayment(
  tx: Tx,
  services: Services,
  staff: StaffPrincipal,
  claim: ClaimRecord,
  input: { reference: string; note?: string },
): Promise<Claim> {
  if (staff.role !== "admin")
    throw new DomainError(
      "forbidden",
      "staff_admin_required",
      "Only an admin can record a payment made in the Shopify admin.",
    );
  await lockClaimPlanFacts(tx, claim.planId);
  const status = await lockClaimStatus(tx, claim.id);
  if (status !== "approved")
    throw conflict("claim_transition_invalid", `Claim '${claim.id}' is ${status}: only an approved claim is paid.`);
  const payout = await findClaimShopifyPayout(tx, claim.id);
  if (!payout)
    throw conflict(
      "claim_not_on_shopify",
      "This claim's merchant is not a Shopify shop: the merchant confirms its payment through the API.",
    );
  if (payout.payout?.state !== "dead")
    throw conflict(
      "claim_payout_in_progress",
      "The app is still paying this claim on Shopify (its payout has not given up). Record a payment made in the Shopify admin only once it has, so that the claim is not paid twice.",
    );
  return resolveClaim(tx, services, claimActorOf(claim), claim.id, {
    channel: "shopify",
    kind: claim.remedy ?? "refund",
    reference: input.reference,
    note: input.note,
  });
}

/**
 * A staff member acts on a claim: the decision function with `by` = this staff member, then the audit entry, both in
 * the caller's transaction — a refused action (bad input, a transition the status does not allow) writes neither.
 * The audit entry holds the claim's owner, the statuses and the decision's code and remedy (a recorded payment: its
 * reference and amount); the note and the message the buyer reads stay on the claim's timeline.
 */
export async function actOnClaim(
  tx: Tx,
  services: Services,
  staff: StaffPrincipal,
  claimId: string,
  input: unknown,
  ip: string,
): Promise<Claim> {
  const action = parseInput(claimActionSchema, input);
  const { actor } = await claimActor(tx, claimId);
  const before = (await findClaim(tx, claimId, actor))!;
  const by: ClaimDecider = { kind: "staff", staffId: staff.id };
  let claim: Claim;
  const detail: AuditDetail = { merchantId: actor.merchantId, mode: actor.mode, from: before.status };
  switch (action.action) {
    case "start_review":
      claim = await startReview(tx, services, actor, claimId, by);
      break;
    case "approve":
      claim = await approveClaim(tx, services, actor, claimId, by, { remedy: action.remedy, note: action.note });
      Object.assign(detail, { remedy: action.remedy, amountCents: claim.amountCents, currency: claim.currency });
      break;
    case "deny":
      claim = await denyClaim(tx, services, actor, claimId, by, { code: action.code, note: action.note });
      break;
    case "request_information":
      claim = await requestInformation(tx, services, actor, claimId, by, { message: action.message });
      break;
    case "assign_to_me":
    case "unassign": {
      if (CLOSED_STATUSES.includes(before.status))
        throw conflict("claim_closed", `Claim '${claimId}' is ${before.status}: there is nothing left to take on.`);
      const { context } = await claimActor(tx, claimId);
      if (action.action === "unassign" && context.assigneeStaffId !== staff.id)
        throw conflict("claim_not_yours", "Only the staff member who took this claim can give it back.");
      await setClaimAssignee(tx, claimId, action.action === "assign_to_me" ? staff.id : null);
      // Who had it before: taking a claim from a colleague is on the record.
      detail.previousAssignee = context.assigneeStaffId;
      claim = toClaim(before);
      break;
    }
    case "record_payment":
      claim = await recordShopifyAdminPayment(tx, services, staff, before, action);
      Object.assign(detail, {
        reference: action.reference,
        amountCents: claim.resolution?.amountCents ?? null,
        currency: claim.currency,
      });
      break;
  }
  if (claim.decision) detail.code = claim.decision.code;
  detail.to = claim.status;
  await appendAudit(tx, services, staff, { action: AUDIT_ACTION[action.action], subject: claimId, detail, ip });
  return claim;
}
