-- Issue 26: a closed settlement statement is immutable. Each ledger entry records the statement it is on
-- (statement_id, set once in the transaction that closes that statement); a statement's entries, CSV and totals are
-- read from that binding, never recomputed by time, so an entry written into a closed period goes onto the next one.

-- DropIndex
DROP INDEX "ledger_entries_merchant_id_mode_currency_created_at_idx";

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN "statement_id" TEXT;

-- CreateIndex
CREATE INDEX "ledger_entries_account_statement_idx" ON "ledger_entries"("merchant_id", "mode", "currency", "statement_id", "created_at");

-- CreateIndex
CREATE INDEX "ledger_entries_statement_id_created_at_idx" ON "ledger_entries"("statement_id", "created_at");

-- The statements closed before this migration are bound to the entries of their period as they read them now.
UPDATE "ledger_entries" SET "statement_id" = (
    SELECT s."id" FROM "settlement_statements" s
    WHERE s."merchant_id" = "ledger_entries"."merchant_id" AND s."mode" = "ledger_entries"."mode"
      AND s."currency" = "ledger_entries"."currency"
      AND s."period_start" <= "ledger_entries"."created_at" AND "ledger_entries"."created_at" < s."period_end"
);

-- An entry never changes but for its statement_id, which is set once (from NULL) and then kept.
CREATE FUNCTION "ledger_entries_bind_once"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."statement_id" IS NOT NULL OR NEW."statement_id" IS NULL
     OR ROW(NEW."id", NEW."merchant_id", NEW."mode", NEW."currency", NEW."kind", NEW."amount_cents", NEW."source_id",
            NEW."plan_id", NEW."created_at")
        IS DISTINCT FROM
        ROW(OLD."id", OLD."merchant_id", OLD."mode", OLD."currency", OLD."kind", OLD."amount_cents", OLD."source_id",
            OLD."plan_id", OLD."created_at") THEN
    RAISE EXCEPTION 'ledger_entries: only statement_id changes, once, when its statement closes';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "ledger_entries_bind_once" BEFORE UPDATE ON "ledger_entries"
FOR EACH ROW EXECUTE FUNCTION "ledger_entries_bind_once"();
