// The claims team's accounts (staff_accounts), their single-use sign-in links (staff_sign_in_tokens) and sessions
// (staff_sessions) — both kept only as the SHA-256 of their token — and the append-only audit log (staff_audit_log:
// database triggers refuse UPDATE and DELETE on it).
import type { Queryable } from "./database.ts";

export type StaffRole = "reviewer" | "admin";
export type StaffStatus = "invited" | "active" | "disabled";

export interface StaffRecord {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  status: StaffStatus;
  invitedBy: string | null;
  lastSignInAt: number | null;
  createdAt: number;
  updatedAt: number;
}

interface StaffRow {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  status: StaffStatus;
  invited_by: string | null;
  last_sign_in_at: number | null;
  created_at: number;
  updated_at: number;
}

const STAFF_COLUMNS = "id, email, name, role, status, invited_by, last_sign_in_at, created_at, updated_at";

const toStaffRecord = (row: StaffRow): StaffRecord => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.status,
  invitedBy: row.invited_by,
  lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** Stores a new account; false when the address already has one (nothing is written then). */
export async function insertStaff(tx: Queryable, staff: Omit<StaffRecord, "lastSignInAt" | "updatedAt">) {
  const inserted = await tx.all(
    `INSERT INTO staff_accounts (id, email, name, role, status, invited_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id`,
    [staff.id, staff.email, staff.name, staff.role, staff.status, staff.invitedBy, staff.createdAt, staff.createdAt],
  );
  return inserted.length === 1;
}

export async function findStaffById(tx: Queryable, id: string): Promise<StaffRecord | undefined> {
  const row = await tx.get<StaffRow>(`SELECT ${STAFF_COLUMNS} FROM staff_accounts WHERE id = ?`, [id]);
  return row && toStaffRecord(row);
}

/** The account of a normalised address. */
export async function findStaffByEmail(tx: Queryable, email: string): Promise<StaffRecord | undefined> {
  const row = await tx.get<StaffRow>(`SELECT ${STAFF_COLUMNS} FROM staff_accounts WHERE email = ?`, [email]);
  return row && toStaffRecord(row);
}

/** Every account, by address. */
export async function listStaffRecords(tx: Queryable): Promise<StaffRecord[]> {
  const rows = await tx.all<StaffRow>(`SELECT ${STAFF_COLUMNS} FROM staff_accounts ORDER BY email`);
  return rows.map(toStaffRecord);
}

export async function updateStaffRole(tx: Queryable, id: string, role: StaffRole, at: number): Promise<void> {
  await tx.run("UPDATE staff_accounts SET role = ?, updated_at = ? WHERE id = ?", [role, at, id]);
}

export async function updateStaffStatus(tx: Queryable, id: string, status: StaffStatus, at: number): Promise<void> {
  await tx.run("UPDATE staff_accounts SET status = ?, updated_at = ? WHERE id = ?", [status, at, id]);
}

/** A first sign-in activates an invited account; every sign-in is recorded. */
export async function markStaffSignedIn(tx: Queryable, id: string, at: number): Promise<void> {
  await tx.run(
    "UPDATE staff_accounts SET status = CASE WHEN status = 'invited' THEN 'active' ELSE status END, last_sign_in_at = ?, updated_at = ? WHERE id = ?",
    [at, at, id],
  );
}

export async function insertSignInToken(
  tx: Queryable,
  token: { tokenHash: string; staffId: string; expiresAt: number; createdAt: number },
): Promise<void> {
  await tx.run("INSERT INTO staff_sign_in_tokens (token_hash, staff_id, expires_at, created_at) VALUES (?, ?, ?, ?)", [
    token.tokenHash,
    token.staffId,
    token.expiresAt,
    token.createdAt,
  ]);
}

/** Whether a sign-in link is still unused and unexpired at `now` (reads only: showing the page spends nothing). */
export async function signInTokenUsable(tx: Queryable, tokenHash: string, now: number): Promise<boolean> {
  const row = await tx.get(
    "SELECT token_hash FROM staff_sign_in_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?",
    [tokenHash, now],
  );
  return row !== undefined;
}

/**
 * Spends a sign-in link: one conditional UPDATE, so of two concurrent uses exactly one gets the staff id; undefined
 * for a link that is unknown, expired or already used.
 */
export async function consumeSignInToken(tx: Queryable, tokenHash: string, now: number): Promise<string | undefined> {
  const rows = await tx.all<{ staff_id: string }>(
    `UPDATE staff_sign_in_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
     RETURNING staff_id`,
    [now, tokenHash, now],
  );
  return rows[0]?.staff_id;
}

