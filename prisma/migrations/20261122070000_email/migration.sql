-- CreateTable
CREATE TABLE "email_messages" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" BIGINT NOT NULL,
    "locked_until" BIGINT,
    "last_error" TEXT,
    "message_id" TEXT,
    "created_at" BIGINT NOT NULL,
    "sent_at" BIGINT
);

-- CreateIndex
CREATE INDEX "email_messages_status_next_attempt_at_idx" ON "email_messages"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "email_messages_merchant_id_mode_idx" ON "email_messages"("merchant_id", "mode");

-- CreateIndex
CREATE UNIQUE INDEX "email_messages_template_plan_id_key" ON "email_messages"("template", "plan_id");

