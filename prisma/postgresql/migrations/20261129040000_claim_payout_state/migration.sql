-- Issue 29: a claim's Shopify payout state lives on the claim, written by the app's payout job with its own
-- bookkeeping, so the core reads it there and never joins the app's job table (shopify_jobs).

-- AlterTable
ALTER TABLE "claims" ADD COLUMN "payout_state" TEXT;
ALTER TABLE "claims" ADD COLUMN "payout_attempts" INTEGER NOT NULL DEFAULT 0;

-- Backfill: each claim's newest payout job (kind pay_claim, its subject the claim's id) on its merchant's shop.
UPDATE "claims" SET
  "payout_state" = (
    SELECT j."status" FROM "shopify_jobs" j JOIN "merchants" m ON m."shop_domain" = j."shop"
    WHERE m."id" = "claims"."merchant_id" AND j."kind" = 'pay_claim' AND j."subject" = "claims"."id"
    ORDER BY j."created_at" DESC LIMIT 1),
  "payout_attempts" = COALESCE((
    SELECT j."attempts" FROM "shopify_jobs" j JOIN "merchants" m ON m."shop_domain" = j."shop"
    WHERE m."id" = "claims"."merchant_id" AND j."kind" = 'pay_claim' AND j."subject" = "claims"."id"
    ORDER BY j."created_at" DESC LIMIT 1), 0)
WHERE EXISTS (
  SELECT 1 FROM "shopify_jobs" j JOIN "merchants" m ON m."shop_domain" = j."shop"
  WHERE m."id" = "claims"."merchant_id" AND j."kind" = 'pay_claim' AND j."subject" = "claims"."id");
