import { ByteReader, concatBytes, malformed } from "./byte-reader.ts";

// WebP: a RIFF container of chunks. Only the chunks a decoder needs to draw the image are copied (an allow-list):
// VP8X (the extended header), VP8 and VP8L (the bitstreams), ALPH (transparency), ANIM and ANMF (an animation and its
// frames, each frame's own chunks filtered the same way). EXIF, XMP, the ICC profile (ICCP: see strip-png.ts for why
// it goes) and any unknown chunk go; the VP8X flags stop announcing what went (a decoder may otherwise look for it),
// and the RIFF size is recomputed. Written by hand: chunk filtering is a few lines, and no npm stripper also covers
// HEIC with the same rules.

const FORMAT = "WebP";
const KEPT_CHUNKS = new Set(["VP8X", "VP8 ", "VP8L", "ALPH", "ANIM", "ANMF"]);
/** What an animation frame (ANMF) holds after its 16-byte header: its image and transparency. */
const KEPT_FRAME_CHUNKS = new Set(["VP8 ", "VP8L", "ALPH"]);
const ANMF_HEADER_SIZE = 16;
const VP8X_ICC_FLAG = 0x20;
const VP8X_EXIF_FLAG = 0x08;
const VP8X_XMP_FLAG = 0x04;

export function stripWebpMetadata(bytes: Uint8Array): Uint8Array {
  const reader = new ByteReader(bytes, FORMAT);
  if (reader.ascii(0, 4, "RIFF header") !== "RIFF" || reader.ascii(8, 4, "RIFF header") !== "WEBP") {
    throw malformed(FORMAT, "no RIFF WEBP header");
  }
  const riffEnd = 8 + reader.u32le(4, "RIFF size");
  if (riffEnd > bytes.length) throw malformed(FORMAT, "the RIFF size runs past the end");
  // Bytes past the RIFF size are not part of the image: they are dropped.
  const kept = keptChunks(reader, bytes, 12, riffEnd, KEPT_CHUNKS);
  if (kept.length === 0) throw malformed(FORMAT, "no image chunk");
  let body = concatBytes(kept);
  if (body.length % 2 === 1) body = concatBytes([body, new Uint8Array(1)]); // restore a missing final padding byte
  const header = new Uint8Array(12);
  header.set(bytes.subarray(0, 12));
  new DataView(header.buffer).setUint32(4, 4 + body.length, true);
  return concatBytes([header, body]);
}

/** The chunks between `start` and `end` whose type is in `keep`, VP8X and ANMF rewritten as they lose content. */
function keptChunks(
  reader: ByteReader,
  bytes: Uint8Array,
  start: number,
  end: number,
  keep: ReadonlySet<string>,
): Uint8Array[] {
  const kept: Uint8Array[] = [];
  let position = start;
  while (position < end) {
    const chunkStart = position;
    const type = reader.ascii(position, 4, "chunk header");
    const size = reader.u32le(position + 4, "chunk header");
    const padded = size + (size % 2); // chunks are padded to an even length
    if (position + 8 + padded > end) {
      // The last chunk's padding byte is often missing in the wild; anything more is a truncated file.
      if (position + 8 + size !== end) throw malformed(FORMAT, `chunk ${type} runs past the end`);
    }
    const chunk = bytes.subarray(position, Math.min(position + 8 + padded, end));
    position += 8 + padded;
    if (!keep.has(type)) continue;
    if (type === "VP8X") {
      if (size < 10) throw malformed(FORMAT, "VP8X header");
      const header = chunk.slice();
      header[8] &= ~(VP8X_ICC_FLAG | VP8X_EXIF_FLAG | VP8X_XMP_FLAG);
      kept.push(header);
    } else if (type === "ANMF") {
      if (size < ANMF_HEADER_SIZE) throw malformed(FORMAT, "ANMF header");
      const dataStart = chunkStart + 8;
      const frame = concatBytes([
        chunk.subarray(8, 8 + ANMF_HEADER_SIZE),
        ...keptChunks(reader, bytes, dataStart + ANMF_HEADER_SIZE, dataStart + size, KEPT_FRAME_CHUNKS),
      ]);
      const frameHeader = Uint8Array.from([...chunk.subarray(0, 4), 0, 0, 0, 0]);
      new DataView(frameHeader.buffer).setUint32(4, frame.length, true);
      kept.push(frameHeader, frame, new Uint8Array(frame.length % 2));
    } else {
      kept.push(chunk);
    }
  }
  return kept;
}
