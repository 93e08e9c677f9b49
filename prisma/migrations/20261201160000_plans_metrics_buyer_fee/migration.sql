-- Issue 32: the metrics' fee share is the share of what the buyer paid (plans.buyer_fee_cents, since who pays), so the
-- period index that lets the figures be counted from the index alone carries that column too.

-- DropIndex
DROP INDEX "plans_metrics_period_idx";

-- CreateIndex
CREATE INDEX "plans_metrics_period_idx" ON "plans"("merchant_id", "mode", "created_at", "status", "currency", "fee_cents", "buyer_fee_cents", "quote_id");
