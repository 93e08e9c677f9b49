-- Issue 15: claim rules and settlement period on programs; who decided a claim, its remedy and how it was resolved;
-- when an order was delivered; the money ledger (immutable entries) and closed settlement statements; the claims
-- team's staff accounts, sign-in links, sessions and append-only audit log.

-- AlterTable
ALTER TABLE "orders" ADD COLUMN "delivered_at" BIGINT;

-- AlterTable
ALTER TABLE "claims" ADD COLUMN "decided_by" TEXT;
ALTER TABLE "claims" ADD COLUMN "payout_error" TEXT;
ALTER TABLE "claims" ADD COLUMN "remedy" TEXT;
ALTER TABLE "claims" ADD COLUMN "resolution" TEXT;
ALTER TABLE "claims" ADD COLUMN "resolved_at" BIGINT;

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "source_id" TEXT NOT NULL,
    "plan_id" TEXT,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "settlement_statements" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "period_start" BIGINT NOT NULL,
    "period_end" BIGINT NOT NULL,
    "opening_balance_cents" INTEGER NOT NULL,
    "totals" TEXT NOT NULL,
    "net_cents" INTEGER NOT NULL,
    "closing_balance_cents" INTEGER NOT NULL,
    "entry_count" INTEGER NOT NULL,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "staff_accounts" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
CREATE TABLE "staff_sign_in_tokens" (
    "token_hash" TEXT NOT NULL PRIMARY KEY,
    "staff_id" TEXT NOT NULL,
    "expires_at" BIGINT NOT NULL,
    "used_at" BIGINT,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "staff_sessions" (
    "token_hash" TEXT NOT NULL PRIMARY KEY,
    "staff_id" TEXT NOT NULL,
    "ip" TEXT NOT NULL DEFAULT '',
    "expires_at" BIGINT NOT NULL,
    "revoked_at" BIGINT,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "staff_audit_log" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "staff_id" TEXT NOT NULL,
    "staff_email" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "detail" TEXT NOT NULL DEFAULT '{}',
    "ip" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_protection_programs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rate_bps" INTEGER NOT NULL,
    "min_fee_cents" INTEGER NOT NULL,
    "max_covered_cents" INTEGER NOT NULL,
    "merchant_share_bps" INTEGER NOT NULL,
    "currencies" TEXT NOT NULL,
    "product_categories" TEXT NOT NULL DEFAULT '[]',
    "claim_rules" TEXT NOT NULL DEFAULT '{}',
    "settlement_period" TEXT NOT NULL DEFAULT 'weekly',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" BIGINT NOT NULL
);
INSERT INTO "new_protection_programs" ("active", "created_at", "currencies", "id", "max_covered_cents", "merchant_id", "merchant_share_bps", "min_fee_cents", "mode", "name", "product_categories", "rate_bps") SELECT "active", "created_at", "currencies", "id", "max_covered_cents", "merchant_id", "merchant_share_bps", "min_fee_cents", "mode", "name", "product_categories", "rate_bps" FROM "protection_programs";
DROP TABLE "protection_programs";
ALTER TABLE "new_protection_programs" RENAME TO "protection_programs";
CREATE INDEX "protection_programs_merchant_id_mode_idx" ON "protection_programs"("merchant_id", "mode");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_mode_currency_created_at_idx" ON "ledger_entries"("merchant_id", "mode", "currency", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_kind_source_id_key" ON "ledger_entries"("kind", "source_id");

-- CreateIndex
CREATE INDEX "settlement_statements_merchant_id_mode_period_start_idx" ON "settlement_statements"("merchant_id", "mode", "period_start");

-- CreateIndex
CREATE UNIQUE INDEX "settlement_statements_merchant_id_mode_currency_period_start_key" ON "settlement_statements"("merchant_id", "mode", "currency", "period_start");

-- CreateIndex
CREATE UNIQUE INDEX "staff_accounts_email_key" ON "staff_accounts"("email");

-- CreateIndex
CREATE INDEX "staff_sign_in_tokens_staff_id_idx" ON "staff_sign_in_tokens"("staff_id");

-- CreateIndex
CREATE INDEX "staff_sessions_staff_id_idx" ON "staff_sessions"("staff_id");

-- CreateIndex
CREATE INDEX "staff_audit_log_created_at_idx" ON "staff_audit_log"("created_at");

-- CreateIndex
CREATE INDEX "staff_audit_log_subject_idx" ON "staff_audit_log"("subject");


-- The audit log is append-only: no row is ever changed or removed.
CREATE TRIGGER "staff_audit_log_no_update" BEFORE UPDATE ON "staff_audit_log"
BEGIN SELECT RAISE(ABORT, 'staff_audit_log is append-only'); END;
CREATE TRIGGER "staff_audit_log_no_delete" BEFORE DELETE ON "staff_audit_log"
BEGIN SELECT RAISE(ABORT, 'staff_audit_log is append-only'); END;
