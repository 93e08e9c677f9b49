-- Issue 27: an e-mail held back by a cap (status suppressed) spends no budget, so it belongs to none: cap_budget is
-- null, which keeps it out of the range the cap's count reads (a spent cap is counted in at most the cap's rows).
UPDATE "email_messages" SET "cap_budget" = NULL WHERE "status" = 'suppressed';
