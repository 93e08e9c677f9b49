-- Issue 16: the merchant dashboard. Merchants go live (live_at; live keys are refused before), keys rotate with an
-- overlap (revoked_at in the future) and remember what they replaced, Shopify installations carry their mode, webhook
-- attempts keep an excerpt of the answer; the standalone dashboard's team members, sign-in links, sessions and the
-- merchant audit log (append-only while its merchant exists).

-- AlterTable
ALTER TABLE "merchants" ADD COLUMN "live_at" BIGINT;

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "rotated_from" TEXT;

-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN "response_excerpt" TEXT;

-- CreateTable
CREATE TABLE "merchant_members" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "invited_by" TEXT,
    "last_sign_in_at" BIGINT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "member_sign_in_tokens" (
    "token_hash" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "expires_at" BIGINT NOT NULL,
    "used_at" BIGINT,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "member_sessions" (
    "token_hash" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'test',
    "ip" TEXT NOT NULL DEFAULT '',
    "expires_at" BIGINT NOT NULL,
    "revoked_at" BIGINT,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "merchant_audit_log" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "actor_id" TEXT NOT NULL,
    "actor_email" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "detail" TEXT NOT NULL DEFAULT '{}',
    "ip" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_shop_installations" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "secret_key_sealed" TEXT NOT NULL,
    "publishable_key" TEXT NOT NULL,
    "program_id" TEXT NOT NULL,
    "product_id" TEXT,
    "tiers" TEXT NOT NULL DEFAULT '[]',
    "installed_at" BIGINT NOT NULL,
    "uninstalled_at" BIGINT,
    "updated_at" BIGINT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'test'
);
INSERT INTO "new_shop_installations" ("installed_at", "merchant_id", "product_id", "program_id", "publishable_key", "secret_key_sealed", "shop", "status", "tiers", "uninstalled_at", "updated_at") SELECT "installed_at", "merchant_id", "product_id", "program_id", "publishable_key", "secret_key_sealed", "shop", "status", "tiers", "uninstalled_at", "updated_at" FROM "shop_installations";
DROP TABLE "shop_installations";
ALTER TABLE "new_shop_installations" RENAME TO "shop_installations";
CREATE UNIQUE INDEX "shop_installations_merchant_id_key" ON "shop_installations"("merchant_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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
CREATE TRIGGER "merchant_audit_log_no_update" BEFORE UPDATE ON "merchant_audit_log"
BEGIN SELECT RAISE(ABORT, 'merchant_audit_log is append-only'); END;
CREATE TRIGGER "merchant_audit_log_no_delete" BEFORE DELETE ON "merchant_audit_log"
WHEN EXISTS (SELECT 1 FROM "merchants" WHERE "id" = OLD."merchant_id")
BEGIN SELECT RAISE(ABORT, 'merchant_audit_log is append-only while its merchant exists'); END;
