// How claims were decided (docs/dashboard.md "Claim decisions"), on SQLite and PostgreSQL: the claims whose standing
// decision was made in the period, the share a claim rule made, and the median time from filing to the decision — for
// one merchant in one mode (the dashboard's overview) or for every merchant (the console's queue); an empty period
// has no share and no median; the overview both dashboard shells render says them for its window.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { protectOrder } from "../support/protection-flows.ts";
import type { NewMerchant } from "../../server/domain/merchants.ts";
import { submitClaim } from "../../server/domain/claims.ts";
import { claimDecisionStats } from "../../server/domain/metrics.ts";
import { DECISION_STATS_DAYS, listClaimQueue } from "../../server/domain/ops-claims.ts";
import { renderDashboardPage } from "../support/dashboard-page.ts";
import { loadOverview } from "../../app/dashboard/pages/overview.server.ts";
import type { PageContext } from "../../app/dashboard/viewer.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// A period of its own, years after the test clock: the claims the other tests' flows decide stay out of it.
const FROM = Date.parse("2031-01-01T00:00:00.000Z");
const TO = FROM + 30 * DAY;

describe.each(DIALECTS)("claim decision figures (%s)", (dialect) => {
  let t: TestApi;
  let other: NewMerchant;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    other = await t.createMerchant("Second Store");
  });
  afterAll(() => t?.close());

  /**
   * A claim of `merchant` filed at `filedAt` and decided by `decision.by` at `decision.at` (null: still undecided).
   */
  async function claimDecided(
    merchant: NewMerchant,
    filedAt: number,
    decision: { by: string; at: number } | null,
  ): Promise<string> {
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, merchant.publishableKey), merchant.programId, {
      customer_email: "buyer@example.com",
    });
    return t.database.db.transaction(async (q) => {
      const claim = await submitClaim(
        q,
        t.services,
        { merchantId: merchant.merchantId, mode: "test" },
        { referenceNumber: confirmation.referenceNumber, reason: "damaged_in_transit", description: "Crushed" },
      );
      // The columns a decision writes (server/store/claims.ts recordClaimDecision), at the times the case needs.
      await q.run(
        "UPDATE claims SET created_at = ?, status = ?, decided_by = ?, decided_at = ?, decision_code = ? WHERE id = ?",
        decision
          ? [filedAt, "approved", decision.by, decision.at, "approved", claim.id]
          : [filedAt, "submitted", null, null, null, claim.id],
      );
      return claim.id;
    });
  }

  const merchantScope = (merchant: NewMerchant) => ({
    merchantId: merchant.merchantId,
    mode: "test" as const,
    fromMs: FROM,
    toMs: TO,
  });

  it("an empty period: nothing decided, no share, no median", async () => {
    // A merchant of its own: the test merchant's period fills up in the next test, which may run first.
    const stats = await claimDecisionStats(t.database.db, merchantScope(await t.createMerchant("Quiet Store")));
    assert.deepEqual(stats, {
      period: { from: new Date(FROM).toISOString(), to: new Date(TO).toISOString() },
      decided: 0,
      automatic: 0,
      automaticShare: null,
      medianDecisionMs: null,
    });
  });

  it("counts the decisions made in the period, the share by rule and the median time to a decision", async () => {
    // Three decisions in the period (two by a rule), one on its first instant; one at its end (the next period's),
    // one before it, and an undecided claim stay out.
    await claimDecided(t.merchant, FROM - HOUR, { by: "rule:auto_approve", at: FROM });
    await claimDecided(t.merchant, FROM, { by: "staff:stf_1", at: FROM + 3 * DAY });
    await claimDecided(t.merchant, FROM + DAY, { by: "rule:auto_approve", at: FROM + DAY + 2 * HOUR });
    await claimDecided(t.merchant, TO - DAY, { by: "rule:auto_approve", at: TO });
    await claimDecided(t.merchant, FROM - 2 * DAY, { by: "staff:stf_1", at: FROM - 1 });
    await claimDecided(t.merchant, FROM + DAY, null);
    const odd = await claimDecisionStats(t.database.db, merchantScope(t.merchant));
    assert.equal(odd.decided, 3);
    assert.equal(odd.automatic, 2);
    assert.equal(odd.automaticShare, 2 / 3);
    assert.equal(odd.medianDecisionMs, 2 * HOUR, "1 h, 2 h, 3 days: the middle one");

    // An even count: the mean of the middle two.
    await claimDecided(t.merchant, FROM + 2 * DAY, { by: "staff:stf_1", at: FROM + 2 * DAY + 4 * HOUR });
    const even = await claimDecisionStats(t.database.db, merchantScope(t.merchant));
    assert.equal(even.decided, 4);
    assert.equal(even.automaticShare, 0.5);
    assert.equal(even.medianDecisionMs, 3 * HOUR, "1 h, 2 h, 4 h, 3 days: (2 h + 4 h) / 2");

    // Another merchant's decision: not this merchant's figure, nor the live mode's; the console's (everyone's) has it.
    await claimDecided(other, FROM + 5 * DAY, { by: "rule:auto_approve", at: FROM + 5 * DAY + 10 * HOUR });
    assert.equal((await claimDecisionStats(t.database.db, merchantScope(t.merchant))).decided, 4);
    assert.equal((await claimDecisionStats(t.database.db, { ...merchantScope(t.merchant), mode: "live" })).decided, 0);
    const everyone = await claimDecisionStats(t.database.db, { fromMs: FROM, toMs: TO });
    assert.equal(everyone.decided, 5);
    assert.equal(everyone.automatic, 3);
    assert.equal(everyone.medianDecisionMs, 4 * HOUR, "1 h, 2 h, 4 h, 10 h, 3 days");
  });

  it("the console's queue shows the figures of its merchant and mode filters over the last 30 days", async () => {
    const now = t.clock.now;
    await claimDecided(other, now - 2 * DAY, { by: "rule:auto_approve", at: now - 2 * DAY + HOUR });
    const window = { fromMs: now - DECISION_STATS_DAYS * DAY, toMs: now };
    const queue = await listClaimQueue(t.database.db, t.services, { merchantId: other.merchantId, mode: "test" });
    assert.deepEqual(
      queue.decisions,
      await claimDecisionStats(t.database.db, { merchantId: other.merchantId, mode: "test", ...window }),
    );
    assert.ok(queue.decisions.decided >= 1);
    const all = await listClaimQueue(t.database.db, t.services, {});
    assert.deepEqual(all.decisions, await claimDecisionStats(t.database.db, window));
  });

  it("the overview (both shells' page) shows the merchant's figures for its window, and says when none", async () => {
    const merchant = await t.createMerchant("Overview Store");
    const overview = async () => {
      const data = await loadOverview({
        runtime: { db: t.database.db, services: t.services },
        viewer: { merchantId: merchant.merchantId, mode: "test" },
        request: new Request("http://app.test/dashboard?days=30"),
      } as unknown as PageContext);
      return { data, html: await renderDashboardPage(data, { file: "dashboard._index.tsx", path: "/dashboard" }) };
    };
    const empty = await overview();
    assert.equal(empty.data.decisions.decided, 0);
    assert.match(empty.html, /Claim decisions/);
    assert.match(empty.html, /No claim was decided in this period\./);

    const now = t.clock.now;
    await claimDecided(merchant, now - DAY - 2 * HOUR, { by: "rule:auto_approve", at: now - DAY });
    await claimDecided(merchant, now - 2 * DAY - 6 * HOUR, { by: "staff:stf_1", at: now - 2 * DAY });
    await claimDecided(merchant, now - 40 * DAY, { by: "rule:auto_approve", at: now - 40 * DAY + HOUR });
    const { data, html } = await overview();
    assert.equal(data.decisions.decided, 2, "the decision 40 days ago is outside the 30-day window");
    assert.match(html, /Claims approved or denied in the last 30 days \(since \d{4}-\d\d-\d\d 00:00 UTC\)/);
    assert.match(html, /50 % \(1\)/);
    assert.match(html, /4 h 0 min/, "the median of 2 h and 6 h");
  });
});
