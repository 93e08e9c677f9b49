// The dashboard's people on SQLite and PostgreSQL: asking to sign up creates nothing but the pending sign-up; its
// link — once, within 15 minutes, even when spent twice at the same time — makes a merchant (test mode, no keys, not
// live) and its owner, signed in; an address already in a team gets sign-in links instead; a link signs in once, for 15 minutes, even when
// spent twice at the same time; a session shows one mode; an owner invites, changes roles and disables — never
// themselves — and a disabled member's sessions end at once; sign out everywhere ends every session; refused input
// names its field and writes nothing; each of these is in the audit log.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, DIALECTS, rowCounts, type TestDatabase } from "../support/databases.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import {
  authenticateMember,
  changeMemberRole,
  disableMember,
  inviteMember,
  memberSignInLinkUsable,
  purgeStaleMemberCredentials,
  requestMemberSignInLinks,
  signInMemberWithLink,
  signOutEverywhere,
  switchDashboardMode,
  type MemberPrincipal,
} from "../../server/domain/members.ts";
import { listMerchantAudit } from "../../server/domain/merchant-audit.ts";
import { confirmSignUp, requestSignUp, SIGN_UP_LINK_TTL_MS } from "../../server/domain/sign-ups.ts";
import { SIGN_IN_LINK_TTL_MS } from "../../server/domain/accounts.ts";
import { DomainError } from "../../server/domain/errors.ts";

const TABLES = [
  "member_sign_ups",
  "merchants",
  "merchant_members",
  "member_sign_in_tokens",
  "member_sessions",
  "merchant_audit_log",
  "api_keys",
];

