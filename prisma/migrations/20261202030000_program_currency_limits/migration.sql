-- Issue 33 (currencies): a program's minimum fee and largest covered amount are per currency, in that currency's
-- minor units (JPY has none, KWD three). Every existing program kept one pair that priced each of its currencies as the
-- same number of minor units (100 was $1.00 and ¥100); each of its currencies gets that pair, so every quote prices
-- exactly as before.

-- AlterTable
ALTER TABLE "protection_programs" ADD COLUMN "currency_limits" TEXT NOT NULL DEFAULT '{}';

UPDATE "protection_programs" SET "currency_limits" = COALESCE((
  SELECT json_group_object(each.value, json_object('minFeeCents', "min_fee_cents", 'maxCoveredCents', "max_covered_cents"))
  FROM json_each("protection_programs"."currencies") AS each
), '{}');

-- AlterTable
ALTER TABLE "protection_programs" DROP COLUMN "min_fee_cents";
ALTER TABLE "protection_programs" DROP COLUMN "max_covered_cents";
