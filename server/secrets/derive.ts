import { hkdfSync } from "node:crypto";

/**
 * A 32-byte key for one purpose, derived from the encryption key (HKDF-SHA256), so that one configured secret serves
 * several uses without any of them revealing another's key.
 */
export function deriveKey(encryptionKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", encryptionKey, Buffer.alloc(0), `purchase-protection/${purpose}`, 32));
}
