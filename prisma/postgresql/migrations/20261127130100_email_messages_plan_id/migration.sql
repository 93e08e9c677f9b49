-- Issue 26: the dashboard shows a purchase's e-mails (sent, waiting, or held back by a cap and why).

-- CreateIndex
CREATE INDEX "email_messages_plan_id_idx" ON "email_messages"("plan_id");