export async function insertStaffSession(
  tx: Queryable,
  session: { tokenHash: string; staffId: string; ip: string; expiresAt: number; createdAt: number },
): Promise<void> {
  await tx.run("INSERT INTO staff_sessions (token_hash, staff_id, ip, expires_at, created_at) VALUES (?, ?, ?, ?, ?)", [
    session.tokenHash,
    session.staffId,
    session.ip,
    session.expiresAt,
    session.createdAt,
  ]);
}

/** The account of a session that is unexpired and unrevoked at `now` and whose account is active. */
export async function findLiveStaffSession(
  tx: Queryable,
  tokenHash: string,
  now: number,
): Promise<(StaffRecord & { sessionExpiresAt: number }) | undefined> {
  const row = await tx.get<StaffRow & { session_expires_at: number }>(
    `SELECT a.id, a.email, a.name, a.role, a.status, a.invited_by, a.last_sign_in_at, a.created_at, a.updated_at,
            s.expires_at AS session_expires_at
     FROM staff_sessions s JOIN staff_accounts a ON a.id = s.staff_id
     WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND a.status = 'active'`,
    [tokenHash, now],
  );
  return row && { ...toStaffRecord(row), sessionExpiresAt: Number(row.session_expires_at) };
}

/** Revokes one session; false when it was already revoked or never existed. */
export async function revokeStaffSession(tx: Queryable, tokenHash: string, at: number): Promise<boolean> {
  return (
    (await tx.run("UPDATE staff_sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL", [
      at,
      tokenHash,
    ])) === 1
  );
}

/** Revokes every session of an account and spends its unused sign-in links. */
export async function revokeStaffCredentials(tx: Queryable, staffId: string, at: number): Promise<void> {
  await tx.run("UPDATE staff_sessions SET revoked_at = ? WHERE staff_id = ? AND revoked_at IS NULL", [at, staffId]);
  await tx.run("UPDATE staff_sign_in_tokens SET used_at = ? WHERE staff_id = ? AND used_at IS NULL", [at, staffId]);
}

/** Deletes sign-in links and sessions that stopped working before `before`; resolves to how many went. */
export async function deleteStaleStaffCredentials(tx: Queryable, before: number): Promise<number> {
  const tokens = await tx.run("DELETE FROM staff_sign_in_tokens WHERE expires_at < ?", [before]);
  const sessions = await tx.run("DELETE FROM staff_sessions WHERE expires_at < ?", [before]);
  return tokens + sessions;
}

export interface AuditRecord {
  id: string;
  staffId: string;
  staffEmail: string;
  action: string;
  subject: string;
  /** JSON text. */
  detail: string;
  ip: string;
  createdAt: number;
}

interface AuditRow {
  id: string;
  staff_id: string;
  staff_email: string;
  action: string;
  subject: string;
  detail: string;
  ip: string;
  created_at: number;
}

export async function insertAuditEntry(tx: Queryable, entry: AuditRecord): Promise<void> {
  await tx.run(
    `INSERT INTO staff_audit_log (id, staff_id, staff_email, action, subject, detail, ip, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [entry.id, entry.staffId, entry.staffEmail, entry.action, entry.subject, entry.detail, entry.ip, entry.createdAt],
  );
}

export interface AuditFilters {
  /** Only entries about this subject (a claim id, a staff id). */
  subject?: string;
  /** Only entries by this staff member. */
  staffId?: string;
  /** Entries older than this id (ids sort by time): the next page. */
  before?: string;
}

/** The newest `limit` entries matching the filters. */
export async function listAuditEntries(tx: Queryable, filters: AuditFilters, limit: number): Promise<AuditRecord[]> {
  const applied: [string, string | undefined][] = [
    ["subject = ?", filters.subject],
    ["staff_id = ?", filters.staffId],
    ["id < ?", filters.before],
  ];
  const used = applied.filter((filter): filter is [string, string] => filter[1] !== undefined);
  const where = used.length ? `WHERE ${used.map(([clause]) => clause).join(" AND ")}` : "";
  const rows = await tx.all<AuditRow>(
    `SELECT id, staff_id, staff_email, action, subject, detail, ip, created_at FROM staff_audit_log ${where}
     ORDER BY id DESC LIMIT ${limit}`,
    used.map(([, value]) => value),
  );
  return rows.map((row) => ({
    id: row.id,
    staffId: row.staff_id,
    staffEmail: row.staff_email,
    action: row.action,
    subject: row.subject,
    detail: row.detail,
    ip: row.ip,
    createdAt: Number(row.created_at),
  }));
}
