-- Buyer e-mail addresses are sealed at rest (AES-256-GCM, as secrets are), beside a keyed hash (HMAC-SHA256) of the
-- trimmed, lower-cased address for the lookups that need equality: privacy requests, the buyer portal (e-mail +
-- reference number) and the per-recipient e-mail cap. SQL does not hold the key, so the columns are renamed here and
-- the service seals and hashes the addresses still in clear when it starts (server/domain/buyer-emails.ts).
-- A redacted recipient is NULL from now on, no longer the text '[redacted]'.
ALTER TABLE "quotes" RENAME COLUMN "customer_email" TO "customer_email_sealed";
ALTER TABLE "quotes" ADD COLUMN "customer_email_hash" TEXT;
ALTER TABLE "plans" RENAME COLUMN "customer_email" TO "customer_email_sealed";
ALTER TABLE "plans" ADD COLUMN "customer_email_hash" TEXT;
-- RedefineTables (email_messages.recipient_sealed is nullable)
CREATE TABLE "new_email_messages" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "recipient_sealed" TEXT,
    "recipient_hash" TEXT,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" BIGINT NOT NULL,
    "locked_until" BIGINT,
    "last_error" TEXT,
    "message_id" TEXT,
    "created_at" BIGINT NOT NULL,
    "sent_at" BIGINT
);
INSERT INTO "new_email_messages" ("id", "merchant_id", "mode", "template", "plan_id", "recipient_sealed", "status", "attempts", "next_attempt_at", "locked_until", "last_error", "message_id", "created_at", "sent_at")
SELECT "id", "merchant_id", "mode", "template", "plan_id", NULLIF("recipient", '[redacted]'), "status", "attempts", "next_attempt_at", "locked_until", "last_error", "message_id", "created_at", "sent_at" FROM "email_messages";
DROP TABLE "email_messages";
ALTER TABLE "new_email_messages" RENAME TO "email_messages";
CREATE INDEX "email_messages_status_next_attempt_at_idx" ON "email_messages"("status", "next_attempt_at");
CREATE INDEX "email_messages_merchant_id_mode_idx" ON "email_messages"("merchant_id", "mode");
CREATE INDEX "email_messages_recipient_hash_created_at_idx" ON "email_messages"("recipient_hash", "created_at");
CREATE INDEX "email_messages_merchant_id_created_at_idx" ON "email_messages"("merchant_id", "created_at");
CREATE UNIQUE INDEX "email_messages_template_plan_id_key" ON "email_messages"("template", "plan_id");
