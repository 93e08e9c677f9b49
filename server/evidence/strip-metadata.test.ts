import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { crc32 } from "node:zlib";
import { stripImageMetadata } from "./strip-metadata.ts";
import { EvidenceUnsupportedError } from "./evidence-type.ts";
import {
  CAMERA_MAKE,
  COMMENT_MARKER,
  concat,
  containsBytes,
  GPS_LATITUDE_BYTES,
  ADOBE_APP14,
  animatedWebpWithHiddenText,
  heicWithMetadata,
  HIDDEN_TEXT,
  jpegWithHiddenText,
  pngWithHiddenText,
  webpWithHiddenText,
  HEIC_ICC_TEXT,
  HEIC_IMAGE_DATA,
  jpegWithMetadata,
  PDF,
  PLAIN_JPEG,
  PLAIN_PNG,
  PLAIN_WEBP,
  pngChunk,
  pngWithMetadata,
  webpWithMetadata,
  XMP_MARKER,
} from "../../test/support/evidence-images.ts";

/** The marker segments of a JPEG up to its first scan, as [marker, payload] (a reader independent of the code). */
function jpegHeaderSegments(bytes: Uint8Array): [number, Uint8Array][] {
  const segments: [number, Uint8Array][] = [];
  let position = 2;
  for (;;) {
    assert.equal(bytes[position], 0xff);
    const marker = bytes[position + 1];
    const length = (bytes[position + 2] << 8) | bytes[position + 3];
    segments.push([marker, bytes.subarray(position + 4, position + 2 + length)]);
    if (marker === 0xda) return segments;
    position += 2 + length;
  }
}

const pngChunkTypes = (bytes: Uint8Array): string[] => {
  const types: string[] = [];
  for (let position = 8; position < bytes.length;) {
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(position);
    types.push(new TextDecoder().decode(bytes.subarray(position + 4, position + 8)));
    position += 12 + length;
  }
  return types;
};

const webpChunks = (bytes: Uint8Array): { type: string; data: Uint8Array }[] => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const chunks = [];
  for (let position = 12; position < bytes.length;) {
    const size = view.getUint32(position + 4, true);
    chunks.push({
      type: new TextDecoder().decode(bytes.subarray(position, position + 4)),
      data: bytes.subarray(position + 8, position + 8 + size),
    });
    position += 8 + size + (size % 2);
  }
  return chunks;
};

const metadataTraces = (bytes: Uint8Array) => ({
  gps: containsBytes(bytes, GPS_LATITUDE_BYTES),
  make: containsBytes(bytes, CAMERA_MAKE),
  xmp: containsBytes(bytes, XMP_MARKER),
  comment: containsBytes(bytes, COMMENT_MARKER),
});
const NO_TRACES = { gps: false, make: false, xmp: false, comment: false };

