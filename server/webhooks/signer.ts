import { createHmac } from "node:crypto";

// The webhook signature scheme (docs/api.md "Webhooks"): `X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`,
// each v1 the hex HMAC-SHA256 of `${t}.${rawBody}` under one signing secret (the whole `whsec_…` string, UTF-8).
// During the 24 h after a rotation the header carries two v1 entries: the new secret's, then the old one's.
// Receivers verify with the SDK (packages/sdk/src/webhooks.ts, verifyWebhook); the tests use that verifier too.

export const SIGNATURE_HEADER = "X-Service-Signature";
export const TIMESTAMP_HEADER = "X-Service-Timestamp";
export const EVENT_ID_HEADER = "X-Service-Event-Id";

function hmacHex(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`, "utf8").digest("hex");
}

/** The X-Service-Signature value for a body signed at `timestamp` (unix seconds) with each secret in order. */
export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
  if (secrets.length === 0) throw new Error("at least one signing secret is needed");
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmacHex(secret, timestamp, rawBody)}`)].join(",");
}
