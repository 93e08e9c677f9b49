-- Issue 31: a buyer's claim history by the keyed hash of their shipping address as well as their e-mail (never the
-- address), and the store platform's own risk assessment of the order (Shopify's order risk), both read by a claim's
-- risk assessment and erased with the buyer's data.

-- AlterTable
ALTER TABLE "plans" ADD COLUMN "shipping_address_hash" TEXT;
ALTER TABLE "plans" ADD COLUMN "order_risk" TEXT;

-- CreateIndex
CREATE INDEX "plans_shipping_address_hash_idx" ON "plans"("shipping_address_hash");