describe("stripImageMetadata: JPEG", () => {
  it("drops Exif (GPS), XMP, IPTC, MPF, comments, the ICC profile and what follows EOI; keeps JFIF and the image", () => {
    const input = jpegWithMetadata(1);
    assert.deepEqual(metadataTraces(input), { gps: true, make: true, xmp: true, comment: true });
    const before = input.slice();
    const output = stripImageMetadata(input, "image/jpeg");
    assert.deepEqual(input, before, "the input is not changed");
    assert.deepEqual(metadataTraces(output), NO_TRACES);
    // Orientation 1 (as stored) needs no Exif at all: what is left is the plain image without its ICC profile.
    const iccStart = 4 + ((PLAIN_JPEG[4] << 8) | PLAIN_JPEG[5]);
    const iccEnd = iccStart + 2 + ((PLAIN_JPEG[iccStart + 2] << 8) | PLAIN_JPEG[iccStart + 3]);
    assert.deepEqual(output, concat(PLAIN_JPEG.subarray(0, iccStart), PLAIN_JPEG.subarray(iccEnd)));
    assert.deepEqual(
      jpegHeaderSegments(output).map(([marker]) => marker),
      [0xe0, 0xdb, 0xdb, 0xc0, 0xc4, 0xc4, 0xc4, 0xc4, 0xda],
    );
  });

  it("keeps only what a decoder needs (issue 26): no ICC profile, JFXX, APP15 or JPGn text survives; Adobe stays", () => {
    const input = jpegWithHiddenText();
    assert.ok(containsBytes(input, HIDDEN_TEXT));
    const output = stripImageMetadata(input, "image/jpeg");
    assert.ok(!containsBytes(output, HIDDEN_TEXT), "no hidden text");
    const segments = jpegHeaderSegments(output);
    assert.deepEqual(
      segments.map(([marker]) => marker),
      [0xe0, 0xee, 0xdb, 0xdb, 0xc0, 0xc4, 0xc4, 0xc4, 0xc4, 0xda],
    );
    assert.ok(containsBytes(output, ADOBE_APP14), "APP14 Adobe kept byte for byte (CMYK/YCCK decoding)");
    assert.ok(containsBytes(segments[0][1], "JFIF\0"));
  });

  it("keeps a non-default orientation as a minimal Exif segment holding that tag alone", () => {
    const output = stripImageMetadata(jpegWithMetadata(6), "image/jpeg");
    assert.deepEqual(metadataTraces(output), NO_TRACES);
    const exif = jpegHeaderSegments(output).filter(([marker]) => marker === 0xe1);
    assert.equal(exif.length, 1);
    const tiff = exif[0][1].subarray(6);
    const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.length);
    assert.equal(new TextDecoder().decode(tiff.subarray(0, 2)), "MM");
    const ifd = view.getUint32(4);
    assert.equal(view.getUint16(ifd), 1, "one entry");
    assert.deepEqual([view.getUint16(ifd + 2), view.getUint16(ifd + 4), view.getUint16(ifd + 10)], [0x0112, 3, 6]);
    assert.equal(view.getUint32(ifd + 14), 0, "no further IFD (no GPS IFD, no thumbnail)");
  });

  it("copies the scan data untouched, stuffed bytes and restart markers included", () => {
    const output = stripImageMetadata(jpegWithMetadata(1), "image/jpeg");
    const sos = PLAIN_JPEG.findLastIndex((byte, index) => byte === 0xff && PLAIN_JPEG[index + 1] === 0xda);
    assert.ok(containsBytes(output, PLAIN_JPEG.subarray(sos)));
    // A scan with 0xFF00 and RST0 inside, and an APP1 after it (as progressive files may have between scans).
    const scanData = Uint8Array.of(0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56);
    const exifAfterScan = concat(
      Uint8Array.of(0xff, 0xe1, 0x00, 0x12),
      new TextEncoder().encode("Exif\0\0"),
      GPS_LATITUDE_BYTES.subarray(0, 8),
    );
    const crafted = concat(
      PLAIN_JPEG.subarray(0, PLAIN_JPEG.length - 2),
      scanData,
      exifAfterScan,
      Uint8Array.of(0xff, 0xd9),
    );
    const cleaned = stripImageMetadata(crafted, "image/jpeg");
    assert.ok(containsBytes(cleaned, concat(scanData, Uint8Array.of(0xff, 0xd9))));
    assert.ok(!containsBytes(cleaned, GPS_LATITUDE_BYTES.subarray(0, 8)));
  });

  it("closes a file cut off inside its scan data with EOI, and refuses one cut off before it", () => {
    const cut = PLAIN_JPEG.subarray(0, PLAIN_JPEG.length - 6);
    const output = stripImageMetadata(cut, "image/jpeg");
    assert.deepEqual(output.subarray(-2), Uint8Array.of(0xff, 0xd9));
    assert.throws(() => stripImageMetadata(PLAIN_JPEG.subarray(0, 300), "image/jpeg"), EvidenceUnsupportedError);
    assert.throws(() => stripImageMetadata(PLAIN_PNG, "image/jpeg"), EvidenceUnsupportedError);
  });
});

