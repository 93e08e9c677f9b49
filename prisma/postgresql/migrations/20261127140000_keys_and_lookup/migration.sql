-- Issue 26: each API key records who minted it (a dashboard member's id, or the Shopify staff member), so that a
-- member's keys stop when the member is disabled or loses the role that could mint them; and the portal look-up finds
-- a plan by reference number and address hash in one index probe, a match or not.

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "minted_by" TEXT;

-- CreateIndex
CREATE INDEX "api_keys_merchant_id_minted_by_idx" ON "api_keys"("merchant_id", "minted_by");

-- CreateIndex
CREATE INDEX "plans_reference_number_customer_email_hash_idx" ON "plans"("reference_number", "customer_email_hash");
