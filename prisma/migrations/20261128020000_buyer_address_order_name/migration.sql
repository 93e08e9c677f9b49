-- Issue 27: a reachable buyer on every channel. The store's own order name ("#1001") is kept on the quote and copied
-- to the plan at confirm (the portal finds a plan by the buyer's address and that name). A confirm refused for want
-- of a buyer address creates nothing; the quote records the refusal (code, time) for the merchant's dashboard.

-- AlterTable
ALTER TABLE "quotes" ADD COLUMN "order_name" TEXT;
ALTER TABLE "quotes" ADD COLUMN "confirm_refused_code" TEXT;
ALTER TABLE "quotes" ADD COLUMN "confirm_refused_at" BIGINT;

-- AlterTable
ALTER TABLE "plans" ADD COLUMN "order_name" TEXT;

-- CreateIndex
CREATE INDEX "quotes_merchant_id_mode_confirm_refused_at_idx" ON "quotes"("merchant_id", "mode", "confirm_refused_at");

-- CreateIndex
CREATE INDEX "plans_customer_email_hash_order_name_idx" ON "plans"("customer_email_hash", "order_name");
