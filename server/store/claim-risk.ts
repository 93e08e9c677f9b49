// What a claim's risk assessment reads (server/domain/claim-risk.ts) and where it is kept: the buyer's other claims by
// the keyed hashes of their e-mail and shipping address (plans.customer_email_hash, plans.shipping_address_hash; never
// either in clear), the order's risk as its store platform assessed it (plans.order_risk), photos seen on other claims by their
// exact hash (claim_evidence.sha256) and by the bands of their perceptual hash (claim_evidence_hash_bands), and the
// assessment itself (claim_risk_assessments, one row a claim, replaced when recomputed). Within one mode: test claims
// never weigh on live ones.
import type { Actor } from "../vocabulary/actors.ts";
import type { RiskLevel } from "../vocabulary/claims.ts";
import type { OrderRisk } from "../vocabulary/orders.ts";
import { placeholders, type Queryable } from "./database.ts";
import { DAY_MS } from "../vocabulary/time.ts";

/** The buyer's other claims: how many in the last 7 and 365 days, and of the latter how many each hash found. */
export interface BuyerClaimCounts {
  last7Days: number;
  last365Days: number;
  byEmail: number;
  byAddress: number;
}

/**
 * The buyer's claims other than this one, with any merchant, filed in the last 7 and 365 days before `at`: on a plan
 * with the buyer's e-mail hash or their shipping address hash (a claim on a plan with both counts once).
 */
export async function countOtherClaimsByBuyer(
  tx: Queryable,
  query: { mode: string; emailHash: string | null; addressHash: string | null; claimId: string; at: number },
): Promise<BuyerClaimCounts> {
  const byEmail = "p.customer_email_hash = ?";
  const byAddress = "p.shipping_address_hash = ?";
  const row = await tx.get<{
    week: number | string | null;
    year: number | string;
    by_email: number | string | null;
    by_address: number | string | null;
  }>(
    `SELECT SUM(CASE WHEN c.created_at >= ? THEN 1 ELSE 0 END) AS week, COUNT(*) AS year,
            SUM(CASE WHEN ${byEmail} THEN 1 ELSE 0 END) AS by_email,
            SUM(CASE WHEN ${byAddress} THEN 1 ELSE 0 END) AS by_address
       FROM plans p JOIN claims c ON c.plan_id = p.id
      WHERE (${byEmail} OR ${byAddress}) AND c.mode = ? AND c.id <> ? AND c.created_at >= ? AND c.created_at <= ?`,
    [
      query.at - 7 * DAY_MS,
      query.emailHash,
      query.addressHash,
      query.emailHash,
      query.addressHash,
      query.mode,
      query.claimId,
      query.at - 365 * DAY_MS,
      query.at,
    ],
  );
  return {
    last7Days: Number(row?.week ?? 0),
    last365Days: Number(row?.year ?? 0),
    byEmail: Number(row?.by_email ?? 0),
    byAddress: Number(row?.by_address ?? 0),
  };
}

/** Keeps the order's risk as its store platform last assessed it (replacing what was kept). */
export async function saveOrderRisk(tx: Queryable, planId: string, risk: OrderRisk): Promise<void> {
  await tx.run("UPDATE plans SET order_risk = ? WHERE id = ?", [JSON.stringify(risk), planId]);
}

/** The claim's photos that are the same file as a photo of another claim, with the other claim's merchant. */
export async function findExactPhotoMatches(
  tx: Queryable,
  claimId: string,
): Promise<{ evidenceId: string; otherMerchantId: string }[]> {
  const rows = await tx.all<{ evidence_id: string; other_merchant_id: string }>(
    `SELECT DISTINCT mine.id AS evidence_id, other.merchant_id AS other_merchant_id
       FROM claim_evidence mine JOIN claim_evidence other
         ON other.sha256 = mine.sha256 AND other.mode = mine.mode AND other.claim_id <> mine.claim_id
      WHERE mine.claim_id = ? AND mine.content_type LIKE 'image/%'`,
    [claimId],
  );
  return rows.map((row) => ({ evidenceId: row.evidence_id, otherMerchantId: row.other_merchant_id }));
}

