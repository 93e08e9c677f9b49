-- Issue 31: delivery facts for every order: each protected order's shipments (from Shopify's fulfilments or the API)
-- and their carriers' scans, from which the delivery states are derived (docs/api.md "Delivery facts").

-- CreateTable
CREATE TABLE "shipments" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "carrier" TEXT,
    "tracking_number" TEXT,
    "shopify_fulfillment_id" TEXT,
    "promised_delivery_date" TEXT,
    "carrier_status" TEXT NOT NULL,
    "delivered_at" BIGINT,
    "last_scan_at" BIGINT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "shipment_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "shipment_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "occurred_at" BIGINT NOT NULL,
    "location" TEXT,
    "message" TEXT,
    "created_at" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "shipments_order_id_tracking_number_idx" ON "shipments"("order_id", "tracking_number");

-- CreateIndex
CREATE INDEX "shipments_merchant_id_mode_carrier_status_last_scan_at_idx" ON "shipments"("merchant_id", "mode", "carrier_status", "last_scan_at");

-- CreateIndex
CREATE UNIQUE INDEX "shipments_order_id_shopify_fulfillment_id_key" ON "shipments"("order_id", "shopify_fulfillment_id");

-- CreateIndex
CREATE UNIQUE INDEX "shipment_events_shipment_id_status_occurred_at_key" ON "shipment_events"("shipment_id", "status", "occurred_at");

