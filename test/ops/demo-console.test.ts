// `npm run demo`'s claims console: the admin account and its printed sign-in link (a demo-only 24-hour lifetime), and
// a claim that waits for a decision on every start — when the last one was decided, another demo order is protected
// and a claim filed on it.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { DEMO_OPS_EMAIL, DEMO_SIGN_IN_LINK_TTL_MS, ensureDemoConsole } from "../../server/demo-merchant.ts";
import { authenticateStaff, signInWithLink } from "../../server/domain/staff.ts";
import { actOnClaim } from "../../server/domain/ops-claims.ts";

describe.each(DIALECTS)("the demo's claims console (%s)", (dialect) => {
  let t: TestApi;
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(() => t?.close());

  it("an admin with a day-long link, and a claim waiting for a decision on every start", async () => {
    const runtime = { db: t.database.db, services: t.services, api: t.api };
    const first = await ensureDemoConsole(runtime, t.merchant);
    assert.equal(first.email, DEMO_OPS_EMAIL);
    assert.equal(first.expiresAt, t.clock.now + DEMO_SIGN_IN_LINK_TTL_MS);
    t.clock.advance(DEMO_SIGN_IN_LINK_TTL_MS - 1);
    const { sessionToken, staff } = await t.database.db.transaction((tx) =>
      signInWithLink(tx, t.services, first.token, "127.0.0.1"),
    );
    assert.equal(staff.role, "admin");
    const admin = (await authenticateStaff(t.database.db, t.services, sessionToken))!;

    // Started again with the claim still waiting: no new order, the same claim, a new link.
    const before = await rowCounts(t.database.db, ["plans", "claims", "staff_accounts"]);
    const again = await ensureDemoConsole(runtime, t.merchant);
    assert.equal(again.claimId, first.claimId);
    assert.notEqual(again.token, first.token);
    assert.deepEqual(await rowCounts(t.database.db, ["plans", "claims", "staff_accounts"]), before);

    // Once a newcomer decided it, the next start files another claim to decide.
    await t.database.db.transaction((tx) =>
      actOnClaim(tx, t.services, admin, first.claimId, { action: "deny", code: "insufficient_evidence" }, "127.0.0.1"),
    );
    const next = await ensureDemoConsole(runtime, t.merchant);
    assert.notEqual(next.claimId, first.claimId);
    const status = await t.database.db.get<{ status: string }>("SELECT status FROM claims WHERE id = ?", [
      next.claimId,
    ]);
    assert.equal(status!.status, "submitted");
  });
});
