import { ByteReader, concatBytes, malformed } from "./byte-reader.ts";
import { exifOrientation, orientationOnlyExif } from "./exif-orientation.ts";

// JPEG: the marker segments before and between the scans are walked and kept only when a decoder needs them; the
// compressed scan data is copied untouched (no re-encoding, no quality loss). Written by hand: the npm strippers
// cover JPEG alone, with a deny-list of APP1/APP13/COM (exifremove, exif-be-gone), while this keeps an allow-list:
//   the frame, table and scan segments (SOFn, DHT, DAC, DQT, DRI, DNL, SOS), APP0 JFIF and APP14 Adobe (how CMYK/YCCK
//   decodes). Everything else goes: every other APPn (APP1 Exif with GPS and XMP, APP2 ICC and MPF, APP0 JFXX
//   thumbnails, APP13 Photoshop/IPTC, APP11 JUMBF/C2PA…), COM, JPGn (0xF0–0xFD) and any reserved marker. The ICC
//   profile goes for the reason strip-png.ts gives: it can carry any text, and without it the image is drawn as sRGB.
// The Exif orientation is the one Exif fact a viewer needs (phone photos are stored sideways): it is written back as
// a minimal Exif segment holding that single tag. Everything after EOI goes too: MPF and maker trailers put further
// JPEGs there, each with its own Exif and GPS.

const FORMAT = "JPEG";
const EOI = Uint8Array.of(0xff, 0xd9);

const startsWithAscii = (payload: Uint8Array, text: string): boolean =>
  payload.length >= text.length && [...text].every((char, index) => payload[index] === char.charCodeAt(0));

export function stripJpegMetadata(bytes: Uint8Array): Uint8Array {
  const reader = new ByteReader(bytes, FORMAT);
  if (reader.u8(0, "start of image") !== 0xff || reader.u8(1, "start of image") !== 0xd8) {
    throw malformed(FORMAT, "no start-of-image marker");
  }
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let orientationWritten = false;
  let scanSeen = false;
  let position = 2;
  while (position < bytes.length) {
    if (bytes[position] !== 0xff) throw malformed(FORMAT, `no marker at byte ${position}`);
    // 0xFF fill bytes may stand before a marker.
    while (bytes[position + 1] === 0xff) position += 1;
    const marker = reader.u8(position + 1, "marker");
    if (marker === 0xd9) {
      kept.push(EOI);
      position = bytes.length;
      break;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      kept.push(bytes.subarray(position, position + 2)); // RSTn and TEM stand alone, without a length
      position += 2;
      continue;
    }
    if (marker === 0x00 || marker === 0xd8) throw malformed(FORMAT, `unexpected marker at byte ${position}`);
    const length = reader.u16be(position + 2, "segment length");
    if (length < 2) throw malformed(FORMAT, "segment length");
    reader.need(position + 2, length, "segment");
    const segment = bytes.subarray(position, position + 2 + length);
    const payload = segment.subarray(4);
    position += 2 + length;

    if (marker === 0xe1 && !orientationWritten && startsWithAscii(payload, "Exif\0\0")) {
      const orientation = exifOrientation(payload.subarray(6));
      if (orientation !== undefined) {
        const exif = concatBytes([
          Uint8Array.from("Exif\0\0", (char) => char.charCodeAt(0)),
          orientationOnlyExif(orientation),
        ]);
        kept.push(Uint8Array.of(0xff, 0xe1, (exif.length + 2) >> 8, (exif.length + 2) & 0xff), exif);
        orientationWritten = true;
      }
    }
    if (keepsSegment(marker, payload)) kept.push(segment);
    if (marker === 0xda) {
      scanSeen = true;
      const scanEnd = endOfScanData(bytes, position);
      kept.push(bytes.subarray(position, scanEnd));
      position = scanEnd;
    }
  }
  if (!scanSeen) throw malformed(FORMAT, "no image data");
  // A file cut off inside its last scan still decodes as far as it goes; it is closed with EOI so it ends properly.
  if (kept.at(-1) !== EOI) kept.push(EOI);
  return concatBytes(kept);
}

/** SOF0–SOF15 but DHT (0xC4), JPG (0xC8) and DAC (0xCC); then DHT, DAC, SOS, DQT, DNL, DRI. */
const DECODER_MARKERS = new Set([
  ...[0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf],
  ...[0xc4, 0xcc, 0xda, 0xdb, 0xdc, 0xdd],
]);

function keepsSegment(marker: number, payload: Uint8Array): boolean {
  if (DECODER_MARKERS.has(marker)) return true;
  if (marker === 0xe0) return startsWithAscii(payload, "JFIF\0");
  if (marker === 0xee) return startsWithAscii(payload, "Adobe");
  return false;
}

/** Where the entropy-coded data that starts at `from` ends: the first marker other than RSTn (0xFF00 is a stuffed 0xFF). */
function endOfScanData(bytes: Uint8Array, from: number): number {
  let position = from;
  for (;;) {
    position = bytes.indexOf(0xff, position);
    if (position === -1 || position + 1 >= bytes.length) return bytes.length;
    const next = bytes[position + 1];
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) position += next === 0xff ? 1 : 2;
    else return position;
  }
}
