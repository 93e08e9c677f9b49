// Claims: a buyer's refund requests under a plan, filed and followed through the portal (docs/api.md "Claims"). The
// filing rules and the evidence quotas are checked here, in the transaction; the evidence files are recognised,
// stripped and written aside before it opens (prepareEvidence), so that no lock is held while bytes are hashed and
// written, and moved to their address only once every check has passed. Once filed, the program's claim rules decide
// what they can (claim-rules.ts); every later status change is claim-decisions.ts's.
import path from "node:path";
import { newId } from "./ids.ts";
import type { ClaimStatus } from "../vocabulary/claims.ts";
import { DomainError, notFound } from "./errors.ts";
import { iso, type Services, type Tx } from "./context.ts";
import type { Actor } from "../vocabulary/actors.ts";
import { COVERED_REASONS } from "./disclosure.ts";
import { CLAIM_WINDOW_DAYS, claimWindowOf, evaluateClaimRules, parseStoredClaimRules } from "./claim-rules.ts";
import { approveClaim, coverageLeftFor, denyClaim } from "./claim-decisions.ts";
import { recordClaimRisk } from "./claim-risk-record.ts";
import { deliveryOfPlan, planDeliveredAt } from "./shipments.ts";
import { appendEvent } from "./events.ts";
import {
  toClaim,
  toEvidenceFile,
  toPortalClaim,
  toTimelineEntry,
  type Claim,
  type EvidenceFile,
  type PortalClaim,
  type PortalClaimWithTimeline,
  type TimelineEntry,
} from "./claim-views.ts";
import { queueEmail } from "./emails.ts";
import type { Page, PageQuery } from "../vocabulary/pages.ts";
import { DAY_MS } from "../vocabulary/time.ts";
import {
  CLOSED_CLAIM_STATUSES,
  evidenceUsage,
  findClaim,
  findEvidence,
  findOpenClaimId,
  insertClaim,
  insertEvidence,
  insertTimelineEntry,
  listClaimsPage,
  listEvidence,
  listTimeline,
  lockClaimablePlan,
  lockClaimPlanFacts,
  lockClaimStatus,
  sumPaidOnPlan,
  touchClaim,
  updateClaimStatus,
  type ClaimFilters,
  type ClaimRecord,
  type TimelineActor,
  type TimelineKind,
} from "../store/claims.ts";
import { findPlanByReference, lockPlan } from "../store/plans.ts";
import { insertEvidenceHashBands } from "../store/claim-risk.ts";
import {
  EVIDENCE_LIMITS,
  EVIDENCE_QUOTAS,
  EvidenceUnsupportedError,
  evidenceDownloadName,
  hashBands,
  perceptualHash,
  sniffEvidenceType,
  stripImageMetadata,
  type EvidenceContentType,
  type EvidenceStore,
  type StagedEvidence,
} from "../evidence/index.ts";

export type { ClaimFilters };

export { CLAIM_WINDOW_DAYS };
/** The time zone furthest ahead of UTC (Line Islands, UTC+14): where a day begins first. */
const EARLIEST_ZONE_AHEAD_MS = 14 * 60 * 60 * 1000;
const MiB = 1024 * 1024;

/** Who acts in the portal: a signed-in buyer, for one plan of one merchant. */
export interface PortalCaller extends Actor {
  planId: string;
  /** The buyer's portal session, whose evidence quota their files count against (none: the service's own filing). */
  sessionId?: string;
}

/** A file as the request brought it (multipart), before anything is known of its bytes. */
export interface UploadedFile {
  /** The form field it came in (`evidence`) and its position among the request's files, for errors. */
  field: string;
  index: number;
  /** The name the buyer's device gave it: display only. */
  fileName: string;
  bytes: Uint8Array;
}

/**
 * A file recognised and stripped, its bytes staged: the transaction that records it keeps them once every check has
 * passed; releaseEvidence discards them otherwise.
 */
