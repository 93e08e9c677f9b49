-- A quote records the kind of key that made it (publishable or secret): a publishable key may decline only quotes a
-- publishable key made. Quotes made before this count as secret, so no browser can decline them.
-- RedefineTables
CREATE TABLE "new_quotes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "program_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "order_amount_cents" INTEGER NOT NULL,
    "fee_cents" INTEGER NOT NULL,
    "covered_amount_cents" INTEGER NOT NULL,
    "customer_email" TEXT,
    "product_category" TEXT,
    "status" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "decline_reason" TEXT,
    "created_at" BIGINT NOT NULL,
    "expires_at" BIGINT NOT NULL,
    "decided_at" BIGINT,
    "key_kind" TEXT NOT NULL
);
INSERT INTO "new_quotes" ("id", "merchant_id", "mode", "program_id", "order_id", "currency", "order_amount_cents", "fee_cents", "covered_amount_cents", "customer_email", "product_category", "status", "token_hash", "decline_reason", "created_at", "expires_at", "decided_at", "key_kind")
SELECT "id", "merchant_id", "mode", "program_id", "order_id", "currency", "order_amount_cents", "fee_cents", "covered_amount_cents", "customer_email", "product_category", "status", "token_hash", "decline_reason", "created_at", "expires_at", "decided_at", 'secret' FROM "quotes";
DROP TABLE "quotes";
ALTER TABLE "new_quotes" RENAME TO "quotes";
CREATE INDEX "quotes_merchant_id_mode_created_at_idx" ON "quotes"("merchant_id", "mode", "created_at");
