// The claims team (/ops): staff accounts invited by an admin and signed in by e-mail link, their sessions, and the
// append-only audit log of everything they do — the accounts' mechanism (accounts.ts) in the staff realm. Roles:
// `reviewer` works the claims queue; `admin` also manages staff and reads the audit log.
import { z } from "zod";
import { iso, type Services, type Tx } from "./context.ts";
import { DomainError } from "./errors.ts";
import {
  appendAudit as appendRealmAudit,
  changeRole,
  emailAddressSchema,
  inviteAccount,
  issueLink,
  issueLinkIfAllowed,
  linkUsable,
  openSession,
  parseInput,
  purgeStaleCredentials,
  setAccountEnabled,
  readAuditPage,
  redeemLink,
  requestedAddress,
  SESSION_TTL_MS,
  signOut,
  SIGN_IN_LINK_TTL_MS,
  type AuditDetail,
  type IssuedLink,
  type RealmRules,
} from "./accounts.ts";
import {
  findStaffByEmail,
  findStaffById,
  listStaffRecords,
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

export type { AuditDetail };

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

/** An action name, checked against the staff log's list. */
const audited = (action: AuditAction) => action;

const adminRequired = () =>
  new DomainError("forbidden", "staff_admin_required", "Only an admin can manage staff and read the audit log.");

/**
 * The staff realm: one claims team whose admins manage it; signing out ends this browser's session; every sign-in
 * link asked for is audited (the log is the console's record of who could get in), and so is a reactivation.
 */
export const STAFF_REALM: RealmRules<StaffRole> = {
  realm: "staff",
  idPrefix: "stf",
  managerRole: "admin",
  managerRequired: adminRequired,
  selfChange: () =>
    new DomainError(
      "conflict",
      "staff_self_change",
      "You cannot change your own role or disable your own account; ask another admin.",
      "staffId",
    ),
  accountExists: (email) =>
    new DomainError("conflict", "staff_exists", `${email} already has a staff account.`, "email"),
  notFoundName: "staff account",
  idField: "staffId",
  signOutEnds: "this_session",
  ownSource: (account, ip) => ({ actor: { id: account.id, email: account.email }, ip }),
  audit: {
    signedIn: audited("staff.signed_in"),
    signedOut: audited("staff.signed_out"),
    linkSent: audited("staff.sign_in_link_sent"),
    invited: audited("staff.invited"),
    roleChanged: audited("staff.role_changed"),
    disabled: audited("staff.disabled"),
    reactivated: audited("staff.reactivated"),
  },
};

/** Appends one entry to the audit log, in the caller's transaction (with what it records). */
export const appendAudit = (
  tx: Tx,
  services: Services,
  by: AuditActor,
  entry: { action: AuditAction; subject: string; detail?: AuditDetail; ip: string },
): Promise<void> => appendRealmAudit(tx, services, "staff", { actor: by, ip: entry.ip }, entry);

function requireAdmin(staff: StaffPrincipal): void {
  if (staff.role !== "admin") throw adminRequired();
}

const staffMember = async (tx: Tx, id: string) => toStaffMember((await findStaffById(tx, id))!);

/** An admin invites a colleague: a new account (status invited) that signs in by e-mail link. */
export async function inviteStaff(
  tx: Tx,
  services: Services,
  by: StaffPrincipal,
  input: unknown,
  ip: string,
): Promise<StaffMember> {
  requireAdmin(by);
  const invitee = parseInput(inviteSchema, input);
  return staffMember(tx, await inviteAccount(tx, services, STAFF_REALM, by, { actor: by, ip }, invitee));
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
  // The operator manages the team as an admin with no account of their own.
  const by = { id: "cli", email: operator, role: STAFF_REALM.managerRole };
  const source = { actor: by, ip: "" };
  const existing = await findStaffByEmail(tx, email);
  if (!existing)
    return staffMember(tx, await inviteAccount(tx, services, STAFF_REALM, by, source, { email, role, name: "" }));
  await changeRole(tx, services, STAFF_REALM, by, source, { id: existing.id, role });
  await setAccountEnabled(tx, services, STAFF_REALM, by, source, existing.id, true);
  return staffMember(tx, existing.id);
}

/** A sign-in link for an account that may sign in: the token (once, for the e-mail) and when it stops working. */
export type SignInLink = IssuedLink;

/** A new sign-in link for the account (`ttlMs`: the demo's longer-lived link; 15 minutes otherwise). */
export const issueSignInLink = (
  tx: Tx,
  services: Services,
  staff: { id: string; email: string },
  ttlMs = SIGN_IN_LINK_TTL_MS,
): Promise<SignInLink> => issueLink(tx, services, "staff", staff, ttlMs);

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
  const staff = await findStaffByEmail(tx, requestedAddress(input));
  return issueLinkIfAllowed(tx, services, STAFF_REALM, staff && { ...staff, merchantId: null }, ip);
}

