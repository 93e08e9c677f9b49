-- Issue 30: the Shopify app follows the outbox (protection and claim events) to write them back onto the orders and
-- start the merchants' Flow workflows. Its watermark starts at the last event written now: the history before this
-- release starts nothing. (WHERE true: SQLite's parser needs it before an upsert clause.)
INSERT INTO "webhook_fanout" ("name", "last_seq")
SELECT 'shopify-orders', COALESCE(MAX("seq"), 0) FROM "events" WHERE true
ON CONFLICT DO NOTHING;