/** Photos of other claims sharing a band with one of this claim's: the candidates for a near-same picture. */
export async function findPhotoCandidates(
  tx: Queryable,
  claimId: string,
): Promise<{ evidenceId: string; hash: string; otherHash: string; otherMerchantId: string }[]> {
  const rows = await tx.all<{ evidence_id: string; hash: string; other_hash: string; other_merchant_id: string }>(
    `SELECT DISTINCT mine_e.id AS evidence_id, mine_e.perceptual_hash AS hash,
            other_e.perceptual_hash AS other_hash, other_e.merchant_id AS other_merchant_id
       FROM claim_evidence_hash_bands mine
       JOIN claim_evidence_hash_bands other
         ON other.mode = mine.mode AND other.band = mine.band AND other.value = mine.value AND other.claim_id <> mine.claim_id
       JOIN claim_evidence mine_e ON mine_e.id = mine.evidence_id
       JOIN claim_evidence other_e ON other_e.id = other.evidence_id
      WHERE mine.claim_id = ?`,
    [claimId],
  );
  return rows.map((row) => ({
    evidenceId: row.evidence_id,
    hash: row.hash,
    otherHash: row.other_hash,
    otherMerchantId: row.other_merchant_id,
  }));
}

export async function insertEvidenceHashBands(
  tx: Queryable,
  owner: Actor,
  evidence: { evidenceId: string; claimId: string; bands: readonly string[] },
): Promise<void> {
  if (evidence.bands.length === 0) return;
  await tx.run(
    `INSERT INTO claim_evidence_hash_bands (evidence_id, band, value, claim_id, merchant_id, mode) VALUES ${evidence.bands
      .map(() => "(?, ?, ?, ?, ?, ?)")
      .join(", ")}`,
    evidence.bands.flatMap((value, band) => [
      evidence.evidenceId,
      band,
      value,
      evidence.claimId,
      owner.merchantId,
      owner.mode,
    ]),
  );
}

export interface RiskAssessmentRecord {
  claimId: string;
  score: number;
  level: RiskLevel;
  /** The signals, as the domain shaped them. */
  signals: unknown[];
  assessedAt: number;
}

export async function saveRiskAssessment(tx: Queryable, owner: Actor, assessment: RiskAssessmentRecord): Promise<void> {
  await tx.run(
    `INSERT INTO claim_risk_assessments (claim_id, merchant_id, mode, score, level, signals, assessed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (claim_id) DO UPDATE SET score = excluded.score, level = excluded.level, signals = excluded.signals,
       assessed_at = excluded.assessed_at`,
    [
      assessment.claimId,
      owner.merchantId,
      owner.mode,
      assessment.score,
      assessment.level,
      JSON.stringify(assessment.signals),
      assessment.assessedAt,
    ],
  );
}

/** The claims' assessments, by claim id; a claim assessed never (filed before issue 31) is absent. */
export async function findRiskAssessments(
  tx: Queryable,
  claimIds: readonly string[],
): Promise<Map<string, RiskAssessmentRecord>> {
  if (claimIds.length === 0) return new Map();
  const rows = await tx.all<{
    claim_id: string;
    score: number | string;
    level: RiskLevel;
    signals: string;
    assessed_at: number | string;
  }>(
    `SELECT claim_id, score, level, signals, assessed_at FROM claim_risk_assessments WHERE claim_id IN (${placeholders(claimIds)})`,
    [...claimIds],
  );
  return new Map(
    rows.map((row) => [
      row.claim_id,
      {
        claimId: row.claim_id,
        score: Number(row.score),
        level: row.level,
        signals: JSON.parse(row.signals),
        assessedAt: Number(row.assessed_at),
      },
    ]),
  );
}
