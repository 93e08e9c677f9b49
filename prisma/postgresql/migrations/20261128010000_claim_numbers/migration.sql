-- Issue 27: a claim has a number on its plan (1, 2, … in filing order) so a buyer can name it ("claim 2 on
-- CLM-2026-7K3M9Q2X") instead of its internal id. New claims take theirs at insert, under the plan's row lock.

-- DropIndex (the unique (plan_id, number) index below serves look-ups by plan)
DROP INDEX "claims_plan_id_idx";

-- AlterTable
ALTER TABLE "claims" ADD COLUMN "number" INTEGER NOT NULL DEFAULT 0;

-- The claims filed before this migration are numbered in the order they were filed (created_at, then id).
UPDATE "claims" SET "number" = (
    SELECT COUNT(*) FROM "claims" c
    WHERE c."plan_id" = "claims"."plan_id"
      AND (c."created_at" < "claims"."created_at" OR (c."created_at" = "claims"."created_at" AND c."id" <= "claims"."id"))
);

-- CreateIndex
CREATE UNIQUE INDEX "claims_plan_id_number_key" ON "claims"("plan_id", "number");
