-- A program's approval without review has an amount per currency (claim_rules.autoApprove.maxAmountCentsByCurrency),
-- in that currency's minor units, instead of one number read as the same number of minor units in every currency
-- (2500 was $25.00 but also ¥2,500 and KWD 2.500). Each of the program's currencies gets that number, so every claim
-- in them is decided exactly as before; rules without approval without review are left as they are.
UPDATE "protection_programs" SET "claim_rules" = json_set(
  json_remove("claim_rules", '$.autoApprove.maxAmountCents'),
  '$.autoApprove.maxAmountCentsByCurrency',
  json(COALESCE((
    SELECT json_group_object(each.value, json_extract("protection_programs"."claim_rules", '$.autoApprove.maxAmountCents'))
    FROM json_each("protection_programs"."currencies") AS each
  ), '{}'))
)
WHERE json_valid("claim_rules") AND json_type("claim_rules", '$.autoApprove.maxAmountCents') IS NOT NULL;
