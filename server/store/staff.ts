// The claims team's accounts (staff_accounts) as the console reads them. Their sign-in links, sessions and audit log
// are the accounts' (accounts.ts, both realms).
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
