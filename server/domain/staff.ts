// The claims team (/ops): staff accounts invited by an admin and signed in by e-mail link, their sessions, and the
// append-only audit log of everything they do. Roles: `reviewer` works the claims queue; `admin` also manages staff
// and reads the audit log. A sign-in link is 32 random bytes, good once for 15 minutes; a session is another 32
// random bytes, good for 12 hours until signed out. Only the SHA-256 of either is stored. A disabled account's
// sessions stop working at once (every request checks the account) and are revoked as well.
import { z } from "zod";
import { iso, type Services, type Tx } from "./context.ts";
import { DomainError, notFound } from "./errors.ts";
import { newId, sha256Hex } from "./ids.ts";
import {
  emailAddressSchema,
  newToken,
  parseInput,
  SESSION_TTL_MS,
  SIGN_IN_LINK_TTL_MS,
  openSession,
  TOKEN_PATTERN,
} from "./sign-in-links.ts";
import {
  consumeSignInToken,
  deleteStaleStaffCredentials,
  findLiveStaffSession,
  findStaffByEmail,
  findStaffById,
  insertAuditEntry,
  insertSignInToken,
  insertStaff,
  insertStaffSession,
  listAuditEntries,
  listStaffRecords,
  markStaffSignedIn,
  revokeStaffCredentials,
  revokeStaffSession,
  signInTokenUsable,
  updateStaffRole,
  updateStaffStatus,
  type AuditRecord,
  type StaffRecord,
  type StaffRole,
  type StaffStatus,
} from "../store/staff.ts";

export type { StaffRole, StaffStatus };

export const STAFF_ROLES = ["reviewer", "admin"] as const satisfies readonly StaffRole[];
export { parseInput, SESSION_TTL_MS as STAFF_SESSION_TTL_MS, SIGN_IN_LINK_TTL_MS };

/** Who did an audited thing: a signed-in staff member, or the operator of `npm run ops:invite`. */
export interface AuditActor {
  id: string;
  email: string;
}

/** A signed-in staff member, as every console request sees them. */
export interface StaffPrincipal extends AuditActor {
  name: string;
  role: StaffRole;
  sessionExpiresAt: number;
  /** The SHA-256 of the session token (what sign-out revokes). */
  sessionTokenHash: string;
}

/** A staff account as the console shows it. */
export interface StaffMember {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  status: StaffStatus;
  invitedBy: string | null;
  lastSignInAt: string | null;
  createdAt: string;
}

