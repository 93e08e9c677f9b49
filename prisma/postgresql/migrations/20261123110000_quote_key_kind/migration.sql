-- A quote records the kind of key that made it (publishable or secret): a publishable key may decline only quotes a
-- publishable key made. Quotes made before this count as secret, so no browser can decline them.
ALTER TABLE "quotes" ADD COLUMN "key_kind" TEXT NOT NULL DEFAULT 'secret';
ALTER TABLE "quotes" ALTER COLUMN "key_kind" DROP DEFAULT;
