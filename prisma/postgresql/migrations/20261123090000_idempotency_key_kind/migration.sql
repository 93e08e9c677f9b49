-- Idempotency keys are scoped by the kind of key that sent them (publishable or secret), so a page's public key
-- can neither pre-claim nor replay a key the merchant's server uses. Records made before this carry 'secret'.
ALTER TABLE "idempotency_records" ADD COLUMN "key_kind" TEXT NOT NULL DEFAULT 'secret';
ALTER TABLE "idempotency_records" ALTER COLUMN "key_kind" DROP DEFAULT;
ALTER TABLE "idempotency_records" DROP CONSTRAINT "idempotency_records_pkey";
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("merchant_id", "mode", "key_kind", "key");
