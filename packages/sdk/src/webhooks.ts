// Webhook signature check (docs/api.md "Webhooks"). X-Service-Signature is `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; other
// schemes (v2, v1n, …) may appear and are ignored; any v1 that matches passes. The signed string is
// `t + "." + rawBody`, HMAC-SHA256 under the endpoint's secret, hex. Web Crypto (globalThis.crypto.subtle) does the
// HMAC, so the check runs wherever the SDK runs (Node ≥ 20, Deno, Bun, edge runtimes) — and is therefore async.

export interface VerifyWebhookOptions {
  /** Largest allowed distance between `t` and now, in seconds, in either direction. Default 300. */
  toleranceSeconds?: number;
  /** The current time: Unix seconds or a Date. Default: the clock. */
  now?: number | Date;
}

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

/** Whether `header` carries a valid v1 signature of `rawBody` under `secret`, with `t` within the tolerance. */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<boolean> {
  const parsed = parseSignatureHeader(header ?? "");
  if (parsed === null || !secret) return false;
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const nowSeconds = options.now instanceof Date ? options.now.getTime() / 1000 : (options.now ?? Date.now() / 1000);
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) return false;

  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody;
  const prefix = encoder.encode(`${parsed.timestampText}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await globalThis.crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const expected = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, signed));

  let matched = false;
  for (const candidate of parsed.v1) matched = constantTimeEqual(expected, candidate) || matched; // checks them all
  return matched;
}

interface SignatureHeader {
  timestamp: number;
  timestampText: string;
  v1: Uint8Array[];
}

/** `t=…,v1=…,…` → the timestamp and the v1 signatures (as bytes); null when there is no single valid t or no v1. */
export function parseSignatureHeader(header: string): SignatureHeader | null {
  const timestamps: string[] = [];
  const v1: Uint8Array[] = [];
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    const scheme = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (scheme === "t") timestamps.push(value);
    else if (scheme === "v1" && /^[0-9a-fA-F]{64}$/.test(value)) v1.push(hexBytes(value));
  }
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!) || v1.length === 0) return null;
  return { timestamp: Number(timestamps[0]), timestampText: timestamps[0]!, v1 };
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Compares every byte whatever the first difference, so the time taken says nothing about where they differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** `client.webhooks`: the verifier, with the client's clock as the default `now`. */
export class Webhooks {
  readonly #nowMs: () => number;

  constructor(nowMs: () => number) {
    this.#nowMs = nowMs;
  }

  verifyWebhook(
    rawBody: string | Uint8Array,
    header: string | null | undefined,
    secret: string,
    options: VerifyWebhookOptions = {},
  ): Promise<boolean> {
    return verifyWebhook(rawBody, header, secret, { ...options, now: options.now ?? this.#nowMs() / 1000 });
  }
}
