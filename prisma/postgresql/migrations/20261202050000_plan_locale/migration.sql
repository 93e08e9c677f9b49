-- Issue 33: the language (a BCP 47 tag whose language the buyer e-mails are written in) and the IANA time zone the
-- buyer's surface gave at confirm, so that every later e-mail about the plan reads in that language with its dates in
-- that zone. Null: not known (English, dates in UTC).

-- AlterTable
ALTER TABLE "plans" ADD COLUMN "locale" TEXT;
ALTER TABLE "plans" ADD COLUMN "time_zone" TEXT;
