// Identifier shapes every surface checks the same way.

/** An Idempotency-Key header: 16 to 255 characters of A-Z, a-z, 0-9, underscore, hyphen. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,255}$/;

/** A plan's reference number, `CLM-YYYY-XXXXXXXX`: the UTC year and 8 Crockford Base32 characters (no I, L, O, U). */
export const REFERENCE_NUMBER_PATTERN = /^CLM-[0-9]{4}-[0-9A-HJKMNP-TV-Z]{8}$/;
