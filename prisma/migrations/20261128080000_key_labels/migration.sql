-- Issue 28: each API key may carry the merchant's name for it ("Checkout server"), set when minting and shown in the
-- dashboard's key list; keys minted before have none.

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "label" TEXT;
