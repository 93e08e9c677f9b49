// The buyer's link to their coverage details: the plan's reference number plus a token only this service can make,
// so the link opens a portal session without a login (docs/api.md "E-mail to buyers": "a tokenized coverage link"). The
// token is `<expiry, Unix seconds>.<HMAC-SHA256 of "<reference>|<expiry>">` under a key derived (HKDF) from the
// service's encryption key, so no new secret has to be configured and the AES key itself is never used for MACs.
// A link works for 180 days from the e-mail that carries it; tokens without an expiry (before issue 14) are refused.
// A claim e-mail's link also names the claim (`&claim=<its number on the plan>`) so the portal opens on it. That
// parameter is outside the signature on purpose: it only chooses which page of the plan's own session to show after
// the token is verified, and the portal shows a claim only when it belongs to the session's plan, so changing it
// opens nothing the token did not already open.
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { DAY_MS } from "../vocabulary/time.ts";

export const COVERAGE_LINK_LIFETIME_MS = 180 * DAY_MS;

export interface CoverageLinks {
  /**
   * `<portal>/coverage/<reference>?token=<token>`, good for 180 days from `issuedAtMs`; with `claimNumber`,
   * `&claim=<number>`: the portal lands on that claim of the plan.
   */
  linkFor(portalUrl: string, referenceNumber: string, issuedAtMs: number, claimNumber?: number): string;
  /** The token of a link issued at `issuedAtMs`. */
  tokenFor(referenceNumber: string, issuedAtMs: number): string;
  /** Whether `token` is this service's token for the reference number and has not expired at `nowMs` (constant time). */
  verify(referenceNumber: string, token: string, nowMs: number): boolean;
}

export function coverageLinks(encryptionKey: Buffer): CoverageLinks {
  const key = Buffer.from(
    hkdfSync("sha256", encryptionKey, Buffer.alloc(0), "purchase-protection coverage link v1", 32),
  );
  const mac = (referenceNumber: string, expirySeconds: string) =>
    createHmac("sha256", key).update(`${referenceNumber}|${expirySeconds}`).digest("base64url");
  const tokenFor = (referenceNumber: string, issuedAtMs: number) => {
    const expiry = String(Math.floor((issuedAtMs + COVERAGE_LINK_LIFETIME_MS) / 1000));
    return `${expiry}.${mac(referenceNumber, expiry)}`;
  };
  return {
    tokenFor,
    linkFor: (portalUrl, referenceNumber, issuedAtMs, claimNumber) =>
      `${portalUrl}/coverage/${encodeURIComponent(referenceNumber)}?token=${tokenFor(referenceNumber, issuedAtMs)}${
        claimNumber === undefined ? "" : `&claim=${claimNumber}`
      }`,
    verify(referenceNumber, token, nowMs) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return false;
      const [, expiry, presented] = match;
      const expected = Buffer.from(mac(referenceNumber, expiry));
      const authentic = timingSafeEqual(Buffer.from(presented), expected);
      return authentic && Number(expiry) * 1000 > nowMs;
    },
  };
}
