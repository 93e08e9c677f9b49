-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "secret_sealed" TEXT NOT NULL,
    "previous_secret_sealed" TEXT,
    "previous_secret_expires_at" BIGINT,
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "failing_since" BIGINT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_seq" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" BIGINT NOT NULL,
    "locked_until" BIGINT,
    "locked_by" TEXT,
    "last_status" INTEGER,
    "last_error" TEXT,
    "last_duration_ms" INTEGER,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "attempted_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "webhook_fanout" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "last_seq" INTEGER NOT NULL
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_merchant_id_mode_idx" ON "webhook_endpoints"("merchant_id", "mode");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_status_event_seq_id_idx" ON "webhook_deliveries"("endpoint_id", "status", "event_seq", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- CreateIndex
CREATE INDEX "webhook_attempts_merchant_id_mode_endpoint_id_idx" ON "webhook_attempts"("merchant_id", "mode", "endpoint_id");

