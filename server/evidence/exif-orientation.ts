import { ByteReader } from "./byte-reader.ts";
import { EvidenceUnsupportedError } from "./evidence-type.ts";

// The Exif Orientation tag is the one Exif fact a viewer needs: phones store photos sideways and say so there, and
// Chromium turns JPEGs and PNGs upright by it. Stripping keeps it, alone, in a minimal Exif structure.

/** The Orientation tag (0x0112) of IFD0 in an Exif TIFF structure; undefined when absent, 1 or unreadable. */
export function exifOrientation(tiff: Uint8Array): number | undefined {
  const reader = new ByteReader(tiff, "Exif");
  try {
    const order = reader.ascii(0, 2, "byte order");
    if (order !== "II" && order !== "MM") return undefined;
    const little = order === "II";
    const u16 = (at: number) => {
      const value = reader.u16be(at, "IFD");
      return little ? ((value & 0xff) << 8) | (value >> 8) : value;
    };
    const u32 = (at: number) => (little ? reader.u32le(at, "IFD") : reader.u32be(at, "IFD"));
    const ifd = u32(4);
    const count = u16(ifd);
    for (let entry = 0; entry < count; entry += 1) {
      const at = ifd + 2 + entry * 12;
      if (u16(at) === 0x0112 && u16(at + 2) === 3) {
        const value = u16(at + 8);
        return value >= 2 && value <= 8 ? value : undefined;
      }
    }
    return undefined;
  } catch (error) {
    if (error instanceof EvidenceUnsupportedError) return undefined; // unreadable Exif: dropped like the rest
    throw error;
  }
}

/** A TIFF structure (big-endian) holding only IFD0 with the Orientation tag. */
export function orientationOnlyExif(orientation: number): Uint8Array {
  // prettier-ignore
  return Uint8Array.of(
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, // "MM", 42, IFD0 at 8
    0x00, 0x01, // one entry
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00, // Orientation, SHORT, 1, value
    0x00, 0x00, 0x00, 0x00, // no next IFD
  );
}