describe("stripImageMetadata: PNG", () => {
  it("drops eXIf, tEXt, zTXt, iTXt, tIME and what follows IEND; keeps every other chunk byte for byte", () => {
    const input = pngWithMetadata(1);
    assert.deepEqual(metadataTraces(input), { gps: true, make: true, xmp: true, comment: true });
    const output = stripImageMetadata(input, "image/png");
    assert.deepEqual(metadataTraces(output), NO_TRACES);
    assert.deepEqual(pngChunkTypes(output), ["IHDR", "IDAT", "IDAT", "IEND"]);
    assert.deepEqual(output, PLAIN_PNG);
  });

  it("keeps a non-default orientation as an eXIf chunk holding that tag alone", () => {
    const output = stripImageMetadata(pngWithMetadata(6), "image/png");
    assert.deepEqual(metadataTraces(output), NO_TRACES);
    assert.deepEqual(pngChunkTypes(output), ["IHDR", "eXIf", "IDAT", "IDAT", "IEND"]);
    const exifAt = 8 + 25;
    const tiff = output.subarray(exifAt + 8, exifAt + 8 + new DataView(output.buffer).getUint32(exifAt));
    assert.deepEqual(
      [...tiff],
      [0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0],
    );
    const crc = new DataView(output.buffer).getUint32(exifAt + 8 + tiff.length);
    assert.equal(crc, crc32(output.subarray(exifAt + 4, exifAt + 8 + tiff.length)), "a valid CRC");
  });

  it("keeps only what draws the image (issue 26): no ICC profile, private chunk, sPLT, bKGD or pHYs survives", () => {
    const input = pngWithHiddenText();
    assert.ok(containsBytes(input, HIDDEN_TEXT));
    const output = stripImageMetadata(input, "image/png");
    assert.ok(!containsBytes(output, HIDDEN_TEXT), "no hidden text");
    assert.deepEqual(pngChunkTypes(output), ["IHDR", "gAMA", "cHRM", "sRGB", "tRNS", "IDAT", "IDAT", "IEND"]);
  });

  it("keeps colour and transparency chunks", () => {
    const withColour = concat(
      PLAIN_PNG.subarray(0, 33),
      pngChunk("sRGB", Uint8Array.of(0)),
      pngChunk("tEXt", new TextEncoder().encode("a\0b")),
      PLAIN_PNG.subarray(33),
    );
    assert.deepEqual(pngChunkTypes(stripImageMetadata(withColour, "image/png")), [
      "IHDR",
      "sRGB",
      "IDAT",
      "IDAT",
      "IEND",
    ]);
  });

  it("refuses a PNG without IHDR first, a truncated chunk or no IEND", () => {
    for (const bytes of [
      PLAIN_PNG.subarray(0, 40),
      PLAIN_PNG.subarray(0, PLAIN_PNG.length - 12),
      concat(PLAIN_PNG.subarray(0, 8), PLAIN_PNG.subarray(33)),
    ]) {
      assert.throws(() => stripImageMetadata(bytes, "image/png"), EvidenceUnsupportedError);
    }
  });
});

describe("stripImageMetadata: WebP", () => {
  it("drops the EXIF, XMP and ICCP chunks, clears their VP8X flags and fixes the RIFF size", () => {
    const input = webpWithMetadata();
    assert.deepEqual(metadataTraces(input), { gps: true, make: true, xmp: true, comment: false });
    const output = stripImageMetadata(input, "image/webp");
    assert.deepEqual(metadataTraces(output), NO_TRACES);
    const chunks = webpChunks(output);
    assert.deepEqual(
      chunks.map((chunk) => chunk.type),
      ["VP8X", "VP8 "],
    );
    assert.equal(chunks[0].data[0] & 0x2c, 0, "ICC, EXIF and XMP flags cleared");
    assert.equal(new DataView(output.buffer, output.byteOffset).getUint32(4, true), output.length - 8);
    assert.deepEqual(chunks[1].data, webpChunks(PLAIN_WEBP)[2].data, "the bitstream untouched");
  });

  it("keeps only what draws the image (issue 26): no ICC profile or unknown chunk survives, in a frame neither", () => {
    for (const input of [webpWithHiddenText(), animatedWebpWithHiddenText()]) {
      assert.ok(containsBytes(input, HIDDEN_TEXT));
      const output = stripImageMetadata(input, "image/webp");
      assert.ok(!containsBytes(output, HIDDEN_TEXT), "no hidden text");
      assert.equal(new DataView(output.buffer, output.byteOffset).getUint32(4, true), output.length - 8);
    }
    const still = webpChunks(stripImageMetadata(webpWithHiddenText(), "image/webp"));
    assert.deepEqual(
      still.map((chunk) => chunk.type),
      ["VP8X", "VP8 "],
    );
    const animated = webpChunks(stripImageMetadata(animatedWebpWithHiddenText(), "image/webp"));
    assert.deepEqual(
      animated.map((chunk) => chunk.type),
      ["VP8X", "ANIM", "ANMF"],
    );
    assert.equal(animated[0].data[0], 0x02, "the animation flag kept");
    const frame = animated[2].data;
    const vp8 = webpChunks(PLAIN_WEBP)[2];
    assert.equal(frame.length, 16 + 8 + vp8.data.length, "the frame's header and its bitstream, nothing else");
    assert.deepEqual(frame.subarray(16 + 8), vp8.data);
  });

  it("refuses a truncated file and a chunk that runs past the RIFF size", () => {
    assert.throws(() => stripImageMetadata(PLAIN_WEBP.subarray(0, 100), "image/webp"), EvidenceUnsupportedError);
    const lying = PLAIN_WEBP.slice();
    new DataView(lying.buffer).setUint32(16, 0xfffffff0, true);
    assert.throws(() => stripImageMetadata(lying, "image/webp"), EvidenceUnsupportedError);
  });
});

