import { hash, randomBytes } from "node:crypto";
import { KEY_PREFIX, type KeyKind, type Mode } from "../vocabulary/ids.ts";

export type RandomSource = (size: number) => Buffer;

/**
 * CSPRNG bytes, drawn from a pool refilled 4 KB at a time: one randomBytes call per request path costs more than
 * the few dozen bytes it returns. Each call gets bytes no other call sees (the pool is replaced, never refilled in place).
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;
export const cryptoRandom: RandomSource = (size) => {
  if (size > POOL_BYTES) return randomBytes(size);
  if (poolOffset + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  poolOffset += size;
  return pool.subarray(poolOffset - size, poolOffset);
};

// Crockford Base32: no I, L, O, U, so a reference number read aloud or retyped survives.
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` symbols of `alphabet`, drawn without modulo bias by rejection sampling. */
export function randomString(alphabet: string, length: number, random: RandomSource = cryptoRandom): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of random(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * Resource ids: prefix, 10 Crockford symbols of the creation time in ms, 14 random symbols. They sort by
 * creation time, which is what list pagination orders by.
 */
export function newId(prefix: string, nowMs: number, random: RandomSource = cryptoRandom): string {
  let time = "";
  for (let t = nowMs, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  return `${prefix}_${time}${randomString(CROCKFORD, 14, random)}`.toLowerCase();
}

/** `CLM-YYYY-XXXXXXXX`: the UTC year and 40 random bits in Crockford Base32. */
export function newReferenceNumber(nowMs: number, random: RandomSource = cryptoRandom): string {
  return `CLM-${new Date(nowMs).getUTCFullYear()}-${randomString(CROCKFORD, 8, random)}`;
}

export function newApiKey(kind: KeyKind, mode: Mode, random: RandomSource = cryptoRandom): string {
  return `${KEY_PREFIX[kind]}_${mode}_${randomString(BASE62, 32, random)}`;
}

/** The kind and mode a key's prefix claims, or undefined for anything that is not one of our keys. */
export function parseApiKey(key: string): { kind: KeyKind; mode: Mode } | undefined {
  const match = /^(wk|mch|rk)_(test|live)_[0-9A-Za-z]{32}$/.exec(key);
  if (!match) return undefined;
  const kind = (Object.keys(KEY_PREFIX) as KeyKind[]).find((each) => KEY_PREFIX[each] === match[1])!;
  return { kind, mode: match[2] as Mode };
}

/** Quote tokens: 32 random bytes, base64url. Only their SHA-256 is stored. */
export function newQuoteToken(random: RandomSource = cryptoRandom): string {
  return random(32).toString("base64url");
}

/**
 * SHA-256 in hex: how API keys and quote tokens are stored (never the secret itself). The one-shot `hash` builds no
 * Hash object: a third of createHash's cost, and a quote takes three (its key, its token, its idempotency fingerprint).
 */
export const sha256Hex = (text: string) => hash("sha256", text, "hex");
