// The claims team's accounts on SQLite and PostgreSQL: invitations (admins only, addresses normalised), single-use
// 15-minute sign-in links kept only as hashes (a second use fails, also concurrently), 12-hour sessions that signing
// out or disabling the account ends at once, role changes, and the audit log that records each of them and that the
// database itself refuses to change.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS, createTestDatabase, rowCounts, type TestDatabase } from "../support/databases.ts";
import { TestClock } from "../support/api-server.ts";
import { cryptoRandom, sha256Hex } from "../../server/domain/ids.ts";
import type { Services } from "../../server/domain/context.ts";
import type { Queryable } from "../../server/store/database.ts";
import { DomainError } from "../../server/domain/errors.ts";
import {
  authenticateStaff,
  changeStaffRole,
  disableStaff,
  ensureStaffAccount,
  inviteStaff,
  issueSignInLink,
  listAuditLog,
  listStaff,
  purgeStaleStaffCredentials,
  reactivateStaff,
  requestSignInLink,
  SIGN_IN_LINK_TTL_MS,
  signInLinkUsable,
  signInWithLink,
  signOutStaff,
  STAFF_SESSION_TTL_MS,
} from "../../server/domain/staff.ts";

const STAFF_TABLES = ["staff_accounts", "staff_sign_in_tokens", "staff_sessions", "staff_audit_log"];
const IP = "192.0.2.7";

/** Asserts `work` is refused with this DomainError kind and code (and field, when given). */
async function refused(work: Promise<unknown>, kind: string, code: string, field?: string) {
  await assert.rejects(work, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, kind);
    assert.equal(error.code, code);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  });
}

