// The stripped images still decode, to the same pixels, in a real decoder (Chromium's createImageBitmap): JPEG, PNG
// and WebP with Exif (GPS), XMP, IPTC and comments go in, the cleaned bytes come out and are drawn pixel for pixel.
// HEIC is not decoded here (Chromium has no HEIC decoder); server/evidence/strip-metadata.test.ts checks that only
// the metadata items' bytes change.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../support/widget/browser.ts";
import { stripImageMetadata } from "../../server/evidence/strip-metadata.ts";
import type { EvidenceContentType } from "../../server/evidence/evidence-type.ts";
import {
  animatedWebpWithHiddenText,
  jpegWithHiddenText,
  jpegWithMetadata,
  PLAIN_JPEG,
  PLAIN_PNG,
  PLAIN_WEBP,
  pngWithMetadata,
  webpWithHiddenText,
  webpWithMetadata,
} from "../support/evidence-images.ts";

interface Decoded {
  width: number;
  height: number;
  pixels: number[];
}

describe("stripped evidence images decode in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(() => browser?.close());

  /** What Chromium decodes from the bytes (orientation applied, as an <img> shows it); throws when it cannot. */
  const decode = (bytes: Uint8Array, contentType: EvidenceContentType): Promise<Decoded> =>
    page.evaluate(
      async ({ base64, type }) => {
        const data = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([data], { type }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext("2d")!;
        context.drawImage(bitmap, 0, 0);
        const pixels = Array.from(context.getImageData(0, 0, bitmap.width, bitmap.height).data);
        return { width: bitmap.width, height: bitmap.height, pixels };
      },
      { base64: Buffer.from(bytes).toString("base64"), type: contentType },
    );

  // [type, the image with metadata, the plain image, a name, whether Chromium decodes the image with metadata too]
  const cases: [EvidenceContentType, Uint8Array, Uint8Array, string, boolean][] = [
    ["image/jpeg", jpegWithMetadata(1), PLAIN_JPEG, "Exif, XMP, IPTC, comments", true],
    ["image/png", pngWithMetadata(1), PLAIN_PNG, "Exif, XMP, text", true],
    ["image/webp", webpWithMetadata(), PLAIN_WEBP, "Exif, XMP", true],
    // Issue 26: text hidden in an ICC profile and segments or chunks a decoder does not need. A JPG8 segment or an
    // unknown chunk in a frame makes Chromium refuse the file itself; stripped, it decodes.
    ["image/jpeg", jpegWithHiddenText(), PLAIN_JPEG, "ICC, JFXX, APP15, JPG8", false],
    ["image/webp", webpWithHiddenText(), PLAIN_WEBP, "ICC, an unknown chunk", true],
    ["image/webp", animatedWebpWithHiddenText(), PLAIN_WEBP, "an animation frame with an unknown chunk", false],
  ];
  for (const [contentType, withMetadata, plain, name, fixtureDecodes] of cases) {
    it(`${contentType} with ${name}: the same pixels as the image before its metadata was added`, async () => {
      const expected = await decode(plain, contentType);
      assert.deepEqual([expected.width, expected.height], [8, 4]);
      if (fixtureDecodes) assert.deepEqual(await decode(withMetadata, contentType), expected, "the fixture decodes");
      assert.deepEqual(await decode(stripImageMetadata(withMetadata, contentType), contentType), expected);
    });
  }

  for (const [contentType, sideways] of [
    ["image/jpeg", jpegWithMetadata(6)],
    ["image/png", pngWithMetadata(6)],
  ] as const) {
    it(`${contentType}: a photo stored sideways (Exif orientation 6) is still shown upright after stripping`, async () => {
      const shown = await decode(sideways, contentType);
      assert.deepEqual([shown.width, shown.height], [4, 8], "Chromium applies the orientation");
      assert.deepEqual(await decode(stripImageMetadata(sideways, contentType), contentType), shown);
    });
  }
});
