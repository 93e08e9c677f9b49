-- A program's approval without review has an amount per currency (claim_rules.autoApprove.maxAmountCentsByCurrency),
-- in that currency's minor units, instead of one number read as the same number of minor units in every currency
-- (2500 was $25.00 but also ¥2,500 and KWD 2.500). Each of the program's currencies gets that number, so every claim
-- in them is decided exactly as before; rules without approval without review are left as they are.
UPDATE "protection_programs" SET "claim_rules" = jsonb_set(
  "claim_rules"::jsonb #- '{autoApprove,maxAmountCents}',
  '{autoApprove,maxAmountCentsByCurrency}',
  COALESCE((
    SELECT jsonb_object_agg(code, "protection_programs"."claim_rules"::jsonb #> '{autoApprove,maxAmountCents}')
    FROM jsonb_array_elements_text("protection_programs"."currencies"::jsonb) AS code
  ), '{}'::jsonb)
)::text
WHERE "claim_rules"::jsonb #> '{autoApprove,maxAmountCents}' IS NOT NULL;
