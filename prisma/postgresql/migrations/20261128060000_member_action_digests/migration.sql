-- Issue 28: what needs the merchant reaches its team by e-mail, batched. Each member chooses (action_emails: 1 on,
-- 0 off, NULL the role's default: owners on); a digest lists the items new since the member's last one, at most one
-- per member per DIGEST_INTERVAL_MS (server/domain/merchant-actions.ts), and is sent by the digest worker with retries.

-- AlterTable
ALTER TABLE "merchant_members" ADD COLUMN "action_emails" INTEGER;

-- CreateTable
CREATE TABLE "member_action_digests" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "items" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" BIGINT NOT NULL,
    "locked_until" BIGINT,
    "last_error" TEXT,
    "created_at" BIGINT NOT NULL,
    "sent_at" BIGINT,

    CONSTRAINT "member_action_digests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "member_action_notices" (
    "merchant_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "item_key" TEXT NOT NULL,
    "digest_id" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "member_action_notices_pkey" PRIMARY KEY ("member_id", "item_key")
);

-- CreateIndex
CREATE INDEX "member_action_digests_member_id_created_at_idx" ON "member_action_digests"("member_id", "created_at");

-- CreateIndex
CREATE INDEX "member_action_digests_status_next_attempt_at_idx" ON "member_action_digests"("status", "next_attempt_at");
