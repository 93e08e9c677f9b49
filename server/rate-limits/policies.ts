import { createHash } from "node:crypto";
import { normaliseEmail } from "../domain/buyer-emails.ts";

// docs/api.md "Rate limits", one named policy per cell of the table. A rule is what one route (or the portal lookup) applies:
// all of its policies are decided together, atomically (a request rejected by one consumes nothing from another).
//
// Readings of the table (docs/api.md "Rate limits" documents them):
// - "Per IP" is keyed by merchant + client IP (docs/api.md "Rate limits": the strict merchant bucket is 1000/min by merchant
//   AND 100/min by merchant + client IP); the portal lookup has no merchant, so its per-IP limit is by IP alone.
// - "Edge WAF": quote has its own 50 per 10 s per IP; every other row says "global", which is one bucket of
//   100/min per client IP shared by those routes, answered with `challenge_required` ("with challenge").
//   EDGE_LIMITS=off drops the edge policies (a real WAF in front enforces them).
// - Metrics and claims each have their own strict merchant bucket; both claim listings share one.

export type KeyedBy = "merchant" | "merchant_ip" | "ip" | "email" | "email_ip" | "session";

export interface LimitPolicy {
  /** The policy's name: in the RateLimit-Policy / RateLimit headers and in the storage key. */
  name: string;
  limit: number;
  periodMs: number;
  keyedBy: KeyedBy;
  /** An edge-WAF policy (switched off by EDGE_LIMITS=off). */
  edge: boolean;
  /** The 429 code when this policy rejects. */
  code: "rate_limited" | "challenge_required";
}

