-- Buyer e-mail addresses are sealed at rest (AES-256-GCM, as secrets are), beside a keyed hash (HMAC-SHA256) of the
-- trimmed, lower-cased address for the lookups that need equality: privacy requests, the buyer portal (e-mail +
-- reference number) and the per-recipient e-mail cap. SQL does not hold the key, so the columns are renamed here and
-- the service seals and hashes the addresses still in clear when it starts (server/domain/buyer-emails.ts).
-- A redacted recipient is NULL from now on, no longer the text '[redacted]'.
ALTER TABLE "quotes" RENAME COLUMN "customer_email" TO "customer_email_sealed";
ALTER TABLE "quotes" ADD COLUMN "customer_email_hash" TEXT;
ALTER TABLE "plans" RENAME COLUMN "customer_email" TO "customer_email_sealed";
ALTER TABLE "plans" ADD COLUMN "customer_email_hash" TEXT;
ALTER TABLE "email_messages" RENAME COLUMN "recipient" TO "recipient_sealed";
ALTER TABLE "email_messages" ALTER COLUMN "recipient_sealed" DROP NOT NULL;
ALTER TABLE "email_messages" ADD COLUMN "recipient_hash" TEXT;
UPDATE "email_messages" SET "recipient_sealed" = NULL WHERE "recipient_sealed" = '[redacted]';

-- CreateIndex
CREATE INDEX "email_messages_recipient_hash_created_at_idx" ON "email_messages"("recipient_hash", "created_at");

-- CreateIndex
CREATE INDEX "email_messages_merchant_id_created_at_idx" ON "email_messages"("merchant_id", "created_at");
