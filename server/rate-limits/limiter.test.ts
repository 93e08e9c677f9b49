import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { schedule } from "./gcra.ts";
import { RULES, policyKey, type Identity, type LimitPolicy, type RateLimitRule } from "./policies.ts";
import { createLimiter, type Limiter } from "./limiter.ts";
import { BACKENDS, limiterFactory } from "../../test/support/rate-limits.ts";
import { capturedLogger } from "../../test/support/logger.ts";

const START = Date.parse("2026-11-22T12:00:00.000Z");
const clockAt = (now = START) => ({
  now,
  read() {
    return this.now;
  },
});

let uniq = 0;
/** A fresh identity per test, so no two tests share a key. */
const someone = (): Identity => {
  uniq++;
  return {
    merchant: `mer_test${uniq}`,
    ip: `198.51.${uniq % 250}.${(uniq * 7) % 250}`,
    email: ` Buyer${uniq}@Example.com `,
    session: `pss_test${uniq}`,
  };
};

/** `count` decisions at the current instant, `batch` at a time; returns how many were admitted. */
async function admittedOf(limiter: Limiter, rule: RateLimitRule, identity: Identity, count: number, batch = 250) {
  let admitted = 0;
  for (let done = 0; done < count; done += batch) {
    const verdicts = await Promise.all(
      Array.from({ length: Math.min(batch, count - done) }, () => limiter.check(rule, identity)),
    );
    admitted += verdicts.filter((v) => v.admitted).length;
  }
  return admitted;
}

const allPolicies = (): LimitPolicy[] => [
  ...new Map(
    Object.values(RULES)
      .flatMap((rule) => rule.policies)
      .map((p) => [p.name, p]),
  ).values(),
];