export const AUDIT_ACTIONS = [
  "staff.sign_in_link_sent",
  "staff.signed_in",
  "staff.signed_out",
  "staff.invited",
  "staff.role_changed",
  "staff.disabled",
  "staff.reactivated",
  "claim.review_started",
  "claim.approved",
  "claim.denied",
  "claim.information_requested",
  "claim.payment_recorded",
  "claim.assigned",
  "claim.unassigned",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * An audit entry's particulars: ids, codes, amounts and statuses only. The log can never be changed or erased, so it
 * holds no buyer's words, no note a buyer reads (it may name them) and no secret; those live where they can be.
 */
export type AuditDetail = Record<string, string | number | boolean | null>;
const MAX_AUDIT_DETAIL_CHARS = 1_000;

export interface AuditEntry {
  id: string;
  at: string;
  staffId: string;
  staffEmail: string;
  action: string;
  subject: string;
  detail: AuditDetail;
  ip: string;
}

const toStaffMember = (record: StaffRecord): StaffMember => ({
  id: record.id,
  email: record.email,
  name: record.name,
  role: record.role,
  status: record.status,
  invitedBy: record.invitedBy,
  lastSignInAt: record.lastSignInAt === null ? null : iso(record.lastSignInAt),
  createdAt: iso(record.createdAt),
});

const roleSchema = z.enum(STAFF_ROLES, "Choose reviewer or admin.");

const inviteSchema = z.strictObject({
  email: emailAddressSchema,
  role: roleSchema,
  name: z.string().trim().max(100, "At most 100 characters.").default(""),
});

const roleChangeSchema = z.strictObject({ staffId: z.string().min(1).max(64), role: roleSchema });

/** Appends one entry to the audit log, in the caller's transaction (with what it records). */
export async function appendAudit(
  tx: Tx,
  services: Services,
  by: AuditActor,
  entry: { action: AuditAction; subject: string; detail?: AuditDetail; ip: string },
): Promise<void> {
  const detail = JSON.stringify(entry.detail ?? {});
  if (detail.length > MAX_AUDIT_DETAIL_CHARS) throw new Error(`audit detail of ${entry.action} is too long`);
  const now = services.clock();
  await insertAuditEntry(tx, {
    id: newId("aud", now, services.random),
    staffId: by.id,
    staffEmail: by.email,
    action: entry.action,
    subject: entry.subject,
    detail,
    ip: entry.ip,
    createdAt: now,
  } satisfies AuditRecord);
}

const adminRequired = () =>
  new DomainError("forbidden", "staff_admin_required", "Only an admin can manage staff and read the audit log.");

function requireAdmin(staff: StaffPrincipal): void {
  if (staff.role !== "admin") throw adminRequired();
}

/** An admin invites a colleague: a new account (status invited) that signs in by e-mail link. */
export async function inviteStaff(
  tx: Tx,
  services: Services,
  by: StaffPrincipal,
  input: unknown,
  ip: string,
): Promise<StaffMember> {
  requireAdmin(by);
  const { email, role, name } = parseInput(inviteSchema, input);
  const now = services.clock();
  const id = newId("stf", now, services.random);
  if (!(await insertStaff(tx, { id, email, name, role, status: "invited", invitedBy: by.id, createdAt: now })))
    throw new DomainError("conflict", "staff_exists", `${email} already has a staff account.`, "email");
  await appendAudit(tx, services, by, { action: "staff.invited", subject: id, detail: { role }, ip });
  return toStaffMember((await findStaffById(tx, id))!);
}

/**
 * `npm run ops:invite`: the operator (who holds the database) creates an account, or gives an existing one this role
 * and makes it usable again. The audit log names the operator as `cli`.
 */
export async function ensureStaffAccount(
  tx: Tx,
  services: Services,
  input: { email: string; role: StaffRole },
  operator: string,
): Promise<StaffMember> {
  const { email, role } = parseInput(inviteSchema, { email: input.email, role: input.role });
  const by: AuditActor = { id: "cli", email: operator };
  const now = services.clock();
  const existing = await findStaffByEmail(tx, email);
  if (!existing) {
    const id = newId("stf", now, services.random);
    await insertStaff(tx, { id, email, name: "", role, status: "invited", invitedBy: "cli", createdAt: now });
    await appendAudit(tx, services, by, { action: "staff.invited", subject: id, detail: { role }, ip: "" });
    return toStaffMember((await findStaffById(tx, id))!);
  }
  if (existing.role !== role) {
    await updateStaffRole(tx, existing.id, role, now);
    await appendAudit(tx, services, by, {
      action: "staff.role_changed",
      subject: existing.id,
      detail: { from: existing.role, to: role },
      ip: "",
    });
  }
  if (existing.status === "disabled") {
    await updateStaffStatus(tx, existing.id, "invited", now);
    await appendAudit(tx, services, by, { action: "staff.reactivated", subject: existing.id, ip: "" });
  }
  return toStaffMember((await findStaffById(tx, existing.id))!);
}

/** A sign-in link for an account that may sign in: the token (once, for the e-mail) and when it stops working. */
export interface SignInLink {
  email: string;
  token: string;
  expiresAt: number;
}

/** A new sign-in link for the account (`ttlMs`: the demo's longer-lived link; 15 minutes otherwise). */
export async function issueSignInLink(
  tx: Tx,
  services: Services,
  staff: { id: string; email: string },
  ttlMs = SIGN_IN_LINK_TTL_MS,
): Promise<SignInLink> {
  const now = services.clock();
  const token = newToken(services);
  const expiresAt = now + ttlMs;
  await insertSignInToken(tx, { tokenHash: sha256Hex(token), staffId: staff.id, expiresAt, createdAt: now });
  return { email: staff.email, token, expiresAt };
}

/**
 * Someone asks for a sign-in link for `email`: a link when the address has an account that may sign in (invited
 * or active), else undefined. The caller answers both the same way, so that the page never tells which addresses
 * have accounts.
 */
export async function requestSignInLink(
  tx: Tx,
  services: Services,
  input: { email: unknown },
  ip: string,
): Promise<SignInLink | undefined> {
  const { email } = parseInput(z.object({ email: emailAddressSchema }), input);
  const staff = await findStaffByEmail(tx, email);
  if (!staff || staff.status === "disabled") return undefined;
  const link = await issueSignInLink(tx, services, staff);
  await appendAudit(tx, services, staff, { action: "staff.sign_in_link_sent", subject: staff.id, ip });
  return link;
}

/** One answer for every link that does not sign in: unknown, expired, used, or its account disabled. */
const linkInvalid = () =>
  new DomainError("not_found", "sign_in_link_invalid", "This sign-in link has expired or has already been used.");

/** Whether a sign-in link would still sign in (showing the link's page spends nothing). */
export async function signInLinkUsable(db: Tx, services: Services, token: string): Promise<boolean> {
  return TOKEN_PATTERN.test(token) && signInTokenUsable(db, sha256Hex(token), services.clock());
}

/**
 * Spends a sign-in link and opens a session: the session token (once, for the cookie) and its expiry. The link is
 * spent by one conditional update, so a second use — even a concurrent one — fails.
 */
export async function signInWithLink(
  tx: Tx,
  services: Services,
  token: string,
  ip: string,
): Promise<{ sessionToken: string; expiresAt: number; staff: StaffMember }> {
  if (!TOKEN_PATTERN.test(token)) throw linkInvalid();
  const now = services.clock();
  const staffId = await consumeSignInToken(tx, sha256Hex(token), now);
  const staff = staffId === undefined ? undefined : await findStaffById(tx, staffId);
  if (!staff || staff.status === "disabled") throw linkInvalid();
  const sessionToken = newToken(services);
  const expiresAt = now + SESSION_TTL_MS;
  await insertStaffSession(tx, {
    tokenHash: sha256Hex(sessionToken),
    staffId: staff.id,
    ip,
    expiresAt,
    createdAt: now,
  });
  await markStaffSignedIn(tx, staff.id, now);
  await appendAudit(tx, services, staff, { action: "staff.signed_in", subject: staff.id, ip });
  return { sessionToken, expiresAt, staff: toStaffMember((await findStaffById(tx, staff.id))!) };
}

/** The staff member of a session token: unexpired, not signed out, and the account active. Else undefined. */
export async function authenticateStaff(
  db: Tx,
  services: Services,
  sessionToken: string | undefined,
): Promise<StaffPrincipal | undefined> {
  const opened = await openSession(sessionToken, (hash) => findLiveStaffSession(db, hash, services.clock()));
  if (!opened) return undefined;
  const { session, sessionTokenHash } = opened;
  return {
    id: session.id,
    email: session.email,
    name: session.name,
    role: session.role,
    sessionExpiresAt: session.sessionExpiresAt,
    sessionTokenHash,
  };
}

/** Ends the session (its row is revoked: the cookie no longer opens anything even if kept). */
export async function signOutStaff(tx: Tx, services: Services, staff: StaffPrincipal, ip: string): Promise<void> {
  if (await revokeStaffSession(tx, staff.sessionTokenHash, services.clock()))
    await appendAudit(tx, services, staff, { action: "staff.signed_out", subject: staff.id, ip });
}

/** Every account (admins only). */
export async function listStaff(db: Tx, by: StaffPrincipal): Promise<StaffMember[]> {
  requireAdmin(by);
  return (await listStaffRecords(db)).map(toStaffMember);
}

/** Another account than the admin's own: an admin never demotes or disables themselves (one admin always remains). */
async function otherAccount(tx: Tx, by: StaffPrincipal, staffId: string): Promise<StaffRecord> {
  requireAdmin(by);
  const staff = await findStaffById(tx, staffId);
  if (!staff) throw notFound("staff account", staffId, "staffId");
  if (staff.id === by.id)
    throw new DomainError(
      "conflict",
      "staff_self_change",
      "You cannot change your own role or disable your own account; ask another admin.",
      "staffId",
    );
  return staff;
}

export async function changeStaffRole(
  tx: Tx,
  services: Services,
  by: StaffPrincipal,
  input: unknown,
  ip: string,
): Promise<StaffMember> {
  requireAdmin(by);
  const { staffId, role } = parseInput(roleChangeSchema, input);
  const staff = await otherAccount(tx, by, staffId);
  if (staff.role !== role) {
    await updateStaffRole(tx, staff.id, role, services.clock());
    await appendAudit(tx, services, by, {
      action: "staff.role_changed",
      subject: staff.id,
      detail: { from: staff.role, to: role },
      ip,
    });
  }
  return toStaffMember((await findStaffById(tx, staff.id))!);
}

/** Disables an account: it can no longer sign in, and its sessions and unused links stop working now. */
export async function disableStaff(
  tx: Tx,
  services: Services,
  by: StaffPrincipal,
  staffId: string,
  ip: string,
): Promise<StaffMember> {
  const staff = await otherAccount(tx, by, staffId);
  if (staff.status !== "disabled") {
    const now = services.clock();
    await updateStaffStatus(tx, staff.id, "disabled", now);
    await revokeStaffCredentials(tx, staff.id, now);
    await appendAudit(tx, services, by, { action: "staff.disabled", subject: staff.id, ip });
  }
  return toStaffMember((await findStaffById(tx, staff.id))!);
}

/**
 * Reactivates a disabled account: it may ask for a sign-in link again and becomes active at its next sign-in (its old
 * sessions and links stay revoked).
 */
export async function reactivateStaff(
  tx: Tx,
  services: Services,
  by: StaffPrincipal,
  staffId: string,
  ip: string,
): Promise<StaffMember> {
  const staff = await otherAccount(tx, by, staffId);
  if (staff.status === "disabled") {
    await updateStaffStatus(tx, staff.id, "invited", services.clock());
    await appendAudit(tx, services, by, { action: "staff.reactivated", subject: staff.id, ip });
  }
  return toStaffMember((await findStaffById(tx, staff.id))!);
}

export const AUDIT_PAGE_SIZE = 100;

const auditFilterSchema = z.strictObject({
  subject: z.string().trim().max(64).optional(),
  staffId: z.string().trim().max(64).optional(),
  before: z.string().trim().max(64).optional(),
});

/** The audit log, newest first, a page at a time (admins only); `nextBefore` continues it. */
export async function listAuditLog(
  db: Tx,
  by: StaffPrincipal,
  filters: unknown,
): Promise<{ entries: AuditEntry[]; nextBefore: string | null }> {
  requireAdmin(by);
  const parsed = parseInput(auditFilterSchema, filters);
  const records = await listAuditEntries(
    db,
    {
      subject: parsed.subject || undefined,
      staffId: parsed.staffId || undefined,
      before: parsed.before || undefined,
    },
    AUDIT_PAGE_SIZE + 1,
  );
  const page = records.slice(0, AUDIT_PAGE_SIZE);
  return {
    entries: page.map((record) => ({
      id: record.id,
      at: iso(record.createdAt),
      staffId: record.staffId,
      staffEmail: record.staffEmail,
      action: record.action,
      subject: record.subject,
      detail: JSON.parse(record.detail) as AuditDetail,
      ip: record.ip,
    })),
    nextBefore: records.length > AUDIT_PAGE_SIZE ? page[page.length - 1].id : null,
  };
}

/** Sign-in links and sessions that stopped working over a day ago go (the periodic purge); the audit log stays. */
export const purgeStaleStaffCredentials = (tx: Tx, now: number) =>
  deleteStaleStaffCredentials(tx, now - 24 * 60 * 60 * 1000);
