// Signing in, up and out of both realms (server/domain/accounts.ts): the dashboard's members ("merchant") and the
// claims console's staff ("staff"). Each use case owns its transaction; the ones that send e-mail or open accounts
// are rate limited first, per address and per client address (the realm's rule below). The links come back for the
// app to e-mail after it has answered, and the answer is the same whether or not an address has an account.
import type { CoreDeps } from "./deps.ts";
import { linkUsable, redeemLink, type Realm } from "../domain/accounts.ts";
import { RULES, type RateLimitRule } from "../rate-limits/policies.ts";
import {
  authenticateMember,
  MEMBER_REALM,
  requestMemberSignInLinks,
  signOutEverywhere,
  type MemberSignInLink,
} from "../domain/members.ts";
import { authenticateStaff, requestSignInLink, signOutStaff, STAFF_REALM, type SignInLink } from "../domain/staff.ts";
import { confirmSignUp, requestSignUp, usableSignUp, type SignUpRequest } from "../domain/sign-ups.ts";

const REALM_RULES = { merchant: MEMBER_REALM, staff: STAFF_REALM };

/** Each realm's limit on asking for sign-in links. */
const SIGN_IN_RULES: Record<Realm, RateLimitRule> = { merchant: RULES.dashboardSignIn, staff: RULES.opsSignIn };

/** A request the limit refused: how long until it would be admitted. */
export interface Limited {
  limited: true;
  retryAfterMs: number;
}

/** A request from a browser: its session cookie's token (if any) and its address, for the limits and the audit log. */
export interface AccountCaller {
  sessionToken: string | undefined;
  ip: string | undefined;
}

/** The links a request for sign-in links sends: one per team for a member, at most one for staff. */
export interface SignInLinks {
  merchant: MemberSignInLink[];
  staff: SignInLink[];
}

export function accountsArea({ db, services, rateLimits }: CoreDeps) {
  /** The limit's refusal, or undefined when the request may go on (or limits are off). */
  async function refusal(rule: RateLimitRule, identity: { ip?: string; email?: string }): Promise<Limited | undefined> {
    const verdict = await rateLimits?.limiter.check(rule, identity);
    return verdict && !verdict.admitted ? { limited: true, retryAfterMs: verdict.retryAfterMs } : undefined;
  }

  const requestLinks: { [R in Realm]: (email: string, ip: string) => Promise<SignInLinks[R]> } = {
    merchant: (email) => db.transaction((tx) => requestMemberSignInLinks(tx, services, { email })),
    staff: async (email, ip) => {
      const link = await db.transaction((tx) => requestSignInLink(tx, services, { email }, ip));
      return link ? [link] : [];
    },
  };

  return {
    /** Someone asks for sign-in links for an address: the links to e-mail (none for an unknown address). */
    async requestSignIn<R extends Realm>(
      realm: R,
      input: { email: string },
      ip: string | undefined,
    ): Promise<Limited | { limited: false; links: SignInLinks[R] }> {
      const limited = await refusal(SIGN_IN_RULES[realm], { ip, email: input.email });
      if (limited) return limited;
      return { limited: false, links: (await requestLinks[realm](input.email, ip ?? "")) as SignInLinks[R] };
    },

    /** Whether a sign-in link would still sign in (showing the link's page spends nothing). */
    linkUsable: (realm: Realm, token: string) => linkUsable(db, services, realm, token),

    /** Spends a sign-in link and opens a session: its token (for the cookie) and expiry. */
    signInWithLink: (realm: Realm, token: string, ip: string | undefined) =>
      db.transaction(async (tx) => {
        const { sessionToken, expiresAt } = await redeemLink(tx, services, REALM_RULES[realm], token, ip ?? "");
        return { sessionToken, expiresAt };
      }),

    /**
     * Signs the caller out as their realm says (a member everywhere, staff this session); a session that already
     * ended signs nothing out.
     */
    signOut: (realm: Realm, caller: AccountCaller) =>
      db.transaction(async (tx) => {
        if (realm === "merchant") {
          const member = await authenticateMember(tx, services, caller.sessionToken);
          if (member) await signOutEverywhere(tx, services, member, caller.ip ?? "");
        } else {
          const staff = await authenticateStaff(tx, services, caller.sessionToken);
          if (staff) await signOutStaff(tx, services, staff, caller.ip ?? "");
        }
      }),

    /** Someone asks to open a merchant account: the confirmation link, or the address's sign-in links. */
    async requestSignUp(
      input: { email: string; businessName: string },
      ip: string | undefined,
    ): Promise<Limited | { limited: false; request: SignUpRequest }> {
      const limited = await refusal(RULES.dashboardSignUp, { ip, email: input.email });
      if (limited) return limited;
      return { limited: false, request: await db.transaction((tx) => requestSignUp(tx, services, input)) };
    },

    /** The business name of a sign-up link that would still open the account. */
    usableSignUp: (token: string) => usableSignUp(db, services, token),

    /** Spends a sign-up's link: the merchant, its owner, and the owner's session. */
    async confirmSignUp(token: string, ip: string | undefined) {
      const limited = await refusal(RULES.dashboardSignUpConfirm, { ip });
      if (limited) return limited;
      const opened = await db.transaction((tx) => confirmSignUp(tx, services, token, ip ?? ""));
      return { limited: false as const, ...opened };
    },
  };
}