export interface PreparedEvidence {
  contentType: string;
  fileName: string;
  staged: StagedEvidence;
  /** A photo's perceptual hash (near-same pictures on other claims are a risk signal); null when not decoded. */
  perceptualHash: string | null;
}

export interface EvidenceDownload {
  bytes: Uint8Array;
  contentType: string;
  fileName: string;
}

function evidenceStoreOf(services: Services): EvidenceStore {
  if (!services.evidence) throw new Error("No evidence store is configured (Services.evidence).");
  return services.evidence;
}

const unprocessable = (code: string, message: string, field?: string) =>
  new DomainError("unprocessable", code, message, field);

/** `evidence[2]`: the form field and the file's position, as a refused file's `param`. */
const fileParam = (file: UploadedFile) => `${file.field}[${file.index}]`;

/**
 * Checks, recognises by their bytes, strips of metadata (Exif GPS…) and stages the request's files. Runs before the
 * transaction; the transaction keeps the staged bytes only once every filing rule and quota has passed
 * (addEvidenceRows), and releaseEvidence, run after the request whatever its outcome, discards the rest: a refused
 * request leaves no file behind. (Removing a kept file instead could race a concurrent request that kept the same
 * bytes: the store is content-addressed.)
 */
export async function prepareEvidence(services: Services, files: readonly UploadedFile[]): Promise<PreparedEvidence[]> {
  if (files.length > EVIDENCE_LIMITS.maxFiles) {
    throw unprocessable(
      "too_many_evidence_files",
      `At most ${EVIDENCE_LIMITS.maxFiles} evidence files may be sent at once; this request has ${files.length}.`,
      files[0]?.field ?? "evidence",
    );
  }
  const tooLarge = files.find((file) => file.bytes.byteLength > EVIDENCE_LIMITS.maxFileBytes);
  if (tooLarge) {
    throw unprocessable(
      "evidence_too_large",
      `Evidence files are limited to ${EVIDENCE_LIMITS.maxFileBytes} bytes (10 MiB) each.`,
      fileParam(tooLarge),
    );
  }
  const stripped = files.map((file) => {
    const unsupported = () =>
      unprocessable(
        "evidence_type_unsupported",
        "Evidence must be a JPEG, PNG, WebP or HEIC image or a PDF (recognised by its contents, not its name).",
        fileParam(file),
      );
    const type = sniffEvidenceType(file.bytes);
    if (!type) throw unsupported();
    try {
      return { file, type, bytes: stripImageMetadata(file.bytes, type.contentType) };
    } catch (error) {
      if (error instanceof EvidenceUnsupportedError) throw unsupported();
      throw error;
    }
  });
  const store = evidenceStoreOf(services);
  const prepared: PreparedEvidence[] = [];
  try {
    for (const { file, type, bytes } of stripped) {
      prepared.push({
        contentType: type.contentType,
        fileName: displayFileName(file.fileName, type.contentType, file.index),
        staged: await store.stage(bytes),
        perceptualHash: await perceptualHash(bytes, type.contentType),
      });
    }
  } catch (error) {
    await releaseEvidence(prepared);
    throw error;
  }
  return prepared;
}

/** Discards the staged bytes the request did not keep (kept ones stay): after the request, whatever its outcome. */
export async function releaseEvidence(evidence: readonly PreparedEvidence[]): Promise<void> {
  await Promise.all(evidence.map((file) => file.staged.discard()));
}

/**
 * The buyer's file name, safe to show and to download under: no folders, no control or bidi characters, the
 * extension of the type the bytes are (evidenceDownloadName), at most 200 characters; a placeholder when nothing is
 * left. Never used as a path (the store addresses files by their SHA-256).
 */
export function displayFileName(name: string, contentType: EvidenceContentType, index: number): string {
  const base = path.posix.basename(name.replace(/\\/g, "/"));
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069"]/g, "").trim();
  const visible = cleaned === "." || cleaned === ".." ? "" : cleaned;
  return evidenceDownloadName(visible || `evidence-${index + 1}`, contentType);
}

