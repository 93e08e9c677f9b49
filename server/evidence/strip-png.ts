import { crc32 } from "node:zlib";
import { ByteReader, concatBytes, malformed } from "./byte-reader.ts";
import { exifOrientation, orientationOnlyExif } from "./exif-orientation.ts";

// PNG: only the chunks a viewer needs to draw the image are copied, with their CRCs (an allow-list: any other chunk,
// known — eXIf with GPS, tEXt/zTXt/iTXt with comments and XMP, tIME, caBX content credentials, sPLT's palette name,
// bKGD, pHYs — or private and unknown, can carry text and goes). Kept: the image (IHDR, PLTE, IDAT, IEND), its
// transparency (tRNS), the numeric colour chunks that change how it renders (gAMA, cHRM, sRGB, cICP) and APNG's
// frames (acTL, fcTL, fdAT). The ICC profile (iCCP) goes too: a profile is a free-form binary whose text tags
// (description, copyright, device maker and model, private tags) can hold anything, and without it a viewer draws
// the image as sRGB, which is what phones and cameras write — a wide-gamut photo loses a little saturation, which
// does not change what evidence shows. A non-default Exif orientation is kept as an eXIf chunk holding that tag
// alone (Chromium rotates PNGs by it). Written by hand: a PNG is a flat list of length-prefixed chunks, a dozen lines
// to filter, and no npm stripper also covers WebP and HEIC.

const FORMAT = "PNG";
const KEPT_CHUNKS = new Set([
  "IHDR",
  "PLTE",
  "IDAT",
  "IEND",
  "tRNS",
  "gAMA",
  "cHRM",
  "sRGB",
  "cICP",
  "acTL",
  "fcTL",
  "fdAT",
]);
const SIGNATURE_LENGTH = 8;

export function stripPngMetadata(bytes: Uint8Array): Uint8Array {
  const reader = new ByteReader(bytes, FORMAT);
  reader.need(0, SIGNATURE_LENGTH, "signature");
  const kept: Uint8Array[] = [bytes.subarray(0, SIGNATURE_LENGTH)];
  let position = SIGNATURE_LENGTH;
  let chunkIndex = 0;
  for (;;) {
    const length = reader.u32be(position, "chunk length");
    const type = reader.ascii(position + 4, 4, "chunk type");
    if (chunkIndex === 0 && type !== "IHDR") throw malformed(FORMAT, "the first chunk is not IHDR");
    reader.need(position, 12 + length, `chunk ${type}`);
    const chunk = bytes.subarray(position, position + 12 + length);
    if (type === "eXIf" && !kept.some(isExifChunk)) {
      const orientation = exifOrientation(chunk.subarray(8, 8 + length));
      if (orientation !== undefined) kept.push(pngChunk("eXIf", orientationOnlyExif(orientation)));
    }
    if (KEPT_CHUNKS.has(type)) kept.push(chunk);
    position += 12 + length;
    chunkIndex += 1;
    // Anything after IEND is not part of the image (and can hide anything): it is dropped.
    if (type === "IEND") return concatBytes(kept);
  }
}

const isExifChunk = (chunk: Uint8Array): boolean => String.fromCharCode(...chunk.subarray(4, 8)) === "eXIf";

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeAndData = concatBytes([Uint8Array.from(type, (char) => char.charCodeAt(0)), data]);
  const chunk = new Uint8Array(typeAndData.length + 8);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(typeAndData, 4);
  view.setUint32(chunk.length - 4, crc32(typeAndData));
  return chunk;
}
