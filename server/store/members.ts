// The standalone dashboard's team (merchant_members), their single-use sign-in links (member_sign_in_tokens) and
// sessions (member_sessions), and sign-ups waiting for their address to be confirmed (member_sign_ups) — each kept
// only as the SHA-256 of its token. A person may be in several teams.
import type { Mode } from "../vocabulary/ids.ts";
import type { Queryable } from "./database.ts";

export type MemberRole = "owner" | "developer" | "support";
export type MemberStatus = "invited" | "active" | "disabled";

export interface MemberRecord {
  id: string;
  merchantId: string;
  email: string;
  name: string;
  role: MemberRole;
  status: MemberStatus;
  invitedBy: string | null;
  lastSignInAt: number | null;
  createdAt: number;
}

interface MemberRow {
  id: string;
  merchant_id: string;
  email: string;
  name: string;
  role: MemberRole;
  status: MemberStatus;
  invited_by: string | null;
  last_sign_in_at: number | null;
  created_at: number;
}

const MEMBER_COLUMNS =
  "m.id, m.merchant_id, m.email, m.name, m.role, m.status, m.invited_by, m.last_sign_in_at, m.created_at";

const toMemberRecord = (row: MemberRow): MemberRecord => ({
  id: row.id,
  merchantId: row.merchant_id,
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.status,
  invitedBy: row.invited_by,
  lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
  createdAt: Number(row.created_at),
});

/** Stores a new member; false when the address is already in this team (nothing is written then). */
export async function insertMember(tx: Queryable, member: Omit<MemberRecord, "lastSignInAt">): Promise<boolean> {
  const inserted = await tx.all(
    `INSERT INTO merchant_members (id, merchant_id, email, name, role, status, invited_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (merchant_id, email) DO NOTHING RETURNING id`,
    [
      member.id,
      member.merchantId,
      member.email,
      member.name,
      member.role,
      member.status,
      member.invitedBy,
      member.createdAt,
      member.createdAt,
    ],
  );
  return inserted.length === 1;
}

export async function findMember(tx: Queryable, merchantId: string, id: string): Promise<MemberRecord | undefined> {
  const row = await tx.get<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM merchant_members m WHERE m.merchant_id = ? AND m.id = ?`,
    [merchantId, id],
  );
  return row && toMemberRecord(row);
}

/** Every team the address belongs to (not disabled), with the business's name. */
export async function findMembershipsByEmail(
  tx: Queryable,
  email: string,
): Promise<(MemberRecord & { merchantName: string })[]> {
  const rows = await tx.all<MemberRow & { merchant_name: string }>(
    `SELECT ${MEMBER_COLUMNS}, b.name AS merchant_name FROM merchant_members m JOIN merchants b ON b.id = m.merchant_id
     WHERE m.email = ? AND m.status <> 'disabled' ORDER BY m.created_at`,
    [email],
  );
  return rows.map((row) => ({ ...toMemberRecord(row), merchantName: row.merchant_name }));
}

export async function listMembers(tx: Queryable, merchantId: string): Promise<MemberRecord[]> {
  const rows = await tx.all<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM merchant_members m WHERE m.merchant_id = ? ORDER BY m.email`,
    [merchantId],
  );
  return rows.map(toMemberRecord);
}

export async function updateMember(
  tx: Queryable,
  id: string,
  change: { role?: MemberRole; status?: MemberStatus },
  at: number,
): Promise<void> {
  await tx.run(
    "UPDATE merchant_members SET role = COALESCE(?, role), status = COALESCE(?, status), updated_at = ? WHERE id = ?",
    [change.role ?? null, change.status ?? null, at, id],
  );
}

/** A first sign-in activates an invited member; every sign-in is recorded. */
export async function markMemberSignedIn(tx: Queryable, id: string, at: number): Promise<void> {
  await tx.run(
    "UPDATE merchant_members SET status = CASE WHEN status = 'invited' THEN 'active' ELSE status END, last_sign_in_at = ?, updated_at = ? WHERE id = ?",
    [at, at, id],
  );
}

export async function insertMemberSignInToken(
  tx: Queryable,
  token: { tokenHash: string; merchantId: string; memberId: string; expiresAt: number; createdAt: number },
): Promise<void> {
  await tx.run(
    "INSERT INTO member_sign_in_tokens (token_hash, merchant_id, member_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
    [token.tokenHash, token.merchantId, token.memberId, token.expiresAt, token.createdAt],
  );
}

/** Whether a sign-in link is still unused and unexpired at `now` (reads only: showing the page spends nothing). */
export async function memberSignInTokenUsable(tx: Queryable, tokenHash: string, now: number): Promise<boolean> {
  const row = await tx.get(
    "SELECT token_hash FROM member_sign_in_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?",
    [tokenHash, now],
  );
  return row !== undefined;
}