export interface FileClaimInput {
  referenceNumber: string;
  reason: string;
  /** When what the claim is about happened (epoch ms, UTC). */
  occurredAt: number;
  /** `occurredAt` names a day (YYYY-MM-DD: its 00:00 UTC), not an instant. */
  occurredOnDay?: boolean;
  description: string;
  amountCents?: number;
}

/** Files a buyer's claim under the session's plan; checks every filing rule and writes nothing when one fails. */
export async function fileClaim(
  tx: Tx,
  services: Services,
  caller: PortalCaller,
  input: FileClaimInput,
  evidence: readonly PreparedEvidence[] = [],
): Promise<PortalClaimWithTimeline> {
  const plan = await lockClaimablePlan(tx, caller, caller.planId);
  if (!plan || plan.referenceNumber !== input.referenceNumber)
    throw notFound("plan", input.referenceNumber, "referenceNumber");
  if (!(COVERED_REASONS as readonly string[]).includes(input.reason)) {
    throw unprocessable("reason_not_covered", `'${input.reason}' is not one of the covered reasons.`, "reason");
  }
  if (plan.status !== "active")
    throw new DomainError("conflict", "plan_not_active", `Plan '${plan.referenceNumber}' is ${plan.status}.`);
  const now = services.clock();
  // A day is in the future only when it has begun nowhere yet: the buyer's today may be tomorrow in UTC (UTC+14).
  const occurredFrom = input.occurredOnDay ? input.occurredAt - EARLIEST_ZONE_AHEAD_MS : input.occurredAt;
  if (occurredFrom > now) throw unprocessable("occurred_in_future", "occurredAt is in the future.", "occurredAt");
  // A day (YYYY-MM-DD) is before the purchase only when it ended before it: the purchase day itself is allowed.
  const occurredUntil = input.occurredOnDay ? input.occurredAt + DAY_MS - 1 : input.occurredAt;
  if (occurredUntil < plan.purchasedAt)
    throw unprocessable(
      "occurred_before_purchase",
      `occurredAt is before the protected purchase (${iso(plan.purchasedAt)}).`,
      "occurredAt",
    );
  const window = claimWindowOf(input.reason, input.occurredAt, await planDeliveredAt(tx, services, plan.id));
  if (now > window.endsAt)
    throw unprocessable(
      "claim_window_expired",
      window.from === "delivery"
        ? `Claims for '${input.reason}' are filed within ${CLAIM_WINDOW_DAYS} days of the order's delivery; the carrier delivered it at ${iso(window.startsAt)}.`
        : `Claims are filed within ${CLAIM_WINDOW_DAYS} days of what happened; ${iso(input.occurredAt)} is longer ago.`,
      window.from === "delivery" ? "reason" : "occurredAt",
    );
  const alreadyOpen = () =>
    new DomainError(
      "conflict",
      "claim_already_open",
      `An open claim for '${input.reason}' already exists on this plan; add a message to it instead.`,
      "reason",
    );
  if (await findOpenClaimId(tx, plan.id, input.reason)) throw alreadyOpen();
  const remaining = plan.coveredAmountCents - (await sumPaidOnPlan(tx, plan.id));
  const amountCents = input.amountCents ?? remaining;
  if (amountCents > remaining || amountCents <= 0)
    throw unprocessable(
      "amount_exceeds_remaining",
      `The amount may be at most ${Math.max(remaining, 0)} (the covered amount less what earlier claims were paid).`,
      "amountCents",
    );

  const id = newId("clm", now, services.random);
  const inserted = await insertClaim(tx, caller, {
    id,
    planId: plan.id,
    reason: input.reason,
    description: input.description,
    amountCents,
    currency: plan.currency,
    occurredAt: input.occurredAt,
    createdAt: now,
  });
  // A concurrent filing for the same plan and reason committed between the check and the insert.
  if (!inserted) throw alreadyOpen();
  const entryId = await addTimelineEntry(tx, services, caller, id, { actor: "buyer", kind: "submitted", text: "" });
  await addEvidenceRows(tx, services, caller, id, entryId, evidence);
  const record = (await findClaim(tx, id))!;
  await appendEvent(tx, services, caller, "claim.created", toClaim(record));
  if (plan.customerEmailSealed && plan.customerEmailHash) {
    await queueEmail(tx, services, caller, {
      template: "claim_received",
      planId: plan.id,
      claimId: id,
      occasion: entryId,
      recipient: { sealed: plan.customerEmailSealed, hash: plan.customerEmailHash },
    });
  }
  await applyClaimRules(tx, services, caller, record);
  return withTimeline(tx, (await findClaim(tx, id))!);
}

