-- Issue 26: the e-mail caps hold back only what an outsider can trigger, each kind within its own budget
-- (email_messages.cap_budget; null: the service's own notices, never capped); and a dashboard sign-up waits in
-- member_sign_ups until its address is confirmed.

-- DropIndex
DROP INDEX "email_messages_recipient_hash_created_at_status_idx";

-- DropIndex
DROP INDEX "email_messages_merchant_id_created_at_status_idx";

-- AlterTable
ALTER TABLE "email_messages" ADD COLUMN     "cap_budget" TEXT;

-- The budgets of the e-mails already queued (a claim's decision counts as the service's own: which decider made it
-- is not on the row).
UPDATE "email_messages" SET "cap_budget" = 'confirm' WHERE "template" = 'welcome_protected';
UPDATE "email_messages" SET "cap_budget" = 'portal' WHERE "template" IN ('free_look_cancelled', 'claim_received');

-- CreateTable
CREATE TABLE "member_sign_ups" (
    "token_hash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "business_name" TEXT NOT NULL,
    "expires_at" BIGINT NOT NULL,
    "used_at" BIGINT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "member_sign_ups_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE INDEX "member_sign_ups_expires_at_idx" ON "member_sign_ups"("expires_at");

-- CreateIndex
CREATE INDEX "email_messages_recipient_hash_cap_budget_created_at_status_idx" ON "email_messages"("recipient_hash", "cap_budget", "created_at", "status");

-- CreateIndex
CREATE INDEX "email_messages_merchant_id_cap_budget_created_at_status_idx" ON "email_messages"("merchant_id", "cap_budget", "created_at", "status");
