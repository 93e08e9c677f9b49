-- CreateTable
CREATE TABLE "merchants" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "allowed_origins" TEXT NOT NULL DEFAULT '[]',
    "shop_domain" TEXT,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "revoked_at" BIGINT
);

-- CreateTable
CREATE TABLE "protection_programs" (
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
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "quotes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "program_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "order_amount_cents" INTEGER NOT NULL,
    "fee_cents" INTEGER NOT NULL,
    "covered_amount_cents" INTEGER NOT NULL,
    "customer_email" TEXT,
    "product_category" TEXT,
    "status" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "decline_reason" TEXT,
    "created_at" BIGINT NOT NULL,
    "expires_at" BIGINT NOT NULL,
    "decided_at" BIGINT
);

-- CreateTable
CREATE TABLE "plans" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "reference_number" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "fee_cents" INTEGER NOT NULL,
    "covered_amount_cents" INTEGER NOT NULL,
    "customer_email" TEXT,
    "purchased_at" BIGINT NOT NULL,
    "free_look_ends_at" BIGINT NOT NULL,
    "order_context" TEXT NOT NULL,
    "consent" TEXT NOT NULL,
    "void_reason" TEXT,
    "created_at" BIGINT NOT NULL,
    "voided_at" BIGINT
);

-- CreateTable
CREATE TABLE "orders" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "refunded_at" BIGINT
);

-- CreateTable
CREATE TABLE "claims" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "settlement_credits" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "statement_id" TEXT,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "events" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "headers" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "expires_at" BIGINT NOT NULL,

    PRIMARY KEY ("merchant_id", "mode", "key")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" DATETIME,
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" DATETIME
);

-- CreateIndex
CREATE UNIQUE INDEX "merchants_shop_domain_key" ON "merchants"("shop_domain");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_merchant_id_idx" ON "api_keys"("merchant_id");

-- CreateIndex
CREATE INDEX "protection_programs_merchant_id_mode_idx" ON "protection_programs"("merchant_id", "mode");

-- CreateIndex
CREATE INDEX "quotes_merchant_id_mode_created_at_idx" ON "quotes"("merchant_id", "mode", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "plans_quote_id_key" ON "plans"("quote_id");

-- CreateIndex
CREATE UNIQUE INDEX "plans_reference_number_key" ON "plans"("reference_number");

-- CreateIndex
CREATE INDEX "plans_merchant_id_mode_order_id_idx" ON "plans"("merchant_id", "mode", "order_id");

-- CreateIndex
CREATE UNIQUE INDEX "orders_plan_id_key" ON "orders"("plan_id");

-- CreateIndex
CREATE UNIQUE INDEX "orders_merchant_id_mode_external_id_key" ON "orders"("merchant_id", "mode", "external_id");

-- CreateIndex
CREATE INDEX "claims_merchant_id_mode_idx" ON "claims"("merchant_id", "mode");

-- CreateIndex
CREATE INDEX "claims_plan_id_idx" ON "claims"("plan_id");

-- CreateIndex
CREATE UNIQUE INDEX "settlement_credits_plan_id_key" ON "settlement_credits"("plan_id");

-- CreateIndex
CREATE INDEX "settlement_credits_merchant_id_mode_statement_id_idx" ON "settlement_credits"("merchant_id", "mode", "statement_id");

-- CreateIndex
CREATE UNIQUE INDEX "events_id_key" ON "events"("id");

-- CreateIndex
CREATE INDEX "events_merchant_id_mode_seq_idx" ON "events"("merchant_id", "mode", "seq");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

