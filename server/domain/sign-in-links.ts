// What the claims team's console (staff.ts) and the merchant dashboard's team (members.ts) share about signing in by
// e-mail link: the token (32 random bytes, base64url; only its SHA-256 is stored), how long a link works, how a
// session cookie opens its session, how an address is normalised, and how an input's first problem becomes a
// DomainError naming its field.
import { z } from "zod";
import type { Services } from "./context.ts";
import { DomainError } from "./errors.ts";
import { sha256Hex } from "./ids.ts";

export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** 32 random bytes in base64url: what a sign-in link and a session cookie carry. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newToken = (services: Services) => services.random(32).toString("base64url");

/**
 * The live session a session token opens, found by the token's SHA-256 (`find` decides what live means), with that
 * hash; a missing or malformed token opens nothing without a lookup.
 */
export async function openSession<Session>(
  sessionToken: string | undefined,
  find: (sessionTokenHash: string) => Promise<Session | undefined>,
): Promise<{ session: Session; sessionTokenHash: string } | undefined> {
  if (!sessionToken || !TOKEN_PATTERN.test(sessionToken)) return undefined;
  const sessionTokenHash = sha256Hex(sessionToken);
  const session = await find(sessionTokenHash);
  return session && { session, sessionTokenHash };
}

/** Addresses are compared trimmed and lower-cased, and stored so. */
export const emailAddressSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email("Enter an e-mail address such as name@example.com.").max(254, "At most 254 characters."));

/** Parses `input`; the first problem is a DomainError naming its field. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DomainError("invalid", "parameter_invalid", issue.message, issue.path.map(String).join(".") || undefined);
}
