// A claim as each reader sees it: the merchant (GET /merchant/claims, webhook claim.*) and its buyer in the portal,
// made from the stored claim. Shared by filing (claims.ts) and deciding (claim-decisions.ts), so neither imports the
// other for it.
import { iso } from "./context.ts";
import { reasonName } from "./disclosure.ts";
import { payoutTerms } from "./payout-terms.ts";
import { decisionBasisSentences } from "./decision-basis.ts";
import type { ClaimStatus } from "../vocabulary/claims.ts";
import type {
  ClaimRecord,
  ClaimRemedy,
  EvidenceRecord,
  TimelineActor,
  TimelineEntryRecord,
  TimelineKind,
} from "../store/claims.ts";
import { evidenceDownloadName } from "../evidence/index.ts";

/** A decision as the buyer reads it: its published code and sentence. */
export interface PortalClaimDecision {
  code: string;
  message: string;
  /**
   * What an automatic decision rested on, in the buyer's words (decision-basis.ts): in the service's English, or in
   * the buyer's language on the portal's pages; empty for a person's.
   */
  basis: string[];
  decidedAt: string;
}

/** A decision as the merchant sees it: also whether a rule (which) or the claims team made it — never who in it. */
export interface ClaimDecision extends PortalClaimDecision {
  decidedBy: "rule" | "claims_team";
  ruleId: string | null;
}

/**
 * What an approved claim is owed and how it was paid: what the `claim.updated` event of an approval tells a merchant
 * outside Shopify to do (refund or reship, how much), and, once paid, what was done.
 */
export interface ClaimResolution {
  remedy: ClaimRemedy;
  amountCents: number;
  currency: string;
  /** pending: approved, not yet paid; done: paid. */
  status: "pending" | "done";
  /** shopify: paid by the service on the Shopify order; merchant: the merchant pays and confirms (POST …/resolution). */
  channel: "shopify" | "merchant";
  reference: string | null;
  resolvedAt: string | null;
  /** The last failed attempt to pay it on Shopify, until it is paid. */
  error: string | null;
}

/** A buyer's refund request under a plan, as the merchant sees it (GET /merchant/claims, webhook claim.*). */
export interface Claim {
  id: string;
  object: "claim";
  planId: string;
  /** The claim's number on its plan: what its buyer calls it ("claim 2 on <referenceNumber>", claimName). */
  number: number;
  referenceNumber: string;
  orderId: string;
  reason: string;
  description: string;
  status: ClaimStatus;
  amountCents: number;
  currency: string;
  occurredAt: string;
  decision: ClaimDecision | null;
  resolution: ClaimResolution | null;
  evidenceCount: number;
  createdAt: string;
  updatedAt: string;
  livemode: boolean;
}

/** An evidence file as the portal and the merchant see it (the bytes are fetched separately). */
export interface EvidenceFile {
  id: string;
  contentType: string;
  byteSize: number;
  fileName: string;
  sha256: string;
}

export interface TimelineEntry {
  id: string;
  at: string;
  actor: TimelineActor;
  kind: TimelineKind;
  status: ClaimStatus | null;
  text: string;
  evidence: EvidenceFile[];
}

/**
 * What an approved or paid claim brings its buyer: how much, the remedy, who pays and by when (payoutTerms, the rule
 * the e-mails say too), and once paid, when it was.
 */
export interface PortalClaimPayout {
  remedy: ClaimRemedy;
  amountCents: number;
  currency: string;
  /** pending: approved, to be paid; paid: done. */
  status: "pending" | "paid";
  /** shopify_refund: paid automatically on the Shopify order; merchant: the store pays it itself. */
  payer: "shopify_refund" | "merchant";
  /** The day (UTC, YYYY-MM-DD) by which it is paid: the approval plus the payer's window. */
  dueBy: string;
  paidAt: string | null;
  /** The sentence the buyer reads: who pays, how and by when. */
  terms: string;
}

/** A claim as its buyer sees it in the portal. */
export interface PortalClaim {
  id: string;
  object: "claim";
  /** The claim's number on its plan (1, 2, … in filing order): "claim 2 on <referenceNumber>" (claimName). */
  number: number;
  referenceNumber: string;
  reason: string;
  reasonName: string;
  status: ClaimStatus;
  description: string;
  occurredAt: string;
  amountCents: number;
  currency: string;
  decision: PortalClaimDecision | null;
  payout: PortalClaimPayout | null;
  evidence: EvidenceFile[];
  createdAt: string;
  updatedAt: string;
  livemode: boolean;
}

