-- Issue 15: claim rules and settlement period on programs; who decided a claim, its remedy and how it was resolved;
-- when an order was delivered; the money ledger (immutable entries) and closed settlement statements; the claims
-- team's staff accounts, sign-in links, sessions and append-only audit log.

-- AlterTable
ALTER TABLE "protection_programs" ADD COLUMN     "claim_rules" TEXT NOT NULL DEFAULT '{}',
ADD COLUMN     "settlement_period" TEXT NOT NULL DEFAULT 'weekly';

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "delivered_at" BIGINT;

-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "decided_by" TEXT,
ADD COLUMN     "payout_error" TEXT,
ADD COLUMN     "remedy" TEXT,
ADD COLUMN     "resolution" TEXT,
ADD COLUMN     "resolved_at" BIGINT;

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "source_id" TEXT NOT NULL,
    "plan_id" TEXT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settlement_statements" (
    "id" TEXT NOT NULL,
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
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "settlement_statements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "staff_accounts" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "invited_by" TEXT,
    "last_sign_in_at" BIGINT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "staff_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "staff_sign_in_tokens" (
    "token_hash" TEXT NOT NULL,
    "staff_id" TEXT NOT NULL,
    "expires_at" BIGINT NOT NULL,
    "used_at" BIGINT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "staff_sign_in_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "staff_sessions" (
    "token_hash" TEXT NOT NULL,
    "staff_id" TEXT NOT NULL,
    "ip" TEXT NOT NULL DEFAULT '',
    "expires_at" BIGINT NOT NULL,
    "revoked_at" BIGINT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "staff_sessions_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "staff_audit_log" (
    "id" TEXT NOT NULL,
    "staff_id" TEXT NOT NULL,
    "staff_email" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "detail" TEXT NOT NULL DEFAULT '{}',
    "ip" TEXT NOT NULL DEFAULT '',
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "staff_audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_mode_currency_created_at_idx" ON "ledger_entries"("merchant_id", "mode", "currency", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_kind_source_id_key" ON "ledger_entries"("kind", "source_id");

-- CreateIndex
CREATE INDEX "settlement_statements_merchant_id_mode_period_start_idx" ON "settlement_statements"("merchant_id", "mode", "period_start");

-- CreateIndex
CREATE UNIQUE INDEX "settlement_statements_merchant_id_mode_currency_period_star_key" ON "settlement_statements"("merchant_id", "mode", "currency", "period_start");

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
CREATE FUNCTION "staff_audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'staff_audit_log is append-only';
END;
$$;
CREATE TRIGGER "staff_audit_log_no_change" BEFORE UPDATE OR DELETE ON "staff_audit_log"
FOR EACH ROW EXECUTE FUNCTION "staff_audit_log_append_only"();
