-- Issue 33: a plan whose buyer paid in another currency (Shopify Markets) keeps what the buyer paid in that currency
-- and the rate to the plan's (the shop's) currency, beside the plan.

-- CreateTable
CREATE TABLE "plan_presentments" (
    "plan_id" TEXT NOT NULL PRIMARY KEY,
    "currency" TEXT NOT NULL,
    "covered_amount_cents" INTEGER NOT NULL,
    "buyer_paid_cents" INTEGER,
    "exchange_rate" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL
);

-- AlterTable
ALTER TABLE "shopify_orders" ADD COLUMN "presentment_currency" TEXT;
ALTER TABLE "shopify_orders" ADD COLUMN "presentment_goods_amount_cents" INTEGER;
