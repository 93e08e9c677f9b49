import { crc32 } from "node:zlib";
import { ByteReader, concatBytes, malformed } from "./byte-reader.ts";
import { exifOrientation, orientationOnlyExif } from "./exif-orientation.ts";

// PNG: the chunks are copied with their CRCs except those that carry text or metadata: eXIf (Exif, GPS), tEXt,
// zTXt and iTXt (comments, XMP — "XML:com.adobe.xmp" is an iTXt), tIME (when it was last edited) and caBX (C2PA
// content credentials, which can name the author). Pixels and colour chunks are untouched. A non-default Exif
// orientation is kept as an eXIf chunk holding that tag alone (Chromium rotates PNGs by it). Written by hand: a PNG is
// a flat list of length-prefixed chunks, a dozen lines to filter, and no npm stripper also covers WebP and HEIC.

const FORMAT = "PNG";
const DROPPED_CHUNKS = new Set(["eXIf", "tEXt", "zTXt", "iTXt", "tIME", "caBX"]);
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
    if (!DROPPED_CHUNKS.has(type)) kept.push(chunk);
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
