import { EvidenceUnsupportedError, type EvidenceContentType } from "./evidence-type.ts";
import { stripHeicMetadata } from "./strip-heic.ts";
import { stripJpegMetadata } from "./strip-jpeg.ts";
import { stripPngMetadata } from "./strip-png.ts";
import { stripWebpMetadata } from "./strip-webp.ts";

/**
 * A copy of the evidence without the metadata that can locate or identify the buyer (Exif with its GPS position,
 * XMP, IPTC, comments, edit times), still a valid file of the same type; the input is left unchanged. `contentType`
 * is the sniffed one (sniffEvidenceType), never the declared one. Throws EvidenceUnsupportedError when the bytes
 * cannot be read as that type.
 *
 * PDFs are returned unchanged: their metadata (the Info dictionary, XMP streams) can sit in any object, compressed
 * in object streams and repeated by incremental updates, so removing it safely takes a whole PDF parser and writer —
 * and a PDF is a document the buyer made to be read (a receipt, a report), not a photo taken with location on.
 */
export function stripImageMetadata(bytes: Uint8Array, contentType: EvidenceContentType): Uint8Array {
  switch (contentType) {
    case "image/jpeg":
      return stripJpegMetadata(bytes);
    case "image/png":
      return stripPngMetadata(bytes);
    case "image/webp":
      return stripWebpMetadata(bytes);
    case "image/heic":
      return stripHeicMetadata(bytes);
    case "application/pdf":
      return bytes.slice();
    default:
      throw new EvidenceUnsupportedError(`Evidence of type '${String(contentType)}' is not accepted.`);
  }
}
