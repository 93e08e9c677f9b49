-- CreateTable
CREATE TABLE "shop_installations" (
    "shop" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "secret_key_sealed" TEXT NOT NULL,
    "publishable_key" TEXT NOT NULL,
    "program_id" TEXT NOT NULL,
    "product_id" TEXT,
    "tiers" TEXT NOT NULL DEFAULT '[]',
    "installed_at" BIGINT NOT NULL,
    "uninstalled_at" BIGINT,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "shop_installations_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "shopify_webhook_receipts" (
    "webhook_id" TEXT NOT NULL,
    "event_id" TEXT,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "received_at" BIGINT NOT NULL,

    CONSTRAINT "shopify_webhook_receipts_pkey" PRIMARY KEY ("webhook_id")
);

-- CreateTable
CREATE TABLE "shopify_jobs" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "run_at" BIGINT NOT NULL,
    "locked_until" BIGINT,
    "last_error" TEXT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "shopify_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shopify_orders" (
    "shop" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "plan_id" TEXT,
    "reference_number" TEXT,
    "currency" TEXT NOT NULL,
    "goods_amount_cents" INTEGER NOT NULL,
    "line_price_cents" INTEGER,
    "fee_cents" INTEGER,
    "fee_mismatch" BOOLEAN NOT NULL DEFAULT false,
    "refunded_cents" INTEGER NOT NULL DEFAULT 0,
    "refund_ids" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL,
    "reference_written_at" BIGINT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "shopify_orders_pkey" PRIMARY KEY ("shop","order_id")
);

-- CreateTable
CREATE TABLE "shopify_data_requests" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "export" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "shopify_data_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "shop_installations_merchant_id_key" ON "shop_installations"("merchant_id");

-- CreateIndex
CREATE INDEX "shopify_webhook_receipts_shop_idx" ON "shopify_webhook_receipts"("shop");

-- CreateIndex
CREATE INDEX "shopify_jobs_status_run_at_idx" ON "shopify_jobs"("status", "run_at");

-- CreateIndex
CREATE INDEX "shopify_jobs_shop_kind_subject_idx" ON "shopify_jobs"("shop", "kind", "subject");

-- CreateIndex
CREATE INDEX "shopify_data_requests_shop_idx" ON "shopify_data_requests"("shop");

