-- Issue 26: each evidence file records the portal session that uploaded it, for the per-session evidence quota.

-- AlterTable
ALTER TABLE "claim_evidence" ADD COLUMN "session_id" TEXT;

-- CreateIndex
CREATE INDEX "claim_evidence_session_id_idx" ON "claim_evidence"("session_id");
