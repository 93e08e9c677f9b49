// Dashboard sign-up (docs/dashboard.md "Dashboard (/dashboard)"): the address is proven before anything exists. Asking stores only the
// pending sign-up (member_sign_ups: the SHA-256 of a 32-byte token, the address, the business name) and gives the
// link for one fixed e-mail; opening it and pressing the button — a POST, once, within 15 minutes — creates the
// merchant (test mode, the default program, no keys) and its owner, and signs them in. An address that already
// belongs to a team gets its sign-in links instead: the page answers both the same way.
import { z } from "zod";
import type { Services, Tx } from "./context.ts";
import { DomainError } from "./errors.ts";
import { newId, sha256Hex } from "./ids.ts";
import { createProgram } from "./programs.ts";
import { appendMerchantAudit } from "./merchant-audit.ts";
import { requestMemberSignInLinks, signInMemberWithLink, type MemberSignInLink } from "./members.ts";
import { emailAddressSchema, issueLink, newToken, parseInput, SIGN_IN_LINK_TTL_MS, TOKEN_PATTERN } from "./accounts.ts";
import { insertMerchant } from "../store/merchants.ts";
import { consumeMemberSignUp, findUsableMemberSignUp, insertMember, insertMemberSignUp } from "../store/members.ts";

/** How long a sign-up's link works: as long as a sign-in link. */
export const SIGN_UP_LINK_TTL_MS = SIGN_IN_LINK_TTL_MS;

/**
 * The business's name as typed, on one line: runs of white space (line breaks included) become one space. It is shown
 * on pages (escaped) and in e-mails only as inert text (server/email/notice.ts), never in a header.
 */
const businessNameSchema = z
  .string()
  .transform((name) => name.replace(/\s+/g, " ").trim())
  .pipe(
    z
      .string()
      .min(2, "Enter your business's name (at least 2 characters).")
      .max(100, "At most 100 characters.")
      .regex(/^[^\p{Cc}\p{Cf}]*$/u, "Use letters, digits, spaces and punctuation only."),
  );

const signUpSchema = z.strictObject({ email: emailAddressSchema, businessName: businessNameSchema });

/** What asking to sign up sends: the confirmation link for a new address, or the address's sign-in links. */
export type SignUpRequest =
  { kind: "confirm"; email: string; token: string; expiresAt: number } | { kind: "sign_in"; links: MemberSignInLink[] };

/** Someone asks to open an account: a pending sign-up and its link, or the sign-in links of an existing member. */
export async function requestSignUp(tx: Tx, services: Services, input: unknown): Promise<SignUpRequest> {
  const { email, businessName } = parseInput(signUpSchema, input);
  const links = await requestMemberSignInLinks(tx, services, { email });
  if (links.length > 0) return { kind: "sign_in", links };
  const now = services.clock();
  const token = newToken(services);
  const expiresAt = now + SIGN_UP_LINK_TTL_MS;
  await insertMemberSignUp(tx, { tokenHash: sha256Hex(token), email, businessName, expiresAt, createdAt: now });
  return { kind: "confirm", email, token, expiresAt };
}

/** One answer for every link that does not open an account: unknown, expired or used. */
const linkInvalid = () =>
  new DomainError("not_found", "sign_up_link_invalid", "This link has expired or has already been used.");

/** The business name of a sign-up link that would still open the account (showing the page spends nothing). */
export async function usableSignUp(db: Tx, services: Services, token: string) {
  return TOKEN_PATTERN.test(token) ? findUsableMemberSignUp(db, sha256Hex(token), services.clock()) : undefined;
}

/**
 * Spends a sign-up's link (one conditional update: a second use, even a concurrent one, fails) and creates the
 * merchant in test mode (the default program; no keys yet: they are minted on the API keys page and shown once there)
 * with the address as its owner, signed in at once.
 */
export async function confirmSignUp(
  tx: Tx,
  services: Services,
  token: string,
  ip: string,
): Promise<{ merchantId: string; sessionToken: string; expiresAt: number }> {
  if (!TOKEN_PATTERN.test(token)) throw linkInvalid();
  const now = services.clock();
  const signUp = await consumeMemberSignUp(tx, sha256Hex(token), now);
  if (!signUp) throw linkInvalid();
  const merchantId = newId("mer", now, services.random);
  await insertMerchant(tx, {
    id: merchantId,
    name: signUp.businessName,
    allowedOrigins: [],
    shopDomain: null,
    createdAt: now,
  });
  await createProgram(tx, services, { merchantId, mode: "test" });
  const memberId = newId("mem", now, services.random);
  await insertMember(tx, {
    id: memberId,
    merchantId,
    email: signUp.email,
    name: "",
    role: "owner",
    status: "invited",
    invitedBy: null,
    createdAt: now,
  });
  await appendMerchantAudit(
    tx,
    services,
    { merchantId, mode: "test", actor: { id: memberId, email: signUp.email }, ip },
    { action: "member.signed_up", subject: memberId },
  );
  // The confirmed address signs in as every member does: a link of its own, spent at once.
  const signInLink = await issueLink(tx, services, "merchant", { id: memberId, email: signUp.email });
  return { merchantId, ...(await signInMemberWithLink(tx, services, signInLink.token, ip)) };
}