/**
 * The program's claim rules decide the claim just filed where they can (a denial or an approval, recorded with the
 * rule's id); otherwise it stays submitted, in the claims team's queue.
 */
async function applyClaimRules(tx: Tx, services: Services, actor: Actor, claim: ClaimRecord): Promise<void> {
  const plan = (await lockClaimPlanFacts(tx, claim.planId))!;
  const risk = await recordClaimRisk(tx, services, claim, plan);
  const delivery = await deliveryOfPlan(tx, services, claim.planId);
  const outcome = evaluateClaimRules(parseStoredClaimRules(plan.claimRules), {
    reason: claim.reason,
    amountCents: claim.amountCents,
    currency: claim.currency,
    remainingCents: await coverageLeftFor(tx, plan, claim.id),
    planStatus: plan.planStatus,
    planEndedAt: plan.planEndedAt,
    purchasedAt: plan.purchasedAt,
    occurredAt: claim.occurredAt,
    filedAt: claim.createdAt,
    deliveredAt: plan.deliveredAt,
    riskLevel: risk.level,
    delivery,
  });
  if (outcome.decision === "review") return;
  const by = { kind: "rule", ruleId: outcome.ruleId, basis: outcome.basis } as const;
  if (outcome.decision === "deny") await denyClaim(tx, services, actor, claim.id, by, { code: outcome.code });
  else await approveClaim(tx, services, actor, claim.id, by, {});
}

/**
 * The buyer adds a message (and files) to their claim. A claim waiting for information goes back to review
 * (`claim.updated`); a closed claim (paid or denied) takes nothing more.
 */
export async function addClaimMessage(
  tx: Tx,
  services: Services,
  caller: PortalCaller,
  claimId: string,
  input: { message: string },
  evidence: readonly PreparedEvidence[] = [],
): Promise<PortalClaimWithTimeline> {
  // Files count against the plan's evidence quota: its row is locked first (plan, then claim, as decisions lock).
  if (evidence.length > 0) await lockPlan(tx, caller, { planId: caller.planId });
  const status = (await ownedClaim(tx, caller, claimId)) && (await lockClaimStatus(tx, claimId));
  if (!status) throw notFound("claim", claimId, "claimId");
  if (CLOSED_CLAIM_STATUSES.includes(status))
    throw new DomainError("conflict", "claim_closed", `Claim '${claimId}' is ${status}: it takes no more messages.`);
  const now = services.clock();
  const entryId = await addTimelineEntry(tx, services, caller, claimId, {
    actor: "buyer",
    kind: "message",
    text: input.message,
  });
  await addEvidenceRows(tx, services, caller, claimId, entryId, evidence);
  // New photos are new facts: the claims team sees the claim's risk as it now stands (no rule decides again).
  if (evidence.length > 0) {
    const claim = (await findClaim(tx, claimId))!;
    await recordClaimRisk(tx, services, claim, (await lockClaimPlanFacts(tx, claim.planId))!);
  }
  if (status === "needs_information") {
    await updateClaimStatus(tx, claimId, "under_review", now);
    await addTimelineEntry(tx, services, caller, claimId, {
      actor: "service",
      kind: "status_changed",
      status: "under_review",
      text: "",
    });
    await appendEvent(tx, services, caller, "claim.updated", toClaim((await findClaim(tx, claimId))!));
  } else {
    await touchClaim(tx, claimId, now);
  }
  return withTimeline(tx, (await findClaim(tx, claimId))!);
}

