-- Issue 31: the decision figures (share decided automatically, median time to a decision) read claims by when they
-- were decided: across merchants on the console, per merchant and mode on the dashboard.

-- CreateIndex
CREATE INDEX "claims_decided_at_idx" ON "claims"("decided_at");

-- CreateIndex
CREATE INDEX "claims_merchant_id_mode_decided_at_idx" ON "claims"("merchant_id", "mode", "decided_at");
