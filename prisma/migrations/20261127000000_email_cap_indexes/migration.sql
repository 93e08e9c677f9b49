-- Issue 18: the e-mail caps count from the index alone (status in it), with no table read per e-mail counted.

-- DropIndex
DROP INDEX "email_messages_recipient_hash_created_at_idx";

-- DropIndex
DROP INDEX "email_messages_merchant_id_created_at_idx";

-- CreateIndex
CREATE INDEX "email_messages_recipient_hash_created_at_status_idx" ON "email_messages"("recipient_hash", "created_at", "status");

-- CreateIndex
CREATE INDEX "email_messages_merchant_id_created_at_status_idx" ON "email_messages"("merchant_id", "created_at", "status");
