// The claims team's accounts (staff_accounts) as the console reads them. Their sign-in links, sessions and audit log
// are the accounts' (accounts.ts, both realms).
import { accountColumns, accountFields, type AccountRow, type AccountStatus } from "./accounts.ts";
import type { Queryable } from "./database.ts";

export type StaffRole = "reviewer" | "admin";
export type StaffStatus = AccountStatus;

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

type StaffRow = AccountRow<StaffRole> & { updated_at: number };

const STAFF_COLUMNS = `${accountColumns()}, updated_at`;

const toStaffRecord = (row: StaffRow): StaffRecord => ({ ...accountFields(row), updatedAt: Number(row.updated_at) });

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
