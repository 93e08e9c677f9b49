import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { cryptoRandom } from "../domain/ids.ts";
import { deriveKey } from "./derive.ts";

/** Encrypts small secrets at rest (AES-256-GCM): `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export interface Sealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /**
   * A keyed hash (HMAC-SHA256, hex) for finding a sealed value by equality: sealing is randomised, so equal
   * plaintexts never give equal boxes. Keyed, so that the database alone cannot confirm a guessed plaintext.
   */
  hash(plaintext: string): string;
}

export function createSealer(rawKey: Buffer): Sealer {
  if (rawKey.length !== 32) throw new Error("the encryption key must be 32 bytes");
  const key = createSecretKey(rawKey);
  // Its own key, derived from the encryption key: the AES key itself is never used for MACs.
  const hashKey = createSecretKey(deriveKey(rawKey, "lookup-hash"));
  return {
    seal(plaintext) {
      // From the pooled CSPRNG: a randomBytes call per seal was 7 % of a quote's CPU (bench:api profile).
      const iv = cryptoRandom(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const ciphertext = cipher.update(plaintext, "utf8");
      // GCM is a stream mode: final() adds no bytes, it computes the tag. A quote seals twice; no copies, no array.
      cipher.final();
      return `v1.${iv.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${ciphertext.toString("base64url")}`;
    },
    open(sealed) {
      const [version, iv, tag, ciphertext] = sealed.split(".");
      if (version !== "v1") throw new Error("unknown sealed-box version");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    },
    hash: (plaintext) => createHmac("sha256", hashKey).update(plaintext, "utf8").digest("hex"),
  };
}

/**
 * The key from ENCRYPTION_KEY (base64 of 32 bytes) or, for the embedded default, a key file in the data
 * directory, created with mode 0600 on first start. `created` tells the caller to say so in the log.
 */
export function loadEncryptionKey(
  configured: string | undefined,
  dataDir: string,
): { key: Buffer; source: string; created: boolean } {
  if (configured) {
    const key = Buffer.from(configured, "base64");
    if (key.length !== 32) throw new Error("ENCRYPTION_KEY must be the base64 encoding of 32 bytes");
    return { key, source: "ENCRYPTION_KEY", created: false };
  }
  const file = path.resolve(dataDir, "encryption.key");
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, randomBytes(32).toString("base64"), { flag: "wx", mode: 0o600 });
    return { key: readKeyFile(file), source: file, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return { key: readKeyFile(file), source: file, created: false };
  }
}

function readKeyFile(file: string): Buffer {
  const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
  return key;
}
