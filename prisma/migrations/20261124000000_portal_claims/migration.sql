-- Issue 14: the buyer portal. Free-look cancellation time on plans; claims gain when it happened, a decision, the paid
-- amount and an open slot (one open claim per plan and reason); a claim's timeline and evidence; portal sessions; the
-- fee refunds owed after a free-look cancellation; e-mails keyed by occasion (a claim has several), existing rows
-- keyed template:plan as the unique (template, plan_id) they replace.
-- AlterTable
ALTER TABLE "plans" ADD COLUMN "cancelled_at" BIGINT;

-- CreateTable
CREATE TABLE "claim_timeline" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "claim_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT,
    "text" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "claim_evidence" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "claim_id" TEXT NOT NULL,
    "entry_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "byte_size" INTEGER NOT NULL,
    "file_name" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "portal_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "token_hash" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "expires_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "fee_refunds" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "refunded_at" BIGINT
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_claims" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "occurred_at" BIGINT NOT NULL DEFAULT 0,
    "decision_code" TEXT,
    "decision_message" TEXT,
    "decided_at" BIGINT,
    "paid_amount_cents" INTEGER NOT NULL DEFAULT 0,
    "open_slot" TEXT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL
);
INSERT INTO "new_claims" ("amount_cents", "created_at", "currency", "description", "id", "merchant_id", "mode", "plan_id", "reason", "status", "updated_at") SELECT "amount_cents", "created_at", "currency", "description", "id", "merchant_id", "mode", "plan_id", "reason", "status", "updated_at" FROM "claims";
DROP TABLE "claims";
ALTER TABLE "new_claims" RENAME TO "claims";
CREATE UNIQUE INDEX "claims_open_slot_key" ON "claims"("open_slot");
CREATE INDEX "claims_merchant_id_mode_idx" ON "claims"("merchant_id", "mode");
CREATE INDEX "claims_plan_id_idx" ON "claims"("plan_id");
CREATE TABLE "new_email_messages" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "claim_id" TEXT,
    "dedupe_key" TEXT NOT NULL,
    "recipient_sealed" TEXT,
    "recipient_hash" TEXT,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" BIGINT NOT NULL,
    "locked_until" BIGINT,
    "last_error" TEXT,
    "message_id" TEXT,
    "created_at" BIGINT NOT NULL,
    "sent_at" BIGINT
);
INSERT INTO "new_email_messages" ("attempts", "created_at", "id", "last_error", "locked_until", "merchant_id", "message_id", "mode", "next_attempt_at", "plan_id", "dedupe_key", "recipient_hash", "recipient_sealed", "sent_at", "status", "template") SELECT "attempts", "created_at", "id", "last_error", "locked_until", "merchant_id", "message_id", "mode", "next_attempt_at", "plan_id", "template" || ':' || "plan_id", "recipient_hash", "recipient_sealed", "sent_at", "status", "template" FROM "email_messages";
DROP TABLE "email_messages";
ALTER TABLE "new_email_messages" RENAME TO "email_messages";
CREATE UNIQUE INDEX "email_messages_dedupe_key_key" ON "email_messages"("dedupe_key");
CREATE INDEX "email_messages_status_next_attempt_at_idx" ON "email_messages"("status", "next_attempt_at");
CREATE INDEX "email_messages_merchant_id_mode_idx" ON "email_messages"("merchant_id", "mode");
CREATE INDEX "email_messages_recipient_hash_created_at_idx" ON "email_messages"("recipient_hash", "created_at");
CREATE INDEX "email_messages_merchant_id_created_at_idx" ON "email_messages"("merchant_id", "created_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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