/** Whether a sign-in link would still sign in (showing the link's page spends nothing). */
export const signInLinkUsable = (db: Tx, services: Services, token: string) => linkUsable(db, services, "staff", token);

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
  const { sessionToken, expiresAt, account } = await redeemLink(tx, services, STAFF_REALM, token, ip);
  return { sessionToken, expiresAt, staff: await staffMember(tx, account.id) };
}

/** The staff member of a session token: unexpired, not signed out, and the account active. Else undefined. */
export async function authenticateStaff(
  db: Tx,
  services: Services,
  sessionToken: string | undefined,
): Promise<StaffPrincipal | undefined> {
  const opened = await openSession(db, services, "staff", sessionToken);
  if (!opened) return undefined;
  const { session, sessionTokenHash } = opened;
  return {
    id: session.id,
    email: session.email,
    name: session.name,
    role: session.role as StaffRole,
    sessionExpiresAt: session.sessionExpiresAt,
    sessionTokenHash,
  };
}

/** Ends the session (its row is revoked: the cookie no longer opens anything even if kept). */
export const signOutStaff = (tx: Tx, services: Services, staff: StaffPrincipal, ip: string): Promise<void> =>
  signOut(tx, services, STAFF_REALM, staff, { actor: staff, ip });

/** Every account (admins only). */
export async function listStaff(db: Tx, by: StaffPrincipal): Promise<StaffMember[]> {
  requireAdmin(by);
  return (await listStaffRecords(db)).map(toStaffMember);
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
  await changeRole(tx, services, STAFF_REALM, by, { actor: by, ip }, { id: staffId, role });
  return staffMember(tx, staffId);
}

const setStaffEnabled =
  (enabled: boolean) =>
  async (tx: Tx, services: Services, by: StaffPrincipal, staffId: string, ip: string): Promise<StaffMember> => {
    await setAccountEnabled(tx, services, STAFF_REALM, by, { actor: by, ip }, staffId, enabled);
    return staffMember(tx, staffId);
  };

/** Disables an account: it can no longer sign in, and its sessions and unused links stop working now. */
export const disableStaff = setStaffEnabled(false);

/**
 * Reactivates a disabled account: it may ask for a sign-in link again and becomes active at its next sign-in (its old
 * sessions and links stay revoked).
 */
export const reactivateStaff = setStaffEnabled(true);

export { AUDIT_PAGE_SIZE } from "./accounts.ts";

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
  const page = await readAuditPage(db, "staff", {
    subject: parsed.subject || undefined,
    actorId: parsed.staffId || undefined,
    before: parsed.before || undefined,
  });
  return {
    entries: page.entries.map(({ actorId, actorEmail, id, at, action, subject, detail, ip }) => ({
      id,
      at,
      staffId: actorId,
      staffEmail: actorEmail,
      action,
      subject,
      detail,
      ip,
    })),
    nextBefore: page.nextBefore,
  };
}

/** Sign-in links and sessions that stopped working over a day ago go (the periodic purge); the audit log stays. */
export const purgeStaleStaffCredentials = (tx: Tx, now: number) => purgeStaleCredentials(tx, "staff", now);