describe.each(DIALECTS)("dashboard members (%s)", (dialect) => {
  let t: TestDatabase;
  let now = Date.parse("2026-11-25T09:00:00.000Z");
  const services: Services = {
    clock: () => now,
    random: cryptoRandom,
    settings: { companyName: "Guarantor Inc.", portalUrl: "https://portal.example" },
  };
  let sequence = 0;
  const address = (label: string) => `${label}-${++sequence}@shop.example.com`;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
  });
  afterAll(() => t.drop());

  /** Asks to sign up and opens the e-mailed link: the new owner's session token. */
  async function signUp(email: string, businessName: string, ip = "") {
    const request = await t.db.transaction((db) => requestSignUp(db, services, { email, businessName }));
    assert.equal(request.kind, "confirm");
    if (request.kind !== "confirm") throw new Error("not a new address");
    return t.db.transaction((db) => confirmSignUp(db, services, request.token, ip));
  }

  async function signedUpOwner(): Promise<{ owner: MemberPrincipal; email: string }> {
    const email = address("owner");
    const { sessionToken } = await signUp(email, "Harbour Lane", "203.0.113.5");
    return { owner: (await authenticateMember(t.db, services, sessionToken))!, email };
  }

  it("asking to sign up creates nothing but the pending sign-up; its link makes a test-mode merchant without keys, not live, and its owner, signed in; the same address again only gets a sign-in link", async () => {
    const email = ` Owner-${++sequence}@Shop.Example.com `;
    const before = await rowCounts(t.db, TABLES);
    const request = await t.db.transaction((db) =>
      requestSignUp(db, services, { email, businessName: "Harbour\r\nBcc: x@evil.example  Lane" }),
    );
    assert.equal(request.kind, "confirm");
    if (request.kind !== "confirm") return;
    assert.equal(request.email, email.trim().toLowerCase());
    assert.deepEqual(await rowCounts(t.db, TABLES), { ...before, member_sign_ups: before.member_sign_ups + 1 });

    const { merchantId, sessionToken } = await t.db.transaction((db) =>
      confirmSignUp(db, services, request.token, "203.0.113.5"),
    );
    const owner = (await authenticateMember(t.db, services, sessionToken))!;
    assert.deepEqual([owner.merchantId, owner.email, owner.role], [merchantId, email.trim().toLowerCase(), "owner"]);
    assert.equal(owner.merchantName, "Harbour Bcc: x@evil.example Lane", "one line");
    const merchant = await t.db.get<{ live_at: number | null }>("SELECT live_at FROM merchants WHERE id = ?", [
      merchantId,
    ]);
    assert.equal(merchant!.live_at, null);
    assert.equal(
      Number(
        (await t.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys WHERE merchant_id = ?", [merchantId]))!.n,
      ),
      0,
    );
    const opened = await rowCounts(t.db, TABLES);
    await assert.rejects(
      t.db.transaction((db) => confirmSignUp(db, services, request.token, "")),
      (error: DomainError) => error.code === "sign_up_link_invalid",
    );
    const again = await t.db.transaction((db) => requestSignUp(db, services, { email, businessName: "Another name" }));
    assert.equal(again.kind, "sign_in");
    assert.equal(again.kind === "sign_in" && again.links.length, 1);
    const after = await rowCounts(t.db, TABLES);
    assert.equal(after.merchants, opened.merchants, "no second merchant");
    assert.equal(after.member_sign_ups, opened.member_sign_ups, "no second sign-up");
  });

  it("a sign-up link opens one account, even spent twice at once, and none after 15 minutes", async () => {
    const asked = (email: string) =>
      t.db.transaction((db) => requestSignUp(db, services, { email, businessName: "Twice Goods" }));
    const first = await asked(address("twice"));
    assert.equal(first.kind, "confirm");
    if (first.kind !== "confirm") return;
    const before = await rowCounts(t.db, TABLES);
    const outcomes = await Promise.allSettled([
      t.db.transaction((db) => confirmSignUp(db, services, first.token, "")),
      t.db.transaction((db) => confirmSignUp(db, services, first.token, "")),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ["fulfilled", "rejected"]);
    assert.equal((await rowCounts(t.db, TABLES)).merchants, before.merchants + 1);

    const late = await asked(address("late"));
    if (late.kind !== "confirm") throw new Error("a new address");
    now += SIGN_UP_LINK_TTL_MS;
    const expired = await rowCounts(t.db, TABLES);
    await assert.rejects(
      t.db.transaction((db) => confirmSignUp(db, services, late.token, "")),
      (error: DomainError) => error.code === "sign_up_link_invalid",
    );
    await assert.rejects(
      t.db.transaction((db) => confirmSignUp(db, services, "not-a-token", "")),
      (error: DomainError) => error.code === "sign_up_link_invalid",
    );
    assert.deepEqual(await rowCounts(t.db, TABLES), expired);
    now += 24 * 60 * 60 * 1000 + 1;
    await t.db.transaction((db) => purgeStaleMemberCredentials(db, now));
    assert.equal((await rowCounts(t.db, TABLES)).member_sign_ups, 0, "a day after, the purge removes stale sign-ups");
  });

  it("refused sign-up input names its field and writes nothing", async () => {
    const before = await rowCounts(t.db, TABLES);
    for (const [input, field] of [
      [{ email: "nope", businessName: "Harbour Lane" }, "email"],
      [{ email: address("x"), businessName: " \r\n " }, "businessName"],
      [{ email: address("x"), businessName: "Harbour\u0000Lane" }, "businessName"],
      [{ email: address("x"), businessName: "Harbour\u202eLane" }, "businessName"],
      [{ email: address("x"), businessName: "Harbour", extra: 1 }, undefined],
    ] as const) {
      await assert.rejects(
        t.db.transaction((db) => requestSignUp(db, services, input)),
        (error: DomainError) => error instanceof DomainError && error.field === field,
      );
    }
    assert.deepEqual(await rowCounts(t.db, TABLES), before);
  });

  it("a link signs in once, even spent twice at once, and not after 15 minutes", async () => {
    const { email } = await signedUpOwner();
    const [{ token }] = await t.db.transaction((db) => requestMemberSignInLinks(db, services, { email }));
    assert.equal(await memberSignInLinkUsable(t.db, services, token), true);
    const outcomes = await Promise.allSettled([
      t.db.transaction((db) => signInMemberWithLink(db, services, token, "")),
      t.db.transaction((db) => signInMemberWithLink(db, services, token, "")),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ["fulfilled", "rejected"]);
    assert.equal(await memberSignInLinkUsable(t.db, services, token), false);

    const [late] = await t.db.transaction((db) => requestMemberSignInLinks(db, services, { email }));
    now += SIGN_IN_LINK_TTL_MS;
    await assert.rejects(
      t.db.transaction((db) => signInMemberWithLink(db, services, late.token, "")),
      (error: DomainError) => error.code === "sign_in_link_invalid",
    );
  });

  it("an address in two teams gets one link per team, each naming its business", async () => {
    const { owner } = await signedUpOwner();
    const shared = address("shared");
    await signUp(shared, "Second Shop");
    await t.db.transaction((db) => inviteMember(db, services, owner, { email: shared, role: "developer" }, ""));
    const links = await t.db.transaction((db) => requestMemberSignInLinks(db, services, { email: shared }));
    assert.deepEqual(links.map((link) => link.merchantName).sort(), ["Harbour Lane", "Second Shop"]);
  });

  it("a session shows one mode at a time; refused modes change nothing", async () => {
    const { owner } = await signedUpOwner();
    assert.equal(owner.mode, "test");
    await t.db.transaction((db) => switchDashboardMode(db, owner, "live"));
    const token = await t.db.get<{ mode: string }>("SELECT mode FROM member_sessions WHERE token_hash = ?", [
      owner.sessionTokenHash,
    ]);
    assert.equal(token!.mode, "live");
    await assert.rejects(t.db.transaction((db) => switchDashboardMode(db, owner, "staging")));
    assert.equal(
      (await t.db.get<{ mode: string }>("SELECT mode FROM member_sessions WHERE token_hash = ?", [
        owner.sessionTokenHash,
      ]))!.mode,
      "live",
    );
  });

  it("an owner invites, changes roles and disables others — never themselves — and a disabled member's session ends at once", async () => {
    const { owner } = await signedUpOwner();
    const invited = await t.db.transaction((db) =>
      inviteMember(db, services, owner, { email: address("dev"), role: "developer" }, "198.51.100.1"),
    );
    await assert.rejects(
      t.db.transaction((db) => inviteMember(db, services, owner, { email: invited.member.email, role: "support" }, "")),
      (error: DomainError) => error.code === "member_exists" && error.field === "email",
    );
    const { sessionToken } = await t.db.transaction((db) => signInMemberWithLink(db, services, invited.link.token, ""));
    const developer = (await authenticateMember(t.db, services, sessionToken))!;
    assert.equal(developer.role, "developer");
    await assert.rejects(
      t.db.transaction((db) => inviteMember(db, services, developer, { email: address("x"), role: "owner" }, "")),
      (error: DomainError) => error.code === "owner_required",
    );
    await assert.rejects(
      t.db.transaction((db) => changeMemberRole(db, services, owner, { memberId: owner.id, role: "support" }, "")),
      (error: DomainError) => error.code === "member_self_change",
    );
    const changed = await t.db.transaction((db) =>
      changeMemberRole(db, services, owner, { memberId: developer.id, role: "support" }, ""),
    );
    assert.equal(changed.role, "support");
    await t.db.transaction((db) => disableMember(db, services, owner, developer.id, ""));
    assert.equal(await authenticateMember(t.db, services, sessionToken), undefined);
    const actions = (await listMerchantAudit(t.db, owner.merchantId)).entries.map((entry) => entry.action);
    for (const action of [
      "member.signed_up",
      "member.signed_in",
      "member.invited",
      "member.role_changed",
      "member.disabled",
    ])
      assert.ok(actions.includes(action), action);
  });

  it("sign out everywhere ends every session of the member", async () => {
    const { owner, email } = await signedUpOwner();
    const [link] = await t.db.transaction((db) => requestMemberSignInLinks(db, services, { email }));
    const { sessionToken: second } = await t.db.transaction((db) => signInMemberWithLink(db, services, link.token, ""));
    await t.db.transaction((db) => signOutEverywhere(db, services, owner, ""));
    assert.equal(await authenticateMember(t.db, services, second), undefined);
  });
});
