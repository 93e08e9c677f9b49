import { ByteReader, concatBytes, malformed } from "./byte-reader.ts";

// WebP: a RIFF container of chunks. The EXIF and XMP chunks go, the VP8X header's flags stop announcing them (a
// decoder may otherwise look for them), and the RIFF size is recomputed. The image chunks (VP8, VP8L, ALPH, ANIM,
// ANMF) and the colour profile (ICCP) are copied untouched. Written by hand: chunk filtering is a few lines, and
// no npm stripper also covers HEIC with the same rules.

const FORMAT = "WebP";
const DROPPED_CHUNKS = new Set(["EXIF", "XMP "]);
const VP8X_EXIF_FLAG = 0x08;
const VP8X_XMP_FLAG = 0x04;

export function stripWebpMetadata(bytes: Uint8Array): Uint8Array {
  const reader = new ByteReader(bytes, FORMAT);
  if (reader.ascii(0, 4, "RIFF header") !== "RIFF" || reader.ascii(8, 4, "RIFF header") !== "WEBP") {
    throw malformed(FORMAT, "no RIFF WEBP header");
  }
  const riffEnd = 8 + reader.u32le(4, "RIFF size");
  if (riffEnd > bytes.length) throw malformed(FORMAT, "the RIFF size runs past the end");
  const kept: Uint8Array[] = [];
  let position = 12;
  // Bytes past the RIFF size are not part of the image: they are dropped.
  while (position < riffEnd) {
    const type = reader.ascii(position, 4, "chunk header");
    const size = reader.u32le(position + 4, "chunk header");
    const padded = size + (size % 2); // chunks are padded to an even length
    if (position + 8 + padded > riffEnd) {
      // The last chunk's padding byte is often missing in the wild; anything more is a truncated file.
      if (position + 8 + size !== riffEnd) throw malformed(FORMAT, `chunk ${type} runs past the end`);
    }
    const chunk = bytes.subarray(position, Math.min(position + 8 + padded, riffEnd));
    position += 8 + padded;
    if (DROPPED_CHUNKS.has(type)) continue;
    if (type === "VP8X") {
      if (size < 10) throw malformed(FORMAT, "VP8X header");
      const header = chunk.slice();
      header[8] &= ~(VP8X_EXIF_FLAG | VP8X_XMP_FLAG);
      kept.push(header);
    } else {
      kept.push(chunk);
    }
  }
  if (kept.length === 0) throw malformed(FORMAT, "no image chunk");
  let body = concatBytes(kept);
  if (body.length % 2 === 1) body = concatBytes([body, new Uint8Array(1)]); // restore a missing final padding byte
  const header = new Uint8Array(12);
  header.set(bytes.subarray(0, 12));
  new DataView(header.buffer).setUint32(4, 4 + body.length, true);
  return concatBytes([header, body]);
}
