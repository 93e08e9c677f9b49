-- Issue 31: a claim's risk assessment (named fraud signals, recomputed when its facts change) and the evidence
-- photos' perceptual hashes, split into bands so that a near-same photo is found by an indexed look-up.

-- AlterTable
ALTER TABLE "claim_evidence" ADD COLUMN "perceptual_hash" TEXT;

-- CreateTable
CREATE TABLE "claim_evidence_hash_bands" (
    "evidence_id" TEXT NOT NULL,
    "band" INTEGER NOT NULL,
    "value" TEXT NOT NULL,
    "claim_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,

    PRIMARY KEY ("evidence_id", "band")
);

-- CreateTable
CREATE TABLE "claim_risk_assessments" (
    "claim_id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "level" TEXT NOT NULL,
    "signals" TEXT NOT NULL,
    "assessed_at" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "claim_evidence_hash_bands_mode_band_value_idx" ON "claim_evidence_hash_bands"("mode", "band", "value");

-- CreateIndex
CREATE INDEX "claim_evidence_hash_bands_claim_id_idx" ON "claim_evidence_hash_bands"("claim_id");

-- CreateIndex
CREATE INDEX "claim_evidence_hash_bands_merchant_id_mode_idx" ON "claim_evidence_hash_bands"("merchant_id", "mode");

-- CreateIndex
CREATE INDEX "claim_risk_assessments_merchant_id_mode_level_idx" ON "claim_risk_assessments"("merchant_id", "mode", "level");