describe.each(DIALECTS)("staff accounts, sign-in and audit (%s)", (dialect) => {
  let database: TestDatabase;
  const clock = new TestClock();
  const services: Services = {
    clock: clock.read,
    random: cryptoRandom,
    settings: { companyName: "Test", portalUrl: "https://portal.example.test" },
  };
  let sequence = 0;
  const address = (label: string) => `${label}-${++sequence}@example.com`;
  /** One transaction, a millisecond after the last (audit entries sort by time; within one millisecond by chance). */
  const tx = <T>(work: (t: Queryable) => Promise<T>) => {
    clock.advance(1);
    return database.db.transaction(work);
  };
  const counts = () => rowCounts(database.db, STAFF_TABLES);

  /** An account made by ops:invite and signed in: its principal and session token. */
  async function signedIn(role: "reviewer" | "admin") {
    const email = address(role);
    const account = await tx((t) => ensureStaffAccount(t, services, { email, role }, "test"));
    const link = await tx((t) => issueSignInLink(t, services, account));
    const session = await tx((t) => signInWithLink(t, services, link.token, IP));
    const principal = (await authenticateStaff(database.db, services, session.sessionToken))!;
    return { principal, sessionToken: session.sessionToken, account };
  }

  const auditOf = (subject: string) =>
    database.db.all<{ action: string; staff_id: string; staff_email: string; detail: string; ip: string }>(
      "SELECT action, staff_id, staff_email, detail, ip FROM staff_audit_log WHERE subject = ? ORDER BY id",
      [subject],
    );

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database?.drop());

  it("an admin invites a colleague: the address trimmed and lower-cased, status invited, audited", async () => {
    const { principal: admin } = await signedIn("admin");
    const email = address("new");
    const member = await tx((t) =>
      inviteStaff(t, services, admin, { email: `  ${email.toUpperCase()} `, role: "reviewer", name: " Ann " }, IP),
    );
    assert.equal(member.email, email);
    assert.equal(member.name, "Ann");
    assert.equal(member.status, "invited");
    assert.equal(member.invitedBy, admin.id);
    const [entry] = await auditOf(member.id);
    assert.equal(entry.action, "staff.invited");
    assert.equal(entry.staff_id, admin.id);
    assert.equal(entry.staff_email, admin.email);
    assert.equal(entry.ip, IP);
    assert.deepEqual(JSON.parse(entry.detail), { role: "reviewer" });

    // The same address again (any spelling) is refused and changes nothing.
    const before = await counts();
    await refused(
      tx((t) => inviteStaff(t, services, admin, { email: email.toUpperCase(), role: "admin" }, IP)),
      "conflict",
      "staff_exists",
      "email",
    );
    assert.deepEqual(await counts(), before);
  });

  it("refuses an invitation from a reviewer, a bad address or an unknown role, writing nothing", async () => {
    const { principal: reviewer } = await signedIn("reviewer");
    const { principal: admin } = await signedIn("admin");
    const before = await counts();
    await refused(
      tx((t) => inviteStaff(t, services, reviewer, { email: address("x"), role: "reviewer" }, IP)),
      "forbidden",
      "staff_admin_required",
    );
    await refused(
      tx((t) => inviteStaff(t, services, admin, { email: "not an address", role: "reviewer" }, IP)),
      "invalid",
      "parameter_invalid",
      "email",
    );
    await refused(
      tx((t) => inviteStaff(t, services, admin, { email: address("x"), role: "owner" }, IP)),
      "invalid",
      "parameter_invalid",
      "role",
    );
    assert.deepEqual(await counts(), before);
  });

  it("a sign-in link is 32 random bytes stored only as its SHA-256, good once for 15 minutes", async () => {
    const account = await tx((t) =>
      ensureStaffAccount(t, services, { email: address("link"), role: "reviewer" }, "test"),
    );
    const link = await tx((t) => requestSignInLink(t, services, { email: ` ${account.email.toUpperCase()}` }, IP));
    assert.ok(link);
    assert.equal(Buffer.from(link.token, "base64url").length, 32);
    assert.equal(link.expiresAt, clock.now + SIGN_IN_LINK_TTL_MS);
    const rows = await database.db.all<{ token_hash: string }>(
      "SELECT token_hash FROM staff_sign_in_tokens WHERE staff_id = ?",
      [account.id],
    );
    assert.deepEqual(
      rows.map((row) => row.token_hash),
      [sha256Hex(link.token)],
      "only the hash is stored",
    );
    assert.equal((await auditOf(account.id)).at(-1)?.action, "staff.sign_in_link_sent");

    // Showing the page spends nothing; the first POST signs in; the second fails.
    assert.equal(await signInLinkUsable(database.db, services, link.token), true);
    assert.equal(await signInLinkUsable(database.db, services, link.token), true);
    const session = await tx((t) => signInWithLink(t, services, link.token, IP));
    assert.equal(session.staff.status, "active", "the first sign-in activates an invited account");
    assert.equal(session.expiresAt, clock.now + STAFF_SESSION_TTL_MS);
    const sessions = await database.db.all<{ token_hash: string; ip: string }>(
      "SELECT token_hash, ip FROM staff_sessions WHERE staff_id = ?",
      [account.id],
    );
    assert.deepEqual(sessions, [{ token_hash: sha256Hex(session.sessionToken), ip: IP }]);
    assert.equal(await signInLinkUsable(database.db, services, link.token), false);
    const before = await counts();
    await refused(
      tx((t) => signInWithLink(t, services, link.token, IP)),
      "not_found",
      "sign_in_link_invalid",
    );
    assert.deepEqual(await counts(), before, "a spent link opens no session");
    assert.deepEqual(
      (await auditOf(account.id)).map((entry) => entry.action),
      ["staff.invited", "staff.sign_in_link_sent", "staff.signed_in"],
    );

    // After 15 minutes a link no longer works.
    const late = await tx((t) => issueSignInLink(t, services, account));
    clock.advance(SIGN_IN_LINK_TTL_MS);
    await refused(
      tx((t) => signInWithLink(t, services, late.token, IP)),
      "not_found",
      "sign_in_link_invalid",
    );
    // Tokens that are not ours are refused before any lookup.
    await refused(
      tx((t) => signInWithLink(t, services, "short", IP)),
      "not_found",
      "sign_in_link_invalid",
    );
  });

  it("of two concurrent uses of one link exactly one signs in", async () => {
    const account = await tx((t) =>
      ensureStaffAccount(t, services, { email: address("race"), role: "reviewer" }, "test"),
    );
    const link = await tx((t) => issueSignInLink(t, services, account));
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => tx((t) => signInWithLink(t, services, link.token, IP))),
    );
    assert.equal(results.filter((result) => result.status === "fulfilled").length, 1);
    const sessions = await database.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM staff_sessions WHERE staff_id = ?",
      [account.id],
    );
    assert.equal(Number(sessions!.n), 1);
  });

  it("an unknown or disabled address gets no link and nothing is written", async () => {
    const { principal: admin } = await signedIn("admin");
    const { account } = await signedIn("reviewer");
    await tx((t) => disableStaff(t, services, admin, account.id, IP));
    const before = await counts();
    assert.equal(await tx((t) => requestSignInLink(t, services, { email: address("nobody") }, IP)), undefined);
    assert.equal(await tx((t) => requestSignInLink(t, services, { email: account.email }, IP)), undefined);
    assert.deepEqual(await counts(), before);
    await refused(
      tx((t) => requestSignInLink(t, services, { email: "nope" }, IP)),
      "invalid",
      "parameter_invalid",
    );
  });

  it("a session lasts 12 hours; signing out revokes its row at once", async () => {
    const { principal, sessionToken } = await signedIn("reviewer");
    assert.equal(principal.sessionTokenHash, sha256Hex(sessionToken));
    clock.advance(STAFF_SESSION_TTL_MS - 1);
    assert.ok(await authenticateStaff(database.db, services, sessionToken));
    clock.advance(1);
    assert.equal(await authenticateStaff(database.db, services, sessionToken), undefined, "expired after 12 h");

    const other = await signedIn("reviewer");
    await tx((t) => signOutStaff(t, services, other.principal, IP));
    assert.equal(await authenticateStaff(database.db, services, other.sessionToken), undefined);
    const revoked = await database.db.get<{ revoked_at: number | null }>(
      "SELECT revoked_at FROM staff_sessions WHERE token_hash = ?",
      [sha256Hex(other.sessionToken)],
    );
    assert.equal(Number(revoked!.revoked_at), clock.now);
    assert.equal((await auditOf(other.account.id)).at(-1)?.action, "staff.signed_out");
    assert.equal(await authenticateStaff(database.db, services, undefined), undefined);
    assert.equal(await authenticateStaff(database.db, services, "x".repeat(43)), undefined);
  });

  it("disabling an account ends its sessions and unused links at once; an admin cannot disable or demote themselves", async () => {
    const { principal: admin } = await signedIn("admin");
    const target = await signedIn("reviewer");
    const pending = await tx((t) => issueSignInLink(t, services, target.account));
    assert.ok(await authenticateStaff(database.db, services, target.sessionToken));
    const disabled = await tx((t) => disableStaff(t, services, admin, target.account.id, IP));
    assert.equal(disabled.status, "disabled");
    assert.equal(await authenticateStaff(database.db, services, target.sessionToken), undefined);
    await refused(
      tx((t) => signInWithLink(t, services, pending.token, IP)),
      "not_found",
      "sign_in_link_invalid",
    );
    assert.equal((await auditOf(target.account.id)).at(-1)?.action, "staff.disabled");

    const before = await counts();
    await refused(
      tx((t) => disableStaff(t, services, admin, admin.id, IP)),
      "conflict",
      "staff_self_change",
      "staffId",
    );
    await refused(
      tx((t) => changeStaffRole(t, services, admin, { staffId: admin.id, role: "reviewer" }, IP)),
      "conflict",
      "staff_self_change",
    );
    await refused(
      tx((t) => disableStaff(t, services, target.principal, admin.id, IP)),
      "forbidden",
      "staff_admin_required",
    );
    assert.deepEqual(await counts(), before);
  });

  it("a session opens nothing once its account is disabled, even before its row is revoked (each request reads the account)", async () => {
    const target = await signedIn("reviewer");
    // Disable without revoking (as a concurrent request would see it): the account status alone stops the session.
    await database.db.run("UPDATE staff_accounts SET status = 'disabled' WHERE id = ?", [target.account.id]);
    assert.equal(await authenticateStaff(database.db, services, target.sessionToken), undefined);
    assert.ok(await authenticateStaff(database.db, services, (await signedIn("reviewer")).sessionToken));
  });

  it("changes a role with its audit entry (from, to); an unchanged role writes nothing", async () => {
    const { principal: admin } = await signedIn("admin");
    const { account } = await signedIn("reviewer");
    const changed = await tx((t) => changeStaffRole(t, services, admin, { staffId: account.id, role: "admin" }, IP));
    assert.equal(changed.role, "admin");
    const entry = (await auditOf(account.id)).at(-1)!;
    assert.equal(entry.action, "staff.role_changed");
    assert.deepEqual(JSON.parse(entry.detail), { from: "reviewer", to: "admin" });
    const before = await counts();
    await tx((t) => changeStaffRole(t, services, admin, { staffId: account.id, role: "admin" }, IP));
    assert.deepEqual(await counts(), before);
    await refused(
      tx((t) => changeStaffRole(t, services, admin, { staffId: "stf_missing", role: "admin" }, IP)),
      "not_found",
      "resource_missing",
    );
  });

  it("ops:invite makes a disabled account usable again with the role given, audited as the operator", async () => {
    const { principal: admin } = await signedIn("admin");
    const { account } = await signedIn("reviewer");
    await tx((t) => disableStaff(t, services, admin, account.id, IP));
    const again = await tx((t) => ensureStaffAccount(t, services, { email: account.email, role: "admin" }, "ops"));
    assert.equal(again.status, "invited");
    assert.equal(again.role, "admin");
    const entries = (await auditOf(account.id)).slice(-2);
    assert.deepEqual(entries.map((entry) => [entry.action, entry.staff_id, entry.staff_email]).sort(), [
      ["staff.reactivated", "cli", "ops"],
      ["staff.role_changed", "cli", "ops"],
    ]);
    const link = await tx((t) => issueSignInLink(t, services, again));
    assert.ok(await tx((t) => signInWithLink(t, services, link.token, IP)));
  });

  it("an admin reactivates a disabled account: it signs in again by a new link, audited; only admins, only once", async () => {
    const { principal: admin } = await signedIn("admin");
    const { principal: reviewer } = await signedIn("reviewer");
    const target = await signedIn("reviewer");
    await tx((t) => disableStaff(t, services, admin, target.account.id, IP));

    const before = await counts();
    await refused(
      tx((t) => reactivateStaff(t, services, reviewer, target.account.id, IP)),
      "forbidden",
      "staff_admin_required",
    );
    await refused(
      tx((t) => reactivateStaff(t, services, admin, "stf_missing", IP)),
      "not_found",
      "resource_missing",
    );
    assert.deepEqual(await counts(), before);
    assert.equal(await tx((t) => requestSignInLink(t, services, { email: target.account.email }, IP)), undefined);

    const reactivated = await tx((t) => reactivateStaff(t, services, admin, target.account.id, IP));
    assert.equal(reactivated.status, "invited");
    assert.equal(reactivated.role, "reviewer");
    const entry = (await auditOf(target.account.id)).at(-1)!;
    assert.deepEqual([entry.action, entry.staff_id, entry.ip], ["staff.reactivated", admin.id, IP]);
    // The sessions and links of before stay revoked; a new link signs in and activates the account.
    assert.equal(await authenticateStaff(database.db, services, target.sessionToken), undefined);
    const link = await tx((t) => requestSignInLink(t, services, { email: target.account.email }, IP));
    assert.ok(link);
    const session = await tx((t) => signInWithLink(t, services, link.token, IP));
    assert.equal(session.staff.status, "active");

    // An account that is not disabled is left as it is: no second audit entry.
    const afterSignIn = await counts();
    assert.equal((await tx((t) => reactivateStaff(t, services, admin, target.account.id, IP))).status, "active");
    assert.deepEqual(await counts(), afterSignIn);
  });

  it("lists staff and the audit log to admins only, newest first, a page at a time, by subject", async () => {
    const { principal: admin } = await signedIn("admin");
    const { principal: reviewer, account } = await signedIn("reviewer");
    const staff = await listStaff(database.db, admin);
    assert.ok(staff.some((member) => member.id === account.id));
    await refused(listStaff(database.db, reviewer), "forbidden", "staff_admin_required");
    await refused(listAuditLog(database.db, reviewer, {}), "forbidden", "staff_admin_required");
    const log = await listAuditLog(database.db, admin, { subject: account.id });
    assert.deepEqual(
      log.entries.map((entry) => entry.action),
      ["staff.signed_in", "staff.invited"],
    );
    assert.equal(log.nextBefore, null);
    const everything = await listAuditLog(database.db, admin, {});
    const ids = everything.entries.map((entry) => entry.id);
    assert.deepEqual(ids, [...ids].sort().reverse(), "newest first");
  });

  it("the database refuses to change or delete an audit entry", async () => {
    const { account } = await signedIn("reviewer");
    const before = await auditOf(account.id);
    await assert.rejects(
      database.db.run("UPDATE staff_audit_log SET action = 'claim.approved' WHERE subject = ?", [account.id]),
      /append-only/,
    );
    await assert.rejects(database.db.run("DELETE FROM staff_audit_log WHERE subject = ?", [account.id]), /append-only/);
    await assert.rejects(
      database.db.transaction((t) => t.run("DELETE FROM staff_audit_log")),
      /append-only/,
    );
    assert.deepEqual(await auditOf(account.id), before);
  });

  it("the purge drops links and sessions a day after they stopped working, never the audit log", async () => {
    const { account } = await signedIn("reviewer");
    const audit = (await counts()).staff_audit_log;
    clock.advance(STAFF_SESSION_TTL_MS + 24 * 60 * 60 * 1000 + 1);
    const purged = await tx((t) => purgeStaleStaffCredentials(t, clock.now));
    assert.ok(purged >= 2);
    const left = await database.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM staff_sessions WHERE staff_id = ?", [
      account.id,
    ]);
    assert.equal(Number(left!.n), 0);
    assert.equal((await counts()).staff_audit_log, audit);
  });
});
