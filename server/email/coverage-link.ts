// The buyer's link to their coverage details: the plan's reference number plus a token only this service can make,
// so the link opens the coverage page without a login (README "E-mail to buyers": "a tokenized coverage link"). The token is an
// HMAC-SHA256 of the reference number under a key derived (HKDF) from the service's encryption key, so no new secret
// has to be configured and the AES key itself is never used for MACs.
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

export interface CoverageLinks {
  /** `<portal>/coverage/<reference>?token=<token>` */
  linkFor(portalUrl: string, referenceNumber: string): string;
  /** Whether `token` is this service's token for the reference number (constant time). */
  verify(referenceNumber: string, token: string): boolean;
}

export function coverageLinks(encryptionKey: Buffer): CoverageLinks {
  const key = Buffer.from(
    hkdfSync("sha256", encryptionKey, Buffer.alloc(0), "purchase-protection coverage link v1", 32),
  );
  const tokenFor = (referenceNumber: string) => createHmac("sha256", key).update(referenceNumber).digest("base64url");
  return {
    linkFor: (portalUrl, referenceNumber) =>
      `${portalUrl}/coverage/${encodeURIComponent(referenceNumber)}?token=${tokenFor(referenceNumber)}`,
    verify(referenceNumber, token) {
      const expected = Buffer.from(tokenFor(referenceNumber));
      const presented = Buffer.from(token);
      return presented.length === expected.length && timingSafeEqual(presented, expected);
    },
  };
}