/** The session plan's claims, newest first. */
export async function listPlanClaims(db: Tx, caller: PortalCaller, query: PageQuery): Promise<Page<PortalClaim>> {
  const page = await listClaimsPage(db, caller, { ...query, planId: caller.planId });
  const evidence = await listEvidence(
    db,
    page.data.map((claim) => claim.id),
  );
  return { ...page, data: page.data.map((claim) => toPortalClaim(claim, evidence)) };
}

/**
 * One claim of the session's plan with its timeline; another plan's claim does not exist for this buyer. `locale`
 * (the portal's pages: the buyer's) writes its decision's basis; without it, the service's English (the API, the
 * claims console).
 */
export async function getPortalClaim(
  db: Tx,
  caller: PortalCaller,
  claimId: string,
  locale?: string,
): Promise<PortalClaimWithTimeline> {
  const claim = await ownedClaim(db, caller, claimId);
  if (!claim) throw notFound("claim", claimId, "claimId");
  return withTimeline(db, claim, locale);
}

/** An evidence file of a claim of the session's plan. */
export async function readPortalEvidence(
  db: Tx,
  services: Services,
  caller: PortalCaller,
  claimId: string,
  evidenceId: string,
): Promise<EvidenceDownload> {
  const claim = await ownedClaim(db, caller, claimId);
  return readEvidence(db, services, claim, claimId, evidenceId);
}

/** An evidence file of one of the merchant's claims (secret key). */
export async function readMerchantEvidence(
  db: Tx,
  services: Services,
  actor: Actor,
  claimId: string,
  evidenceId: string,
): Promise<EvidenceDownload> {
  return readEvidence(db, services, await findClaim(db, claimId, actor), claimId, evidenceId);
}

/** One of the merchant's claims with its evidence files and its timeline (the dashboard's claim page). */
export async function getMerchantClaim(
  db: Tx,
  actor: Actor,
  claimId: string,
): Promise<Claim & { evidence: EvidenceFile[]; timeline: TimelineEntry[] }> {
  const claim = await findClaim(db, claimId, actor);
  if (!claim) throw notFound("claim", claimId, "claimId");
  const { evidence, timeline } = await withTimeline(db, claim);
  return { ...toClaim(claim), evidence, timeline };
}

/** One of the actor's claims. */
export async function getClaim(db: Tx, actor: Actor, claimId: string): Promise<Claim> {
  const claim = await findClaim(db, claimId, actor);
  if (!claim) throw notFound("claim", claimId, "claimId");
  return toClaim(claim);
}

export async function listClaims(db: Tx, actor: Actor, query: PageQuery & ClaimFilters): Promise<Page<Claim>> {
  const page = await listClaimsPage(db, actor, query);
  return { ...page, data: page.data.map(toClaim) };
}

/**
 * Files a claim as the buyer of the plan with this reference number, occurred now (the demo's seed and tests of the
 * merchant listings; buyers file through fileClaim).
 */
export async function submitClaim(
  tx: Tx,
  services: Services,
  actor: Actor,
  input: { referenceNumber: string; reason: string; description?: string },
  /** The buyer's files, counted against this portal session's quota (the demo's sample photo). */
  filedWith?: { evidence: readonly PreparedEvidence[]; sessionId: string },
): Promise<Claim> {
  const plan = await findPlanByReference(tx, actor, input.referenceNumber);
  if (!plan) throw notFound("plan", input.referenceNumber, "referenceNumber");
  const filed = await fileClaim(
    tx,
    services,
    { ...actor, planId: plan.id, sessionId: filedWith?.sessionId },
    { ...input, description: input.description ?? "", occurredAt: services.clock() },
    filedWith?.evidence,
  );
  return toClaim((await findClaim(tx, filed.id))!);
}

async function ownedClaim(db: Tx, caller: PortalCaller, claimId: string): Promise<ClaimRecord | undefined> {
  const claim = await findClaim(db, claimId, caller);
  return claim?.planId === caller.planId ? claim : undefined;
}

