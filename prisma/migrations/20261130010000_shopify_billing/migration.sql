-- Issue 30: charges through Shopify's Billing API. A shop's usage subscription, one charge row per closed live
-- statement of a Shopify merchant, and the reason new live protection is paused (a subscription no longer active).

-- AlterTable
ALTER TABLE "merchants" ADD COLUMN "live_paused_reason" TEXT;

-- CreateTable
CREATE TABLE "shopify_subscriptions" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "subscription_id" TEXT NOT NULL,
    "line_item_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "test" BOOLEAN NOT NULL,
    "currency" TEXT NOT NULL,
    "capped_amount_cents" INTEGER NOT NULL,
    "balance_used_cents" INTEGER NOT NULL DEFAULT 0,
    "confirmation_url" TEXT,
    "requested_cap_cents" INTEGER,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "shopify_statement_charges" (
    "statement_id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "balance_cents" INTEGER NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "carried_forward_cents" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "usage_record_id" TEXT,
    "last_error" TEXT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "shopify_statement_charges_shop_status_idx" ON "shopify_statement_charges"("shop", "status");


-- Statements closed before billing existed are not charged through Shopify (they were settled as before).
INSERT INTO "shopify_statement_charges" ("statement_id", "shop", "merchant_id", "currency", "balance_cents",
  "amount_cents", "carried_forward_cents", "status", "created_at", "updated_at")
SELECT s."id", m."shop_domain", s."merchant_id", s."currency", s."closing_balance_cents", 0, 0, 'before_billing',
  s."created_at", s."created_at"
FROM "settlement_statements" s JOIN "merchants" m ON m."id" = s."merchant_id"
WHERE m."shop_domain" IS NOT NULL;
