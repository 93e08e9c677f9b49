-- A token that every write of a shop's installation row replaces with a fresh random one (app/shopify/store/shops.ts):
-- each app process keeps the installations it read and, before using one, reads this column alone to see whether the
-- row changed (uninstall, re-install with new keys, going live, a new protection product). Random rather than counted,
-- so that a shop erased (shop/redact) and installed again never repeats a token a process still holds.

-- AlterTable
ALTER TABLE "shop_installations" ADD COLUMN "version" TEXT NOT NULL DEFAULT '';
