import { evidenceType, type EvidenceType } from "./evidence-type.ts";

// Recognises evidence by its leading bytes only: the file name and the declared Content-Type are the buyer's word,
// the signature is what a viewer will act on. Each check is a fixed signature, so no library is needed (file-type
// knows hundreds of formats we refuse anyway, and reads HEIF brands less precisely than below).

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** HEIF brands (ISO/IEC 23008-12): HEVC-coded images and sequences, and the generic image (mif1) and sequence (msf1). */
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);

const AVIF_BRANDS = new Set(["avif", "avis"]);

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  start + length <= bytes.length ? String.fromCharCode(...bytes.subarray(start, start + length)) : "";

const startsWith = (bytes: Uint8Array, signature: number[]): boolean =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

/** The evidence type of these bytes, or undefined when they are none of the accepted kinds. */
export function sniffEvidenceType(bytes: Uint8Array): EvidenceType | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return evidenceType("image/jpeg");
  if (startsWith(bytes, PNG_SIGNATURE)) return evidenceType("image/png");
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP" && /^VP8[ LX]$/.test(ascii(bytes, 12, 4))) {
    return evidenceType("image/webp");
  }
  if (isHeif(bytes)) return evidenceType("image/heic");
  if (ascii(bytes, 0, 5) === "%PDF-") return evidenceType("application/pdf");
  return undefined;
}

/** An ISO-BMFF file whose leading `ftyp` box names a HEIF brand as its major brand or among its compatible ones. */
function isHeif(bytes: Uint8Array): boolean {
  if (ascii(bytes, 4, 4) !== "ftyp" || bytes.length < 16) return false;
  const boxSize = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  if (boxSize < 16 || boxSize > bytes.length) return false;
  // AVIF lists the generic mif1 too, but it is AV1, not HEVC: it is not one of the accepted types.
  if (AVIF_BRANDS.has(ascii(bytes, 8, 4))) return false;
  if (HEIF_BRANDS.has(ascii(bytes, 8, 4))) return true;
  // Bytes 12..16 are the minor version; the compatible brands follow, four bytes each, to the end of the box.
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) {
    if (HEIF_BRANDS.has(ascii(bytes, offset, 4))) return true;
  }
  return false;
}
