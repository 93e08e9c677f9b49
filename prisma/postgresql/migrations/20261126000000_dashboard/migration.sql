-- Issue 16: the merchant dashboard. Merchants go live (live_at; live keys are refused before), keys rotate with an
-- overlap (revoked_at in the future) and remember what they replaced, Shopify installations carry their mode, webhook
-- attempts keep an excerpt of the answer; the standalone dashboard's team members, sign-in links, sessions and the
-- merchant audit log (append-only while its merchant exists).

-- AlterTable
ALTER TABLE "merchants" ADD COLUMN     "live_at" BIGINT;

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "rotated_from" TEXT;

-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN     "response_excerpt" TEXT;

-- AlterTable
ALTER TABLE "shop_installations" ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'test';

-- CreateTable
CREATE TABLE "merchant_members" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "invited_by" TEXT,
    "last_sign_in_at" BIGINT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "merchant_members_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "member_sign_in_tokens" (
    "token_hash" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "expires_at" BIGINT NOT NULL,
    "used_at" BIGINT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "member_sign_in_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "member_sessions" (
    "token_hash" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'test',
    "ip" TEXT NOT NULL DEFAULT '',
    "expires_at" BIGINT NOT NULL,
    "revoked_at" BIGINT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "member_sessions_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "merchant_audit_log" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "actor_id" TEXT NOT NULL,
    "actor_email" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "detail" TEXT NOT NULL DEFAULT '{}',
    "ip" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "merchant_audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "merchant_members_email_idx" ON "merchant_members"("email");

-- CreateIndex
CREATE UNIQUE INDEX "merchant_members_merchant_id_email_key" ON "merchant_members"("merchant_id", "email");

-- CreateIndex
CREATE INDEX "member_sign_in_tokens_member_id_idx" ON "member_sign_in_tokens"("member_id");

-- CreateIndex
CREATE INDEX "member_sign_in_tokens_merchant_id_idx" ON "member_sign_in_tokens"("merchant_id");

-- CreateIndex
CREATE INDEX "member_sessions_member_id_idx" ON "member_sessions"("member_id");

-- CreateIndex
CREATE INDEX "member_sessions_merchant_id_idx" ON "member_sessions"("merchant_id");

-- CreateIndex
CREATE INDEX "merchant_audit_log_merchant_id_created_at_idx" ON "merchant_audit_log"("merchant_id", "created_at");


-- Merchants that existed before going live was a step were already serving live traffic.
UPDATE "merchants" SET "live_at" = "created_at";

-- The audit log is append-only; its rows go only with their merchant (erasure deletes the merchant row first).
CREATE FUNCTION "merchant_audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'merchant_audit_log is append-only';
  END IF;
  IF EXISTS (SELECT 1 FROM "merchants" WHERE "id" = OLD."merchant_id") THEN
    RAISE EXCEPTION 'merchant_audit_log is append-only while its merchant exists';
  END IF;
  RETURN OLD;
END;
$$;
CREATE TRIGGER "merchant_audit_log_no_change" BEFORE UPDATE OR DELETE ON "merchant_audit_log"
FOR EACH ROW EXECUTE FUNCTION "merchant_audit_log_append_only"();
