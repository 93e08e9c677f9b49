import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { hammingDistance, hashBands, HASH_BANDS, perceptualHash, PERCEPTUAL_HASH_BITS } from "./perceptual-hash.ts";
import { stripImageMetadata } from "./strip-metadata.ts";
import { NEAR_PHOTO_MAX_BITS } from "../domain/claim-risk.ts";
import {
  PDF,
  PLAIN_JPEG,
  PLAIN_PNG,
  PLAIN_WEBP,
  photoPng,
  pngWithMetadata,
} from "../../test/support/evidence-images.ts";

describe("perceptualHash", () => {
  it("hashes JPEG, PNG and WebP into 256 bits; the same picture in the three formats lands within the near bar", async () => {
    const hashes = await Promise.all([
      perceptualHash(PLAIN_JPEG, "image/jpeg"),
      perceptualHash(PLAIN_PNG, "image/png"),
      perceptualHash(PLAIN_WEBP, "image/webp"),
    ]);
    for (const hash of hashes) assert.match(hash ?? "", new RegExp(`^[0-9a-f]{${PERCEPTUAL_HASH_BITS / 4}}$`));
    for (const hash of hashes.slice(1)) assert.ok(hammingDistance(hashes[0]!, hash!) <= NEAR_PHOTO_MAX_BITS);
  });

  it("finds a brightened copy and a stripped copy near; another picture far", async () => {
    const photo = (await perceptualHash(photoPng(7), "image/png"))!;
    const brighter = (await perceptualHash(photoPng(7, { brighten: 12 }), "image/png"))!;
    const marked = (await perceptualHash(photoPng(7, { mark: [3, 4] }), "image/png"))!;
    const other = (await perceptualHash(photoPng(8), "image/png"))!;
    assert.ok(hammingDistance(photo, brighter) <= NEAR_PHOTO_MAX_BITS, "brightened");
    assert.ok(hammingDistance(photo, marked) <= NEAR_PHOTO_MAX_BITS, "one cell painted");
    assert.ok(
      hammingDistance(photo, other) > 3 * NEAR_PHOTO_MAX_BITS,
      `another picture: ${hammingDistance(photo, other)}`,
    );
    const stripped = stripImageMetadata(pngWithMetadata(), "image/png");
    assert.equal(await perceptualHash(stripped, "image/png"), await perceptualHash(PLAIN_PNG, "image/png"));
  });

  it("gives no hash for a PDF, a HEIC or bytes that do not decode", async () => {
    assert.equal(await perceptualHash(PDF, "application/pdf"), null);
    assert.equal(await perceptualHash(PLAIN_JPEG, "image/heic"), null);
    assert.equal(await perceptualHash(PLAIN_PNG.slice(0, 40), "image/png"), null);
  });
});

describe("hashBands", () => {
  it("cuts a hash into 16 bands that put it back together; hashes 15 bits apart share a band", () => {
    const hash = "0123456789abcdef".repeat(4);
    assert.equal(hashBands(hash).length, HASH_BANDS);
    assert.equal(hashBands(hash).join(""), hash);
    // One bit flipped in each of 15 bands: the 16th is left whole.
    const flipped = hashBands(hash)
      .map((band, index) => (index < 15 ? (parseInt(band, 16) ^ 1).toString(16).padStart(4, "0") : band))
      .join("");
    assert.equal(hammingDistance(hash, flipped), 15);
    assert.ok(hashBands(hash).some((band, index) => hashBands(flipped)[index] === band));
  });
});