/** Spends a sign-in link with one conditional UPDATE (of two concurrent uses exactly one wins). */
export async function consumeMemberSignInToken(
  tx: Queryable,
  tokenHash: string,
  now: number,
): Promise<{ merchantId: string; memberId: string } | undefined> {
  const rows = await tx.all<{ merchant_id: string; member_id: string }>(
    `UPDATE member_sign_in_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
     RETURNING merchant_id, member_id`,
    [now, tokenHash, now],
  );
  return rows[0] && { merchantId: rows[0].merchant_id, memberId: rows[0].member_id };
}

/** A sign-up waiting for the e-mailed link (nothing else exists until it is used). */
export interface MemberSignUpRecord {
  tokenHash: string;
  email: string;
  businessName: string;
  expiresAt: number;
  createdAt: number;
}

export async function insertMemberSignUp(tx: Queryable, signUp: MemberSignUpRecord): Promise<void> {
  await tx.run(
    "INSERT INTO member_sign_ups (token_hash, email, business_name, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
    [signUp.tokenHash, signUp.email, signUp.businessName, signUp.expiresAt, signUp.createdAt],
  );
}

/** The business name of a sign-up whose link is still unused and unexpired at `now` (reads only). */
export async function findUsableMemberSignUp(
  tx: Queryable,
  tokenHash: string,
  now: number,
): Promise<{ businessName: string } | undefined> {
  const row = await tx.get<{ business_name: string }>(
    "SELECT business_name FROM member_sign_ups WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?",
    [tokenHash, now],
  );
  return row && { businessName: row.business_name };
}

/** Spends a sign-up's link with one conditional UPDATE (of two concurrent uses exactly one wins). */
export async function consumeMemberSignUp(
  tx: Queryable,
  tokenHash: string,
  now: number,
): Promise<{ email: string; businessName: string } | undefined> {
  const rows = await tx.all<{ email: string; business_name: string }>(
    `UPDATE member_sign_ups SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
     RETURNING email, business_name`,
    [now, tokenHash, now],
  );
  return rows[0] && { email: rows[0].email, businessName: rows[0].business_name };
}

export async function insertMemberSession(
  tx: Queryable,
  session: {
    tokenHash: string;
    merchantId: string;
    memberId: string;
    ip: string;
    expiresAt: number;
    createdAt: number;
  },
): Promise<void> {
  await tx.run(
    "INSERT INTO member_sessions (token_hash, merchant_id, member_id, ip, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    [session.tokenHash, session.merchantId, session.memberId, session.ip, session.expiresAt, session.createdAt],
  );
}

export interface LiveMemberSession extends MemberRecord {
  merchantName: string;
  merchantLive: boolean;
  mode: Mode;
  sessionExpiresAt: number;
}

/** The member of a session that is unexpired and unrevoked at `now`, the member not disabled; with the merchant. */
export async function findLiveMemberSession(
  tx: Queryable,
  tokenHash: string,
  now: number,
): Promise<LiveMemberSession | undefined> {
  const row = await tx.get<
    MemberRow & { merchant_name: string; live_at: number | null; mode: Mode; session_expires_at: number }
  >(
    `SELECT ${MEMBER_COLUMNS}, b.name AS merchant_name, b.live_at, s.mode, s.expires_at AS session_expires_at
     FROM member_sessions s JOIN merchant_members m ON m.id = s.member_id JOIN merchants b ON b.id = m.merchant_id
     WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND m.status = 'active'`,
    [tokenHash, now],
  );
  return (
    row && {
      ...toMemberRecord(row),
      merchantName: row.merchant_name,
      merchantLive: row.live_at !== null,
      mode: row.mode,
      sessionExpiresAt: Number(row.session_expires_at),
    }
  );
}

export async function setMemberSessionMode(tx: Queryable, tokenHash: string, mode: Mode): Promise<void> {
  await tx.run("UPDATE member_sessions SET mode = ? WHERE token_hash = ?", [mode, tokenHash]);
}

/** Revokes every session of a member and spends their unused sign-in links; resolves to how many sessions ended. */
export async function revokeMemberCredentials(tx: Queryable, memberId: string, at: number): Promise<number> {
  const sessions = await tx.run(
    "UPDATE member_sessions SET revoked_at = ? WHERE member_id = ? AND revoked_at IS NULL",
    [at, memberId],
  );
  await tx.run("UPDATE member_sign_in_tokens SET used_at = ? WHERE member_id = ? AND used_at IS NULL", [at, memberId]);
  return sessions;
}

/** Deletes sign-in links, sign-ups and sessions that stopped working before `before`; resolves to how many went. */
export async function deleteStaleMemberCredentials(tx: Queryable, before: number): Promise<number> {
  const tokens = await tx.run("DELETE FROM member_sign_in_tokens WHERE expires_at < ?", [before]);
  const signUps = await tx.run("DELETE FROM member_sign_ups WHERE expires_at < ?", [before]);
  const sessions = await tx.run("DELETE FROM member_sessions WHERE expires_at < ?", [before]);
  return tokens + signUps + sessions;
}