async function readEvidence(
  db: Tx,
  services: Services,
  claim: ClaimRecord | undefined,
  claimId: string,
  evidenceId: string,
): Promise<EvidenceDownload> {
  if (!claim) throw notFound("claim", claimId, "claimId");
  const evidence = await findEvidence(db, claim.id, evidenceId);
  if (!evidence) throw notFound("evidence", evidenceId, "evidenceId");
  const bytes = await evidenceStoreOf(services).get(evidence.sha256);
  if (!bytes) throw new Error(`Evidence ${evidence.id} has no bytes in the evidence store (${evidence.sha256}).`);
  return { bytes, contentType: evidence.contentType, fileName: toEvidenceFile(evidence).fileName };
}

async function addTimelineEntry(
  tx: Tx,
  services: Services,
  actor: Actor,
  claimId: string,
  entry: { actor: TimelineActor; kind: TimelineKind; status?: ClaimStatus; text: string },
): Promise<string> {
  const now = services.clock();
  const id = newId("cte", now, services.random);
  await insertTimelineEntry(tx, actor, { id, claimId, ...entry, status: entry.status ?? null, createdAt: now });
  return id;
}

/**
 * Checks the evidence quotas (EVIDENCE_QUOTAS) and records the files, keeping their staged bytes: the last step of a
 * filing or message that can refuse, so a refused request keeps no file. The caller holds the plan's row lock, which
 * every evidence insert of the plan takes first, so concurrent requests cannot together pass a quota.
 */
async function addEvidenceRows(
  tx: Tx,
  services: Services,
  caller: PortalCaller,
  claimId: string,
  entryId: string,
  evidence: readonly PreparedEvidence[],
): Promise<void> {
  if (evidence.length === 0) return;
  const { sessionId } = caller;
  if (sessionId === undefined) throw new Error("Evidence is added in a portal session only (its quota counts by it).");
  const usage = await evidenceUsage(tx, caller.planId, claimId, sessionId);
  const files = evidence.length;
  const bytes = evidence.reduce((sum, file) => sum + file.staged.byteSize, 0);
  for (const scope of ["claim", "plan", "session"] as const) {
    const quota = EVIDENCE_QUOTAS[scope];
    const used = usage[scope];
    if (used.files + files > quota.maxFiles || used.bytes + bytes > quota.maxBytes)
      throw new DomainError(
        "conflict",
        "evidence_quota_exceeded",
        `A ${scope === "session" ? "portal session" : scope} may hold at most ${quota.maxFiles} evidence files and ` +
          `${quota.maxBytes / MiB} MiB; this one holds ${used.files} (${used.bytes} bytes) and these would add ` +
          `${files} (${bytes} bytes).`,
        "evidence",
      );
  }
  const now = services.clock();
  // Ids of one millisecond differ only in their random part: sorted, they keep the files in the order they were sent.
  const ids = evidence.map(() => newId("evd", now, services.random)).sort();
  for (const [index, { staged, contentType, fileName, perceptualHash }] of evidence.entries()) {
    await staged.keep();
    await insertEvidence(tx, caller, {
      id: ids[index],
      claimId,
      entryId,
      sha256: staged.sha256,
      byteSize: staged.byteSize,
      contentType,
      fileName,
      sessionId,
      perceptualHash,
      createdAt: now,
    });
    if (perceptualHash)
      await insertEvidenceHashBands(tx, caller, { evidenceId: ids[index], claimId, bands: hashBands(perceptualHash) });
  }
}

async function withTimeline(db: Tx, claim: ClaimRecord, locale?: string): Promise<PortalClaimWithTimeline> {
  const [entries, evidence] = await Promise.all([listTimeline(db, claim.id), listEvidence(db, [claim.id])]);
  return {
    ...toPortalClaim(claim, evidence, locale),
    timeline: entries.map((entry) => toTimelineEntry(entry, evidence)),
  };
}
