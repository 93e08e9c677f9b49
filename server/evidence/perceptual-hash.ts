// A photo's perceptual hash: near-same pictures (re-encoded, resized, another format, a little cropped or brightened)
// get hashes a few bits apart, where their SHA-256 differs entirely. image-hash (blockhash, with jpeg-js, pngjs and a
// WebAssembly WebP decoder; no native code) decodes JPEG, PNG and WebP. HEIC (HEVC) has no decoder here and PDFs are
// not pictures: they are compared by their exact SHA-256 only.
import { imageHash } from "image-hash";
import type { EvidenceContentType } from "./evidence-type.ts";

/** 16 × 16 blocks: 256 bits, 64 hex digits. */
const BLOCKS_PER_SIDE = 16;
export const PERCEPTUAL_HASH_BITS = BLOCKS_PER_SIDE * BLOCKS_PER_SIDE;

const DECODED: readonly EvidenceContentType[] = ["image/jpeg", "image/png", "image/webp"];

/** The photo's perceptual hash, or null when it is not a picture decoded here or does not decode. */
export function perceptualHash(bytes: Uint8Array, contentType: EvidenceContentType): Promise<string | null> {
  if (!DECODED.includes(contentType)) return Promise.resolve(null);
  return new Promise((resolve) => {
    try {
      imageHash(
        { data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), ext: contentType },
        BLOCKS_PER_SIDE,
        true,
        (error: unknown, hash: string) => resolve(error ? null : hash),
      );
    } catch {
      // A file the sniffer recognised but its decoder refuses: the exact hash still compares it.
      resolve(null);
    }
  });
}

/** How many bits two hashes of the same length differ in. */
export function hammingDistance(a: string, b: string): number {
  let bits = 0;
  for (let i = 0; i < a.length; i++) {
    let diff = parseInt(a[i], 16) ^ parseInt(b[i], 16);
    for (; diff; diff &= diff - 1) bits++;
  }
  return bits;
}

/** 16 bands of 16 bits (4 hex digits): hashes at most 15 bits apart share at least one band (pigeonhole). */
export const HASH_BANDS = 16;
export function hashBands(hash: string): string[] {
  const width = hash.length / HASH_BANDS;
  return Array.from({ length: HASH_BANDS }, (_, band) => hash.slice(band * width, (band + 1) * width));
}
