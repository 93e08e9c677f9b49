import type { Context, MiddlewareHandler } from "hono";
import type { Limiter, PolicyState, Verdict } from "../rate-limits/limiter.ts";
import type { RateLimitRule } from "../rate-limits/policies.ts";
import { clientIp } from "./client-ip.ts";
import { errors } from "./errors.ts";
import type { ApiEnv } from "./env.ts";
import { authorizedPrincipal, merchantOf } from "./auth.ts";
import type { CallerKind } from "./route.ts";
import { readBodyText } from "./body.ts";

/** Logged once per process: the Remix mount has no socket, so without TRUST_PROXY no request has an address. */
let warnedUnknownAddress = false;

export interface RateLimitOptions {
  limiter: Limiter;
  /** Proxies in front of this server whose X-Forwarded-For is trusted (TRUST_PROXY; 0 = use the socket). */
  trustProxy: number;
}

/** How the limiter may read a request body (a rule with a per-e-mail policy): the API's body size limit. */
export interface BodyLimit {
  maxBodyBytes: number;
}

/**
 * Applies a route's rule (the `rateLimit` column of routes.ts). It runs after the key is identified and before
 * it is authorised (app.ts), so that one decision covers the edge/IP policies and the merchant policies.
 * A request that will pass the route's key policy counts in its merchant's buckets. Any other — no key, an invalid
 * key, a key kind the route refuses, a live publishable key from a foreign origin — counts in separate
 * unauthenticated buckets of the merchant it names (the key's merchant, else the X-Merchant-Id header:
 * docs/api.md "Rate limits"), so that nobody can spend a merchant's budget with requests that fail authentication; a request naming no
 * merchant is limited by its IP policies alone. Every response of the route — success, error or 429 — carries
 * RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers); a 429 also carries Retry-After in whole
 * seconds, rounded up so that a client waiting exactly that long is admitted.
 */
export function rateLimit(
  rule: RateLimitRule,
  allowedKeys: readonly CallerKind[],
  options: RateLimitOptions & BodyLimit,
): MiddlewareHandler<ApiEnv> {
  const { limiter, trustProxy } = options;
  const keyedByEmail = rule.policies.some((p) => p.keyedBy === "email" || p.keyedBy === "email_ip");
  const policyHeader = limiter
    .policiesOf(rule)
    .map((p) => `"${p.name}";q=${p.limit};w=${p.periodMs / 1000}`)
    .join(", ");
  return async function limitRate(c, next) {
    const authorized = authorizedPrincipal(c, allowedKeys);
    const merchant =
      merchantOf(authorized) ?? merchantOf(c.get("principal")) ?? claimedMerchant(c.req.header("x-merchant-id"));
    const ip = clientIp(c, trustProxy);
    if (ip === undefined && !warnedUnknownAddress) {
      warnedUnknownAddress = true;
      c.get("requestLog")().warn(
        "rate limits: no client address (no socket and no trusted X-Forwarded-For); per-IP limits are skipped. Set TRUST_PROXY behind a proxy.",
      );
    }
    const email = keyedByEmail ? await bodyEmail(c, options.maxBodyBytes) : undefined;
    // A portal session counts only once it is valid for the route: an unknown token has no bucket of its own.
    const session = authorized?.kind === "portal" ? authorized.sessionId : undefined;
    const verdict = await limiter.check(rule, {
      merchant,
      ip,
      email,
      session,
      authenticated: authorized !== undefined,
    });
    if (verdict.policies.length > 0) {
      c.header("RateLimit-Policy", policyHeader);
      c.header("RateLimit", verdict.policies.map(stateItem).join(", "));
    }
    const refused = rateLimitRefusal(verdict);
    if (refused) throw refused;
    await next();
  };
}

/** The limiter's refusal as the API answers it (also the portal pages' use cases, server/core/portal.ts): a 429. */
export function rateLimitRefusal(verdict: Verdict) {
  if (verdict.admitted) return undefined;
  const challenge = verdict.policies.some((state) => !state.admitted && state.policy.code === "challenge_required");
  return errors.rateLimited(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000)), challenge);
}

/**
 * The `email` field of a JSON body, for a rule with a per-e-mail policy (the portal look-up: 10/hour per address and
 * client IP, docs/api.md "Rate limits"): the limiter decides before the route parses its body, so it reads the body here and leaves
 * it for the route (`rawBody`). A body that is not JSON or has no string `email` names no address; the route then
 * refuses it on its own terms, still counted by the per-IP policies.
 */
async function bodyEmail(c: Context<ApiEnv>, maxBodyBytes: number): Promise<string | undefined> {
  const rawBody = await readBodyText(c, maxBodyBytes);
  c.set("rawBody", rawBody);
  try {
    const body: unknown = JSON.parse(rawBody);
    const email = typeof body === "object" && body !== null ? (body as { email?: unknown }).email : undefined;
    return typeof email === "string" && email.trim() !== "" ? email : undefined;
  } catch {
    return undefined;
  }
}

/** The X-Merchant-Id header when it looks like an id (anything else names no merchant: no bucket per junk value). */
function claimedMerchant(header: string | undefined): string | undefined {
  const value = header?.trim();
  return value && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : undefined;
}

/** `"name";r=<remaining>;t=<seconds until the quota is whole again>` */
const stateItem = (state: PolicyState) =>
  `"${state.policy.name}";r=${state.remaining};t=${Math.ceil(state.resetMs / 1000)}`;
