import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS, rowCounts } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError } from "../support/api-assertions.ts";
import { protectOrder } from "../support/protection-flows.ts";
import { mintKey, rotateKey, type KeyManager } from "../../server/domain/api-keys.ts";
import { changeMemberRole, disableMember, type TeamActor } from "../../server/domain/members.ts";
import { DomainError } from "../../server/domain/errors.ts";
import { insertMember, type MemberRole } from "../../server/store/members.ts";

// docs/api.md "Authentication and keys": a dashboard developer mints publishable and restricted (rk_) keys only, and a
// restricted key cannot do through the API what the developer's role cannot do on the dashboard (void, refund
// reports, claim resolutions, fee refunds). A member's server keys end when they are disabled or their new role could
// not mint them; publishable keys stay (they are public).

describe.each(DIALECTS)("the keys a member mints (%s)", (dialect) => {
  let t: TestApi;
  let owner: TeamActor;
  let sequence = 0;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    owner = {
      id: "mem_owner",
      email: "owner@example.test",
      role: "owner",
      merchantId: t.merchant.merchantId,
      merchantName: "Test Store",
      mode: "test",
    };
  });
  afterAll(() => t.close());

  /** A new active member of the test merchant with `role`, as the key pages see them. */
  async function member(role: MemberRole): Promise<KeyManager & { id: string }> {
    const id = `mem_${role}_${++sequence}`;
    await t.database.db.transaction((tx) =>
      insertMember(tx, {
        id,
        merchantId: t.merchant.merchantId,
        email: `${id}@example.test`,
        name: "",
        role,
        status: "active",
        invitedBy: owner.id,
        createdAt: t.clock.now,
      }),
    );
    return {
      id,
      merchantId: t.merchant.merchantId,
      mode: "test",
      actor: { id, email: `${id}@example.test` },
      ip: "",
      role,
    };
  }

  const mint = (by: KeyManager, kind: string) =>
    t.database.db.transaction((tx) => mintKey(tx, t.services, by, { kind, mode: "test" }));

  async function refusedKind(action: () => Promise<unknown>) {
    const before = await rowCounts(t.database.db);
    await assert.rejects(action, (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.code, "key_kind_not_allowed");
      assert.equal(error.field, "kind");
      return true;
    });
    assert.deepEqual(await rowCounts(t.database.db), before, "nothing is written");
  }

  it("a developer mints publishable and restricted keys, never a secret one, and rotates no secret key", async () => {
    const developer = await member("developer");
    await refusedKind(() => mint(developer, "secret"));
    const ownersKey = await mint(
      { ...developer, actor: { id: owner.id, email: owner.email }, role: "owner" },
      "secret",
    );
    await refusedKind(() =>
      t.database.db.transaction((tx) =>
        rotateKey(tx, t.services, developer, { keyId: ownersKey.key.id, overlap: "none" }),
      ),
    );
    assert.match((await mint(developer, "restricted")).secret, /^rk_test_[0-9A-Za-z]{32}$/);
    assert.match((await mint(developer, "publishable")).secret, /^wk_test_[0-9A-Za-z]{32}$/);
    const support = await member("support");
    await refusedKind(() => mint(support, "publishable"));
  });

  it("a restricted key reads and integrates, but is 403 on void, refund reports, claim resolutions and fee refunds", async () => {
    const developer = await member("developer");
    const key = apiClient(t.baseUrl, (await mint(developer, "restricted")).secret);
    const { confirmation } = await protectOrder(apiClient(t.baseUrl, t.merchant.publishableKey), t.merchant.programId);
    assert.equal((await key.get(`/purchases/${confirmation.planId}`)).status, 200);
    assert.equal((await key.get("/merchant/claims")).status, 200);
    for (const [path, body] of [
      ["/offers/void", { planId: confirmation.planId }],
      [`/orders/${encodeURIComponent(confirmation.orderId)}/refund`, {}],
      ["/merchant/claims/clm_unknown/resolution", { resolution: "refunded" }],
      [`/purchases/${confirmation.planId}/fee-refund`, {}],
    ] as const) {
      const response = await assertChangesNothing(t.database.db, () => key.post(path, body));
      assertError(response, { status: 403, code: "secret_key_required", param: null });
    }
    assert.equal((await key.get(`/purchases/${confirmation.planId}`)).body.status, "active", "not voided");
  });

  it("disabling a member ends the server keys they minted at once, audited; their publishable key and others' keys work", async () => {
    const developer = await member("developer");
    const [restricted, publishable] = [await mint(developer, "restricted"), await mint(developer, "publishable")];
    const colleague = await mint(await member("developer"), "restricted");
    const rk = apiClient(t.baseUrl, restricted.secret);
    assert.equal((await rk.get("/purchases")).status, 200);
    await t.database.db.transaction((tx) => disableMember(tx, t.services, owner, developer.id, "198.51.100.7"));
    assertError(await rk.get("/purchases"), { status: 401, code: "api_key_invalid" });
    assert.equal((await apiClient(t.baseUrl, colleague.secret).get("/purchases")).status, 200);
    assert.equal((await apiClient(t.baseUrl, t.merchant.secretKey).get("/purchases")).status, 200);
    const quote = await apiClient(t.baseUrl, publishable.secret).post("/offers/quote", {
      order_amount_cents: 5_000,
      order_id: `order-${crypto.randomUUID()}`,
      protection_program_id: t.merchant.programId,
    });
    assert.equal(quote.status, 200, "a publishable key is public: it outlives its minter");
    const audit = await t.database.db.all<{ subject: string; detail: string; actor_id: string }>(
      "SELECT subject, detail, actor_id FROM merchant_audit_log WHERE action = 'api_key.revoked' AND subject = ?",
      [restricted.key.id],
    );
    assert.equal(audit.length, 1);
    assert.equal(audit[0].actor_id, owner.id);
    assert.deepEqual(JSON.parse(audit[0].detail), {
      kind: "restricted",
      mode: "test",
      last4: restricted.secret.slice(-4),
      reason: "member_disabled",
      minter: developer.id,
    });
  });

  it("a new role ends the keys it could not mint: owner → developer ends mch_, developer → support ends rk_", async () => {
    const formerOwner = await member("owner");
    const [secretKey, restrictedKey] = [await mint(formerOwner, "secret"), await mint(formerOwner, "restricted")];
    const changeRole = (memberId: string, role: MemberRole) =>
      t.database.db.transaction((tx) => changeMemberRole(tx, t.services, owner, { memberId, role }, ""));
    await changeRole(formerOwner.id, "developer");
    assertError(await apiClient(t.baseUrl, secretKey.secret).get("/purchases"), {
      status: 401,
      code: "api_key_invalid",
    });
    assert.equal((await apiClient(t.baseUrl, restrictedKey.secret).get("/purchases")).status, 200);
    await changeRole(formerOwner.id, "support");
    assertError(await apiClient(t.baseUrl, restrictedKey.secret).get("/purchases"), {
      status: 401,
      code: "api_key_invalid",
    });
  });
});