describe("stripImageMetadata: HEIC", () => {
  it("overwrites the Exif and XMP items' bytes and the ICC profile with zeros and changes no other byte", () => {
    const sample = heicWithMetadata();
    assert.deepEqual(metadataTraces(sample.bytes), { gps: true, make: true, xmp: true, comment: false });
    assert.ok(containsBytes(sample.bytes, HEIC_ICC_TEXT));
    const output = stripImageMetadata(sample.bytes, "image/heic");
    assert.deepEqual(metadataTraces(output), NO_TRACES);
    assert.ok(!containsBytes(output, HEIC_ICC_TEXT), "no text of the ICC profile survives (issue 26)");
    assert.equal(output.length, sample.bytes.length);
    // The ICC colr box keeps its size (every offset and ipco index stays right) as a free box of zeros.
    const [iccStart, iccEnd] = sample.iccBoxRange;
    assert.deepEqual(
      output.subarray(iccStart, iccStart + 8),
      concat(sample.bytes.subarray(iccStart, iccStart + 4), new TextEncoder().encode("free")),
    );
    const zeroed = [sample.exifRange, sample.xmpRange, [iccStart + 8, iccEnd]];
    const iccType = [iccStart + 4, iccStart + 8];
    for (let index = 0; index < output.length; index += 1) {
      if (index >= iccType[0] && index < iccType[1]) continue;
      if (index === sample.iccAssociationAt) continue;
      const inMetadata = zeroed.some(([start, end]) => index >= start && index < end);
      assert.equal(output[index], inMetadata ? 0 : sample.bytes[index], `byte ${index}`);
    }
    // ipma still gives item 1 property 2, no longer essential; the nclx colr box stays as it was.
    assert.equal(sample.bytes[sample.iccAssociationAt], 0x82);
    assert.equal(output[sample.iccAssociationAt], 0x02);
    assert.deepEqual(output.subarray(...sample.nclxBoxRange), sample.bytes.subarray(...sample.nclxBoxRange));
    assert.equal(
      new TextDecoder().decode(output.subarray(sample.nclxBoxRange[0] + 4, sample.nclxBoxRange[0] + 12)),
      "colrnclx",
    );
    assert.deepEqual(output.subarray(...sample.imageRange), HEIC_IMAGE_DATA);
  });

  it("leaves a HEIC without metadata items as it was, and refuses broken boxes", () => {
    const sample = heicWithMetadata();
    const cleaned = stripImageMetadata(sample.bytes, "image/heic");
    assert.deepEqual(stripImageMetadata(cleaned, "image/heic"), cleaned, "zeroed items stay zeros");
    assert.throws(
      () => stripImageMetadata(sample.bytes.subarray(0, sample.bytes.length - 5), "image/heic"),
      EvidenceUnsupportedError,
    );
    const pointingOutside = sample.bytes.slice();
    const exifOffsetAt = Buffer.from(pointingOutside).indexOf(Buffer.from(Uint8Array.of(0, 2, 0, 0, 0, 0, 0, 1))) + 8;
    new DataView(pointingOutside.buffer).setUint32(exifOffsetAt, sample.bytes.length - 4);
    assert.throws(() => stripImageMetadata(pointingOutside, "image/heic"), EvidenceUnsupportedError);
  });
});

describe("stripImageMetadata: PDF", () => {
  it("returns the PDF unchanged, as a copy", () => {
    const output = stripImageMetadata(PDF, "application/pdf");
    assert.deepEqual(output, PDF);
    assert.notEqual(output, PDF);
  });
});