export interface RateLimitRule {
  name: string;
  policies: readonly LimitPolicy[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const policy = (
  name: string,
  limit: number,
  periodMs: number,
  keyedBy: KeyedBy,
  edge = false,
  code: LimitPolicy["code"] = "rate_limited",
): LimitPolicy => ({ name, limit, periodMs, keyedBy, edge, code });

/** The edge WAF's global rule: 100/min per client IP, "with challenge". */
export const EDGE_GLOBAL = policy("edge-global", 100, MINUTE, "ip", true, "challenge_required");

/** A per-merchant limit and a per-merchant-and-IP limit, applied together (docs/api.md "Rate limits"). */
const merchantBuckets = (name: string, perMerchant: number, perMerchantIp: number) => [
  policy(`${name}-merchant`, perMerchant, MINUTE, "merchant"),
  policy(`${name}-merchant-ip`, perMerchantIp, MINUTE, "merchant_ip"),
];

export const RULES = {
  quote: {
    name: "quote",
    policies: [...merchantBuckets("quote", 5000, 500), policy("edge-quote", 50, 10_000, "ip", true)],
  },
  confirm: { name: "confirm", policies: [...merchantBuckets("confirm", 1000, 200), EDGE_GLOBAL] },
  void: { name: "void", policies: [...merchantBuckets("void", 200, 60), EDGE_GLOBAL] },
  metrics: { name: "metrics", policies: [...merchantBuckets("metrics", 1000, 100), EDGE_GLOBAL] },
  claims: { name: "claims", policies: [...merchantBuckets("claims", 1000, 100), EDGE_GLOBAL] },
  // Not in the contract (our reading, docs/api.md "Rate limits"): one redelivery sends a request to each of up to 16 endpoints.
  redeliver: { name: "redeliver", policies: [...merchantBuckets("redeliver", 60, 30), EDGE_GLOBAL] },
  portalLookup: {
    name: "portalLookup",
    policies: [
      policy("portal-lookup-ip", 30, MINUTE, "ip"),
      // By address AND client address: a per-address bucket alone would let anyone lock a buyer out of the look-up
      // for an hour with ten wrong guesses from anywhere (docs/api.md "Rate limits").
      policy("portal-lookup-email-ip", 10, HOUR, "email_ip"),
      EDGE_GLOBAL,
    ],
  },
  // Not in the contract (ours, docs/api.md "Rate limits"): what a buyer's portal session changes — filing a claim, adding a
  // message with files, cancelling, signing out. Anyone with a merchant's public key can make a session, so these
  // and the evidence quotas are the only bound on what it stores. A buyer acts a few times per visit: 10 a minute per
  // session, and 60 an hour per client address (one a minute once spent), so one address cannot work through
  // sessions of many plans.
  portalMutation: {
    name: "portalMutation",
    policies: [
      policy("portal-mutation-session", 10, MINUTE, "session"),
      policy("portal-mutation-ip", 60, HOUR, "ip"),
      EDGE_GLOBAL,
    ],
  },
  // The claims team's sign-in links (the /ops page, not an API route): 5 link e-mails per staff address an hour —
  // enough for a lost e-mail, too few to flood an inbox — and 30 requests an hour from one client address (someone
  // trying many addresses). Both count whether or not the address has an account, so neither tells.
  opsSignIn: {
    name: "opsSignIn",
    policies: [policy("ops-sign-in-ip", 30, HOUR, "ip"), policy("ops-sign-in-email", 5, HOUR, "email")],
  },
  /** The merchant dashboard's sign-in link requests: each sends e-mail. */
  dashboardSignIn: {
    name: "dashboardSignIn",
    policies: [policy("dashboard-sign-in-ip", 30, HOUR, "ip"), policy("dashboard-sign-in-email", 5, HOUR, "email")],
  },
  // The dashboard's sign-up: each request e-mails a confirmation link (or an address's sign-in links), each confirmed
  // link opens a merchant. 3 requests an hour per address and per client address, and 3 merchants a day opened from
  // one client address: a business opens one account, someone trying many gets a few.
  dashboardSignUp: {
    name: "dashboardSignUp",
    policies: [policy("dashboard-sign-up-ip", 3, HOUR, "ip"), policy("dashboard-sign-up-email", 3, HOUR, "email")],
  },
  dashboardSignUpConfirm: {
    name: "dashboardSignUpConfirm",
    policies: [policy("dashboard-sign-up-confirm-ip", 3, 24 * HOUR, "ip")],
  },
} as const satisfies Record<string, RateLimitRule>;

export type RuleName = keyof typeof RULES;

/** Who a request is, for the keys: a missing part skips the policies keyed by it. */
export interface Identity {
  merchant?: string;
  /**
   * false: the request will fail authentication or the key policy; its merchant policies use buckets of their own
   * (`…:unauthenticated:<merchant>`), never the merchant's. Unset counts as authenticated.
   */
  authenticated?: boolean;
  ip?: string;
  email?: string;
  /** The portal session of an authorised portal request. */
  session?: string;
}

/** Addresses are hashed: no e-mail address is stored in a limiter key. */
const emailDigest = (email: string) =>
  createHash("sha256").update(normaliseEmail(email)).digest("base64url").slice(0, 22);

/** The storage key of a policy for an identity, or undefined when the identity lacks what the policy is keyed by. */
export function policyKey(policy: LimitPolicy, identity: Identity): string | undefined {
  const { ip, email } = identity;
  const merchant =
    identity.merchant === undefined || identity.authenticated !== false
      ? identity.merchant
      : `unauthenticated:${identity.merchant}`;
  switch (policy.keyedBy) {
    case "merchant":
      return merchant === undefined ? undefined : `${policy.name}:${merchant}`;
    case "merchant_ip":
      return merchant === undefined || ip === undefined ? undefined : `${policy.name}:${merchant}:${ip}`;
    case "ip":
      return ip === undefined ? undefined : `${policy.name}:${ip}`;
    case "email":
      return email === undefined ? undefined : `${policy.name}:${emailDigest(email)}`;
    case "email_ip":
      return email === undefined || ip === undefined ? undefined : `${policy.name}:${emailDigest(email)}:${ip}`;
    case "session":
      return identity.session === undefined ? undefined : `${policy.name}:${identity.session}`;
  }
}
