-- Issue 32 (offer experiments): a program's offer wording (a key of the contract's approved catalogue), the merchant's
-- experiments with 2–3 variants of price and wording, and on quotes and plans the wording shown and the experiment
-- and variant that priced them (with the cart identity the variant followed). Every existing program and quote used the standard wording, outside any experiment.

-- AlterTable
ALTER TABLE "protection_programs" ADD COLUMN "offer_wording" TEXT NOT NULL DEFAULT 'standard';

-- AlterTable
ALTER TABLE "quotes" ADD COLUMN "offer_wording" TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE "quotes" ADD COLUMN "experiment_id" TEXT;
ALTER TABLE "quotes" ADD COLUMN "experiment_variant" TEXT;
ALTER TABLE "quotes" ADD COLUMN "cart_identity" TEXT;

-- AlterTable
ALTER TABLE "plans" ADD COLUMN "experiment_id" TEXT;
ALTER TABLE "plans" ADD COLUMN "experiment_variant" TEXT;

-- CreateTable
CREATE TABLE "offer_experiments" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "program_id" TEXT NOT NULL,
    "variants" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "running_slot" TEXT,
    "rolled_out_variant" TEXT,
    "started_at" BIGINT NOT NULL,
    "stopped_at" BIGINT,

    CONSTRAINT "offer_experiments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "offer_experiments_running_slot_key" ON "offer_experiments"("running_slot");

-- CreateIndex
CREATE INDEX "offer_experiments_merchant_id_mode_started_at_idx" ON "offer_experiments"("merchant_id", "mode", "started_at");

-- CreateIndex
CREATE INDEX "quotes_experiment_id_experiment_variant_created_at_idx" ON "quotes"("experiment_id", "experiment_variant", "created_at");
