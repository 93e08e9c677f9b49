-- Issue 31: a tracking aggregator's signed callbacks (AfterShip): each merchant's webhook secret per mode, and the
-- shipments found by tracking number within a merchant's mode (docs/api.md "Tracking callbacks").

-- CreateTable
CREATE TABLE "tracking_connections" (
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "secret_sealed" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    PRIMARY KEY ("merchant_id", "mode", "provider")
);

-- CreateIndex
CREATE INDEX "shipments_merchant_id_mode_tracking_number_idx" ON "shipments"("merchant_id", "mode", "tracking_number");
