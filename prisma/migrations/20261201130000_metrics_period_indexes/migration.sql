-- Issue 32: the metrics' figures of a period read a merchant's quotes and plans by when they were made, and count
-- them from the index alone (bench/metrics.ts: a year of 300,000 offers and 100,000 plans).

-- DropIndex
DROP INDEX "quotes_merchant_id_mode_created_at_idx";

-- CreateIndex
CREATE INDEX "quotes_metrics_period_idx" ON "quotes"("merchant_id", "mode", "created_at", "status", "currency", "order_amount_cents", "expires_at");

-- CreateIndex
CREATE INDEX "plans_metrics_period_idx" ON "plans"("merchant_id", "mode", "created_at", "status", "currency", "fee_cents", "quote_id");
