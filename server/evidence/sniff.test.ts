import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { sniffEvidenceType } from "./sniff.ts";
import { EVIDENCE_CONTENT_TYPES, EVIDENCE_LIMITS } from "./evidence-type.ts";
import { heicWithMetadata, PDF, PLAIN_JPEG, PLAIN_PNG, PLAIN_WEBP } from "../../test/support/evidence-images.ts";

const text = (value: string) => new TextEncoder().encode(value);
const ftyp = (major: string, ...compatible: string[]) => {
  const bytes = text(`\0\0\0\0ftyp${major}\0\0\0\0${compatible.join("")}`);
  new DataView(bytes.buffer).setUint32(0, bytes.length);
  return bytes;
};

describe("sniffEvidenceType", () => {
  it("recognises each accepted kind by its bytes", () => {
    assert.deepEqual(sniffEvidenceType(PLAIN_JPEG), { contentType: "image/jpeg", extension: "jpg" });
    assert.deepEqual(sniffEvidenceType(PLAIN_PNG), { contentType: "image/png", extension: "png" });
    assert.deepEqual(sniffEvidenceType(PLAIN_WEBP), { contentType: "image/webp", extension: "webp" });
    assert.deepEqual(sniffEvidenceType(heicWithMetadata().bytes), { contentType: "image/heic", extension: "heic" });
    assert.deepEqual(sniffEvidenceType(PDF), { contentType: "application/pdf", extension: "pdf" });
  });

  it("goes by the bytes, not the name or the declared type: a PDF called photo.jpg is a PDF, a PNG sent as image/jpeg is a PNG", () => {
    // The function sees only bytes: there is no name or declared type it could follow.
    assert.equal(sniffEvidenceType(PDF)?.contentType, "application/pdf");
    assert.equal(sniffEvidenceType(PLAIN_PNG)?.contentType, "image/png");
  });

  it("refuses text, HTML, SVG, an empty file and near misses", () => {
    for (const bytes of [
      text("Hello, this is my receipt"),
      text("<!doctype html><script>alert(1)</script>"),
      text('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      new Uint8Array(0),
      Uint8Array.of(0xff, 0xd8), // a JPEG's first two bytes only
      PLAIN_PNG.subarray(0, 7),
      text("RIFF\0\0\0\0WAVEfmt "), // a WAV file
      text("RIFF\0\0\0\0WEBPABCD"), // RIFF WEBP without a VP8 chunk
      text(" %PDF-1.4"),
      text("GIF89a\x01\0\x01\0"),
    ]) {
      assert.equal(sniffEvidenceType(bytes), undefined, new TextDecoder().decode(bytes));
    }
  });

  it("takes an ISO-BMFF file as HEIC only when a HEIF brand is its major or a compatible brand", () => {
    for (const brand of ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]) {
      assert.equal(sniffEvidenceType(ftyp(brand))?.contentType, "image/heic", `major ${brand}`);
      assert.equal(sniffEvidenceType(ftyp("abcd", "isom", brand))?.contentType, "image/heic", `compatible ${brand}`);
    }
    assert.equal(sniffEvidenceType(ftyp("isom", "iso2", "mp41")), undefined, "an MP4 video");
    assert.equal(sniffEvidenceType(ftyp("qt  ")), undefined, "a QuickTime movie");
    assert.equal(sniffEvidenceType(ftyp("avif", "mif1", "miaf")), undefined, "an AVIF image (AV1, not HEVC)");
    // A brand past the ftyp box's own size does not count.
    const outside = ftyp("isom", "mif1");
    new DataView(outside.buffer).setUint32(0, 16);
    assert.equal(sniffEvidenceType(outside), undefined);
    const tooLong = ftyp("heic");
    new DataView(tooLong.buffer).setUint32(0, 1000);
    assert.equal(sniffEvidenceType(tooLong), undefined, "an ftyp box longer than the file");
  });

  it("publishes the limits and the accepted content types", () => {
    assert.deepEqual(EVIDENCE_LIMITS, { maxFiles: 5, maxFileBytes: 10_485_760 });
    assert.deepEqual(
      [...EVIDENCE_CONTENT_TYPES],
      ["image/jpeg", "image/png", "image/webp", "image/heic", "application/pdf"],
    );
  });
});
