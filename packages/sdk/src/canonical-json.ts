import canonicalizeExport from "canonicalize";
import { ServiceValidationError } from "./errors.ts";

// canonicalize is ESM only. The CommonJS build loads it with require(esm) (Node ≥ 20.19), which hands back the
// module namespace, so its default export is one level further down there.
const canonicalize: typeof canonicalizeExport =
  typeof canonicalizeExport === "function"
    ? canonicalizeExport
    : (canonicalizeExport as unknown as { default: typeof canonicalizeExport }).default;

/**
 * RFC 8785 (JCS) canonical JSON: keys sorted by UTF-16 code units, no whitespace, ECMAScript number formatting,
 * minimal string escapes. The same value gives the same bytes here, in the PHP SDK and on the server
 * (test/vectors/canonical-json.json).
 */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (error) {
    throw new ServiceValidationError(`The payload cannot be sent as canonical JSON: ${(error as Error).message}`);
  }
  if (text === undefined)
    throw new ServiceValidationError("The payload cannot be sent as canonical JSON: it has no JSON form");
  return text;
}
