-- Issue 14: the buyer portal. Free-look cancellation time on plans; claims gain when it happened, a decision, the paid
-- amount and an open slot (one open claim per plan and reason); a claim's timeline and evidence; portal sessions; the
-- fee refunds owed after a free-look cancellation; e-mails keyed by occasion (a claim has several), existing rows
-- keyed template:plan as the unique (template, plan_id) they replace.
-- DropIndex
DROP INDEX "email_messages_template_plan_id_key";

-- AlterTable
ALTER TABLE "plans" ADD COLUMN     "cancelled_at" BIGINT;

-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "decided_at" BIGINT,
ADD COLUMN     "decision_code" TEXT,
ADD COLUMN     "decision_message" TEXT,
ADD COLUMN     "occurred_at" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "open_slot" TEXT,
ADD COLUMN     "paid_amount_cents" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "email_messages" ADD COLUMN     "claim_id" TEXT,
ADD COLUMN     "dedupe_key" TEXT;
UPDATE "email_messages" SET "dedupe_key" = "template" || ':' || "plan_id";
ALTER TABLE "email_messages" ALTER COLUMN "dedupe_key" SET NOT NULL;

-- CreateTable
CREATE TABLE "claim_timeline" (
    "id" TEXT NOT NULL,
    "claim_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT,
    "text" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "claim_timeline_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim_evidence" (
    "id" TEXT NOT NULL,
    "claim_id" TEXT NOT NULL,
    "entry_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "byte_size" INTEGER NOT NULL,
    "file_name" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "claim_evidence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portal_sessions" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "expires_at" BIGINT NOT NULL,

    CONSTRAINT "portal_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fee_refunds" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reference" TEXT,
    "last_error" TEXT,
    "created_at" BIGINT NOT NULL,
    "refunded_at" BIGINT,

    CONSTRAINT "fee_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "claim_timeline_claim_id_created_at_idx" ON "claim_timeline"("claim_id", "created_at");

-- CreateIndex
CREATE INDEX "claim_timeline_merchant_id_mode_idx" ON "claim_timeline"("merchant_id", "mode");

-- CreateIndex
CREATE INDEX "claim_evidence_claim_id_idx" ON "claim_evidence"("claim_id");

-- CreateIndex
CREATE INDEX "claim_evidence_sha256_idx" ON "claim_evidence"("sha256");

-- CreateIndex
CREATE INDEX "claim_evidence_merchant_id_mode_idx" ON "claim_evidence"("merchant_id", "mode");

-- CreateIndex
CREATE UNIQUE INDEX "portal_sessions_token_hash_key" ON "portal_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "portal_sessions_expires_at_idx" ON "portal_sessions"("expires_at");

-- CreateIndex
CREATE INDEX "portal_sessions_plan_id_idx" ON "portal_sessions"("plan_id");

-- CreateIndex
CREATE UNIQUE INDEX "fee_refunds_plan_id_key" ON "fee_refunds"("plan_id");

-- CreateIndex
CREATE INDEX "fee_refunds_merchant_id_mode_status_idx" ON "fee_refunds"("merchant_id", "mode", "status");

-- CreateIndex
CREATE UNIQUE INDEX "claims_open_slot_key" ON "claims"("open_slot");

-- CreateIndex
CREATE UNIQUE INDEX "email_messages_dedupe_key_key" ON "email_messages"("dedupe_key");

