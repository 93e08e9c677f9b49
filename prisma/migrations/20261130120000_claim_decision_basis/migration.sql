-- Issue 31: the facts an automatic decision rested on (JSON), which the buyer and the claims team read with it.

-- AlterTable
ALTER TABLE "claims" ADD COLUMN "decision_basis" TEXT;
