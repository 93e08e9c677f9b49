import { ServiceValidationError } from "./errors.ts";

/** docs/api.md "Idempotency": 16 to 255 characters of A-Z, a-z, 0-9, underscore, hyphen. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,255}$/;

/** The key for one logical call: the caller's (validated — a key the caller gives always wins) or a new UUIDv4. */
export function idempotencyKeyFor(supplied: string | undefined | null): string {
  if (supplied === undefined || supplied === null) return globalThis.crypto.randomUUID();
  if (typeof supplied !== "string" || !IDEMPOTENCY_KEY_PATTERN.test(supplied)) {
    throw new ServiceValidationError("idempotencyKey must be 16 to 255 characters of A-Z, a-z, 0-9, '_' or '-'");
  }
  return supplied;
}
