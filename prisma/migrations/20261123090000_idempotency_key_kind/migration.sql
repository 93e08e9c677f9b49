-- Idempotency keys are scoped by the kind of key that sent them (publishable or secret), so a page's public key
-- can neither pre-claim nor replay a key the merchant's server uses. Records made before this carry 'secret'.
-- RedefineTables
CREATE TABLE "new_idempotency_records" (
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "key_kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "headers" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "expires_at" BIGINT NOT NULL,

    PRIMARY KEY ("merchant_id", "mode", "key_kind", "key")
);
INSERT INTO "new_idempotency_records" ("merchant_id", "mode", "key_kind", "key", "fingerprint", "status", "headers", "body", "created_at", "expires_at")
SELECT "merchant_id", "mode", 'secret', "key", "fingerprint", "status", "headers", "body", "created_at", "expires_at" FROM "idempotency_records";
DROP TABLE "idempotency_records";
ALTER TABLE "new_idempotency_records" RENAME TO "idempotency_records";
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");
