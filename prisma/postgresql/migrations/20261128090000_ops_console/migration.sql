-- Issue 28: the claims console. A staff member takes a claim ("Assign to me"): the queue filters on it ("Mine").
-- A Shopify order keeps what a reviewer needs beside the claim: its lines (title, quantity, unit price) and where it
-- was shipped, to the town only (city, region, postal code, country: no name, street or phone); customers/redact
-- clears the destination. Null: not known (orders protected before this, other carts).

-- AlterTable
ALTER TABLE "claims" ADD COLUMN "assignee_staff_id" TEXT;

-- CreateIndex
CREATE INDEX "claims_assignee_staff_id_idx" ON "claims"("assignee_staff_id");

-- AlterTable
ALTER TABLE "shopify_orders" ADD COLUMN "order_lines" TEXT;
ALTER TABLE "shopify_orders" ADD COLUMN "ship_to" TEXT;