for (const backend of BACKENDS) {
  describe(`rate limiter (${backend})`, () => {
    const factory = limiterFactory(backend);
    afterAll(() => factory.close());

    for (const policy of allPolicies()) {
      it(`${policy.name}: request ${policy.limit} passes, ${policy.limit + 1} is rejected, Retry-After admits, a period restores all`, async () => {
        const clock = clockAt();
        const limiter = factory.make({ clock: () => clock.read() });
        const rule = { name: policy.name, policies: [policy] };
        const who = someone();
        assert.equal(await admittedOf(limiter, rule, who, policy.limit), policy.limit);
        const rejected = await limiter.check(rule, who);
        assert.equal(rejected.admitted, false);
        assert.equal(rejected.retryAfterMs, schedule(policy).interval);
        assert.equal(rejected.policies[0].remaining, 0);
        clock.now += rejected.retryAfterMs - 1;
        assert.equal((await limiter.check(rule, who)).admitted, false, "not a millisecond early");
        clock.now += 1;
        assert.equal((await limiter.check(rule, who)).admitted, true);
        clock.now += policy.periodMs;
        assert.equal(await admittedOf(limiter, rule, who, policy.limit + 1), policy.limit);
      });
    }

    it("the strict merchant bucket: 100/min per merchant + IP and 1000/min per merchant, together", async () => {
      const clock = clockAt();
      const limiter = factory.make({ clock: () => clock.read(), edge: false });
      const merchant = someone().merchant;
      for (let i = 0; i < 10; i++) {
        assert.equal(await admittedOf(limiter, RULES.metrics, { merchant, ip: `192.0.2.${i}` }, 101), 100, `IP ${i}`);
      }
      const eleventh = await limiter.check(RULES.metrics, { merchant, ip: "192.0.2.99" });
      assert.equal(eleventh.admitted, false, "the merchant's 1000/min is spent");
      assert.deepEqual(
        eleventh.policies.map((p) => [p.policy.name, p.admitted]),
        [
          ["metrics-merchant", false],
          ["metrics-merchant-ip", true],
        ],
      );
      assert.equal(
        (await limiter.check(RULES.metrics, { merchant: someone().merchant, ip: "192.0.2.99" })).admitted,
        true,
        "other merchants unaffected",
      );
    });

    it("is atomic under concurrent load: never over-admits, and rejections consume nothing", async () => {
      const clock = clockAt();
      // Two limiters: with Redis, two connections deciding concurrently against the same keys.
      const limiters =
        backend === "redis"
          ? [factory.make({ clock: () => clock.read() }), factory.make({ clock: () => clock.read() })]
          : [factory.make({ clock: () => clock.read() })];
      const merchantPolicy: LimitPolicy = {
        name: "atomic-merchant",
        limit: 10,
        periodMs: 60_000,
        keyedBy: "merchant",
        edge: false,
        code: "rate_limited",
      };
      const ipPolicy: LimitPolicy = { ...merchantPolicy, name: "atomic-merchant-ip", limit: 6 };
      const rule = { name: "atomic", policies: [merchantPolicy, { ...ipPolicy, keyedBy: "merchant_ip" as const }] };
      const merchant = someone().merchant;
      const ips = ["203.0.113.1", "203.0.113.2", "203.0.113.3"];
      const requests = Array.from({ length: 60 }, (_, i) => ({
        ip: ips[i % 3],
        limiter: limiters[i % limiters.length],
      }));
      const verdicts = await Promise.all(requests.map(({ ip, limiter }) => limiter.check(rule, { merchant, ip })));
      const admittedByIp = ips.map((ip) => verdicts.filter((v, i) => v.admitted && requests[i].ip === ip).length);
      assert.equal(verdicts.filter((v) => v.admitted).length, 10, "exactly the merchant limit");
      for (const n of admittedByIp) assert.ok(n <= 6, `per IP ${admittedByIp}`);
      // Each admitted request moved each of its keys by exactly one interval; the rejected 50 moved none.
      const [merchantInterval, ipInterval] = rule.policies.map((p) => schedule(p).interval);
      const keys = [
        policyKey(rule.policies[0], { merchant })!,
        ...ips.map((ip) => policyKey(rule.policies[1], { merchant, ip })!),
      ];
      const states = await limiters[0].stores.primary.states(keys, clock.now);
      assert.deepEqual(states, [
        START + 10 * merchantInterval,
        ...admittedByIp.map((n) => (n === 0 ? undefined : START + n * ipInterval)),
      ]);
    });

    it("a request rejected by one limit leaves the other limit's counter as it was", async () => {
      const clock = clockAt();
      const limiter = factory.make({ clock: () => clock.read() });
      const rule = RULES.void;
      const merchant = someone().merchant;
      const store = limiter.stores.primary;
      const [merchantKey, ipKey] = [
        policyKey(rule.policies[0], { merchant })!,
        policyKey(rule.policies[1], { merchant, ip: "192.0.2.1" })!,
      ];
      assert.equal(await admittedOf(limiter, rule, { merchant, ip: "192.0.2.1" }, 60), 60);
      const before = await store.states([merchantKey, ipKey], clock.now);
      assert.equal(
        (await limiter.check(rule, { merchant, ip: "192.0.2.1" })).admitted,
        false,
        "per merchant + IP exhausted",
      );
      assert.deepEqual(await store.states([merchantKey, ipKey], clock.now), before, "the merchant bucket did not move");
      // Spend the rest of the merchant's 200 from other addresses; then a fresh address is rejected by the merchant limit.
      for (let i = 2; i <= 3; i++) await admittedOf(limiter, rule, { merchant, ip: `192.0.2.${i}` }, 60);
      assert.equal(
        await admittedOf(limiter, rule, { merchant, ip: "192.0.2.5" }, 30),
        20,
        "the merchant's 200 run out first",
      );
      const freshKey = policyKey(rule.policies[1], { merchant, ip: "192.0.2.6" })!;
      assert.equal((await limiter.check(rule, { merchant, ip: "192.0.2.6" })).admitted, false);
      assert.deepEqual(
        await store.states([freshKey], clock.now),
        [undefined],
        "the fresh address's bucket did not move",
      );
    });

    it("EDGE_LIMITS=off drops the edge policies and keeps the others", async () => {
      const clock = clockAt();
      const limiter = factory.make({ clock: () => clock.read(), edge: false });
      assert.deepEqual(
        limiter.policiesOf(RULES.quote).map((p) => p.name),
        ["quote-merchant", "quote-merchant-ip"],
      );
      const who = someone();
      assert.equal(await admittedOf(limiter, RULES.quote, { ip: who.ip }, 60), 60, "no edge-quote 50 per 10 s");
    });

    it("the portal lookup: 30/min per IP, and 10/hour per e-mail (whatever its case or surrounding space) and IP", async () => {
      const clock = clockAt();
      const limiter = factory.make({ clock: () => clock.read() });
      const ip = someone().ip;
      const spellings = ["buyer@example.org", " BUYER@example.org", "Buyer@Example.org  "];
      const verdicts = [];
      for (let i = 0; i < 11; i++)
        verdicts.push(await limiter.check(RULES.portalLookup, { ip, email: spellings[i % 3] }));
      assert.equal(verdicts.filter((v) => v.admitted).length, 10);
      assert.equal(verdicts[10].policies.find((p) => !p.admitted)?.policy.name, "portal-lookup-email-ip");
      assert.equal(verdicts[10].retryAfterMs, 6 * 60_000);
      const elsewhere = await limiter.check(RULES.portalLookup, { ip: someone().ip, email: spellings[0] });
      assert.equal(elsewhere.admitted, true, "the same address from another client is not held back");
    });

    it("an IPv6 client counts by its /64, an IPv4-mapped one as its IPv4 address", async () => {
      const clock = clockAt();
      const limiter = factory.make({ clock: () => clock.read() });
      const rule = { name: "per-ip", policies: [{ ...RULES.portalLookup.policies[0], name: `per-ip-${++uniq}` }] };
      const admitted = [];
      for (let i = 0; i < 31; i++)
        admitted.push(
          (await limiter.check(rule, { ip: `2001:db8:${uniq.toString(16)}:7:${i.toString(16)}::1` })).admitted,
        );
      assert.deepEqual(admitted.slice(29), [true, false], "30 a minute for the whole /64");
      assert.equal((await limiter.check(rule, { ip: `2001:db8:${uniq.toString(16)}:8::1` })).admitted, true);
      for (let i = 0; i < 30; i++) await limiter.check(rule, { ip: "192.0.2.77" });
      assert.equal((await limiter.check(rule, { ip: "::ffff:192.0.2.77" })).admitted, false);
    });
  });
}

describe("rate limiter: Redis unreachable", () => {
  let limiter: Limiter;
  const captured = capturedLogger();
  const clock = clockAt();
  beforeAll(() => {
    limiter = createLimiter({
      clock: () => clock.read(),
      logger: captured.logger,
      redisUrl: "redis://127.0.0.1:1",
      keyPrefix: "unused:",
    });
  });
  afterAll(() => limiter.close());

  it("decides in memory, never fails the request, opens its breaker and logs that once", async () => {
    const who = someone();
    const verdicts = [];
    for (let i = 0; i < 61; i++) verdicts.push(await limiter.check(RULES.void, who));
    assert.equal(verdicts.filter((v) => v.admitted).length, 60, "the limits still hold, in memory");
    assert.equal(limiter.fallbacks(), 61);
    assert.equal(limiter.breakerState(), "open");
    const warnings = captured.lines.filter((line) => String(line.msg).includes("Redis unavailable"));
    assert.equal(warnings.length, 1);
  });
});
