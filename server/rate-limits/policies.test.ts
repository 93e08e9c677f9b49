import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { EDGE_GLOBAL, RULES, policyKey, type LimitPolicy } from "./policies.ts";
import { normaliseEmail } from "../domain/buyer-emails.ts";

const MINUTE = 60_000;
const shape = (p: LimitPolicy) => [p.name, p.limit, p.periodMs, p.keyedBy, p.edge, p.code];

describe('rate-limit policies (docs/api.md "Rate limits")', () => {
  it("has every row of the limits table", () => {
    assert.deepEqual(RULES.quote.policies.map(shape), [
      ["quote-merchant", 5000, MINUTE, "merchant", false, "rate_limited"],
      ["quote-merchant-ip", 500, MINUTE, "merchant_ip", false, "rate_limited"],
      ["edge-quote", 50, 10_000, "ip", true, "rate_limited"],
    ]);
    assert.deepEqual(RULES.confirm.policies.map(shape), [
      ["confirm-merchant", 1000, MINUTE, "merchant", false, "rate_limited"],
      ["confirm-merchant-ip", 200, MINUTE, "merchant_ip", false, "rate_limited"],
      ["edge-global", 100, MINUTE, "ip", true, "challenge_required"],
    ]);
    assert.deepEqual(RULES.void.policies.map(shape).slice(0, 2), [
      ["void-merchant", 200, MINUTE, "merchant", false, "rate_limited"],
      ["void-merchant-ip", 60, MINUTE, "merchant_ip", false, "rate_limited"],
    ]);
    for (const rule of [RULES.metrics, RULES.claims]) {
      // The strict merchant bucket (docs/api.md "Rate limits"): 1000/min by merchant and 100/min by merchant + IP, together.
      assert.deepEqual(rule.policies.map((p) => [p.limit, p.periodMs, p.keyedBy]).slice(0, 2), [
        [1000, MINUTE, "merchant"],
        [100, MINUTE, "merchant_ip"],
      ]);
    }
    assert.deepEqual(RULES.portalLookup.policies.map(shape).slice(0, 2), [
      ["portal-lookup-ip", 30, MINUTE, "ip", false, "rate_limited"],
      ["portal-lookup-email-ip", 10, 60 * MINUTE, "email_ip", false, "rate_limited"],
    ]);
    for (const rule of [RULES.void, RULES.metrics, RULES.claims, RULES.portalLookup, RULES.confirm]) {
      assert.equal(rule.policies.at(-1), EDGE_GLOBAL, `${rule.name}: "global" edge rule`);
    }
  });

  it("keys by merchant, merchant + IP, IP or a digest of the normalised e-mail", () => {
    const [merchant, merchantIp, edge] = RULES.quote.policies;
    const who = { merchant: "mer_1", ip: "203.0.113.9" };
    assert.equal(policyKey(merchant, who), "quote-merchant:mer_1");
    assert.equal(policyKey(merchantIp, who), "quote-merchant-ip:mer_1:203.0.113.9");
    assert.equal(policyKey(edge, who), "edge-quote:203.0.113.9");
    assert.equal(policyKey(merchantIp, { merchant: "mer_1" }), undefined, "no IP: the policy does not apply");
    assert.equal(policyKey(merchant, { ip: "203.0.113.9" }), undefined, "no merchant: the policy does not apply");
    const email = RULES.portalLookup.policies[1];
    const ip = "203.0.113.9";
    const key = policyKey(email, { email: "  Buyer@Example.COM ", ip });
    assert.equal(key, policyKey(email, { email: "buyer@example.com", ip }));
    assert.ok(!key!.includes("example"), "no e-mail address in a key");
    assert.notEqual(key, policyKey(email, { email: "other@example.com", ip }));
    assert.notEqual(key, policyKey(email, { email: "buyer@example.com", ip: "203.0.113.10" }), "per e-mail and IP");
    assert.equal(policyKey(email, { email: "buyer@example.com" }), undefined, "no IP: the policy does not apply");
    assert.equal(normaliseEmail("  A@B.C "), "a@b.c");
  });

  it("limits a portal session's changes by session and by IP (issue 26), a request without a session by IP alone", () => {
    assert.deepEqual(RULES.portalMutation.policies.map(shape), [
      ["portal-mutation-session", 10, MINUTE, "session", false, "rate_limited"],
      ["portal-mutation-ip", 60, 60 * MINUTE, "ip", false, "rate_limited"],
      shape(EDGE_GLOBAL),
    ]);
    const [session] = RULES.portalMutation.policies;
    assert.equal(policyKey(session, { session: "pss_1", ip: "203.0.113.9" }), "portal-mutation-session:pss_1");
    assert.equal(policyKey(session, { ip: "203.0.113.9" }), undefined, "no session: the policy does not apply");
  });
});
