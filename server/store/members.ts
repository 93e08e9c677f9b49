// The standalone dashboard's team (merchant_members) as its pages read it, and sign-ups waiting for their address to
// be confirmed (member_sign_ups, kept only as the SHA-256 of the link's token). A person may be in several teams.
// Their sign-in links, sessions and audit entries are the accounts' (accounts.ts, both realms).
import { accountColumns, accountFields, insertAccount, type AccountRow, type AccountStatus } from "./accounts.ts";
import type { Queryable } from "./database.ts";

export type MemberRole = "owner" | "developer" | "support";
export type MemberStatus = AccountStatus;

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

type MemberRow = AccountRow<MemberRole> & { merchant_id: string };

const MEMBER_COLUMNS = `${accountColumns("m.")}, m.merchant_id`;

const toMemberRecord = (row: MemberRow): MemberRecord => ({ ...accountFields(row), merchantId: row.merchant_id });

/** Stores a new member; false when the address is already in this team (nothing is written then). */
export const insertMember = (tx: Queryable, member: Omit<MemberRecord, "lastSignInAt">): Promise<boolean> =>
  insertAccount(tx, "merchant", member);

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

/** Deletes sign-ups whose link stopped working before `before`; resolves to how many went. */
export const deleteStaleMemberSignUps = (tx: Queryable, before: number): Promise<number> =>
  tx.run("DELETE FROM member_sign_ups WHERE expires_at < ?", [before]);