export type PortalClaimWithTimeline = PortalClaim & { timeline: TimelineEntry[] };

/** The decision as its buyer reads it, its basis in `locale` (the service's English without one). */
const portalDecisionOf = (record: ClaimRecord, locale?: string): PortalClaimDecision | null =>
  record.decisionCode === null || record.decidedAt === null
    ? null
    : {
        code: record.decisionCode,
        message: record.decisionMessage ?? "",
        basis: decisionBasisSentences(record.decisionBasis, record.currency, locale),
        decidedAt: iso(record.decidedAt),
      };

function decisionOf(record: ClaimRecord): ClaimDecision | null {
  const decision = portalDecisionOf(record);
  if (!decision) return null;
  // decided_by is "rule:<rule id>" or "staff:<staff id>"; the staff id stays in the service.
  const ruleId = record.decidedBy?.startsWith("rule:") ? record.decidedBy.slice("rule:".length) : null;
  return { ...decision, decidedBy: ruleId === null ? "claims_team" : "rule", ruleId };
}

function resolutionOf(record: ClaimRecord): ClaimResolution | null {
  if (record.status === "paid" && record.resolution) {
    return {
      remedy: record.resolution.kind,
      amountCents: record.resolution.amountCents,
      currency: record.currency,
      status: "done",
      channel: record.resolution.channel,
      reference: record.resolution.reference,
      resolvedAt: record.resolvedAt === null ? null : iso(record.resolvedAt),
      error: null,
    };
  }
  if (record.status !== "approved") return null;
  return {
    remedy: record.remedy ?? "refund",
    amountCents: record.amountCents,
    currency: record.currency,
    status: "pending",
    channel: record.shopifyMerchant ? "shopify" : "merchant",
    reference: null,
    resolvedAt: null,
    error: record.payoutError,
  };
}

function portalPayoutOf(record: ClaimRecord): PortalClaimPayout | null {
  const resolution = resolutionOf(record);
  if (!resolution || record.decidedAt === null) return null;
  const terms = payoutTerms(resolution.channel, record.decidedAt, resolution.remedy);
  return {
    remedy: resolution.remedy,
    amountCents: resolution.amountCents,
    currency: resolution.currency,
    status: resolution.status === "done" ? "paid" : "pending",
    payer: terms.payer,
    dueBy: iso(terms.dueByMs).slice(0, 10),
    paidAt: resolution.resolvedAt,
    terms: terms.sentence(record.merchantName),
  };
}

export const toEvidenceFile = (record: EvidenceRecord): EvidenceFile => ({
  id: record.id,
  contentType: record.contentType,
  byteSize: record.byteSize,
  // Files stored before issue 26 kept the buyer's extension: named here as new ones are stored.
  fileName: evidenceDownloadName(record.fileName, record.contentType),
  sha256: record.sha256,
});

export function toTimelineEntry(entry: TimelineEntryRecord, evidence: readonly EvidenceRecord[]): TimelineEntry {
  return {
    id: entry.id,
    at: iso(entry.createdAt),
    actor: entry.actor,
    kind: entry.kind,
    status: entry.status,
    text: entry.text,
    evidence: evidence.filter((file) => file.entryId === entry.id).map(toEvidenceFile),
  };
}

/** The claim as its buyer reads it; `locale` writes its decision's basis (decision-basis.ts), else English. */
export function toPortalClaim(record: ClaimRecord, evidence: readonly EvidenceRecord[], locale?: string): PortalClaim {
  return {
    id: record.id,
    object: "claim",
    number: record.number,
    referenceNumber: record.referenceNumber,
    reason: record.reason,
    reasonName: reasonName(record.reason),
    status: record.status,
    description: record.description,
    occurredAt: iso(record.occurredAt),
    amountCents: record.amountCents,
    currency: record.currency,
    decision: portalDecisionOf(record, locale),
    payout: portalPayoutOf(record),
    evidence: evidence.filter((file) => file.claimId === record.id).map(toEvidenceFile),
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    livemode: record.mode === "live",
  };
}

export function toClaim(record: ClaimRecord): Claim {
  return {
    id: record.id,
    object: "claim",
    planId: record.planId,
    number: record.number,
    referenceNumber: record.referenceNumber,
    orderId: record.orderId,
    reason: record.reason,
    description: record.description,
    status: record.status,
    amountCents: record.amountCents,
    currency: record.currency,
    occurredAt: iso(record.occurredAt),
    decision: decisionOf(record),
    resolution: resolutionOf(record),
    evidenceCount: record.evidenceCount,
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    livemode: record.mode === "live",
  };
}
