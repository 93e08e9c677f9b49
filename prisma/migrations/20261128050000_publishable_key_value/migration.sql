-- Issue 28: a publishable key (wk_) is public — every checkout page that runs the widget shows it — so its value is
-- kept beside its hash, for the dashboard's getting-started snippet. Server keys (mch_, rk_) keep only their hash:
-- the column stays NULL for them, and for publishable keys minted before this migration.

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "publishable_key" TEXT;
