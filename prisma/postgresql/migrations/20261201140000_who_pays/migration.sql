-- Issue 32 (who pays): a program's payer (buyer, merchant or split, with the buyer's share of the fee for split), and
-- on quotes and plans who pays which part of the fee. Every existing program, quote and plan was paid by the buyer.

-- AlterTable
ALTER TABLE "protection_programs" ADD COLUMN     "payer" TEXT NOT NULL DEFAULT 'buyer',
ADD COLUMN     "buyer_share_bps" INTEGER;

-- AlterTable
ALTER TABLE "quotes" ADD COLUMN     "payer" TEXT NOT NULL DEFAULT 'buyer',
ADD COLUMN     "buyer_fee_cents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "merchant_fee_cents" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "plans" ADD COLUMN     "payer" TEXT NOT NULL DEFAULT 'buyer',
ADD COLUMN     "buyer_fee_cents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "merchant_fee_cents" INTEGER NOT NULL DEFAULT 0;

-- The buyer paid the whole fee of every quote and plan before.
UPDATE "quotes" SET "buyer_fee_cents" = "fee_cents";
UPDATE "plans" SET "buyer_fee_cents" = "fee_cents";
