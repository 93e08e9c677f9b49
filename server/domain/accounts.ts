// One way of signing people in, for both realms: the merchant dashboard's members (members.ts, each in one merchant's
// team) and the claims team's staff (staff.ts). A sign-in link is 32 random bytes (base64url), good once for 15
// minutes; a session is another 32 random bytes, good for 12 hours until signed out; only the SHA-256 of either is
// stored. Every request looks its session up, so a disabled account's sessions stop working at once (and are
// revoked as well). Sensitive actions are audited in the transaction of the action itself: both are written or
// neither. What differs between the realms on purpose (roles, who manages the team, what signing out ends, which
// actions are audited) is the realm's rules (`RealmRules`), named in members.ts and staff.ts.
import { z } from "zod";
import { iso, type Services, type Tx } from "./context.ts";
import { DomainError, notFound } from "./errors.ts";
import { newId, sha256Hex } from "./ids.ts";
import type { Mode } from "../vocabulary/ids.ts";
import {
  consumeSignInLink,
  deleteStaleCredentials,
  findAccount,
  findLiveSession,
  insertAccount,
  insertAuditEntry,
  insertSession,
  insertSignInLink,
  listAuditEntries,
  markSignedIn,
  revokeCredentials,
  revokeSession,
  signInLinkUsable as storedLinkUsable,
  updateAccount,
  type AccountRecord,
  type AccountStatus,
  type AuditFilters,
  type LiveSessions,
  type Realm,
} from "../store/accounts.ts";
import { DAY_MS } from "../vocabulary/time.ts";

export type { AccountRecord, AccountStatus, Realm };

export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Links and sessions stay this long after they stopped working, then the periodic purge deletes them. */
export const STALE_CREDENTIALS_KEPT_MS = DAY_MS;

/** 32 random bytes in base64url: what a sign-in link and a session cookie carry. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newToken = (services: Services) => services.random(32).toString("base64url");

/** Addresses are compared trimmed and lower-cased, and stored so. */
export const emailAddressSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email("Enter an e-mail address such as name@example.com.").max(254, "At most 254 characters."));

/** Parses `input`; the first problem is a DomainError naming its field. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DomainError("invalid", "parameter_invalid", issue.message, issue.path.map(String).join(".") || undefined);
}

/** Who did an audited thing, from where; a merchant's entry also names the merchant and the mode the actor saw. */
export interface AuditSource {
  actor: { id: string; email: string };
  ip: string;
  merchantId?: string;
  mode?: Mode;
}

/**
 * An audit entry's particulars: ids, codes, amounts and statuses only. Neither log can be changed, so they hold no
 * buyer's words, no note a buyer reads (it may name them) and no secret; those live where they can be.
 */
export type AuditDetail = Record<string, string | number | boolean | null>;
const MAX_AUDIT_DETAIL_CHARS = 1_000;
const AUDIT_ID_PREFIX: Record<Realm, string> = { merchant: "maud", staff: "aud" };

/** Appends one entry to the realm's audit log, in the caller's transaction (with what it records). */
export async function appendAudit(
  tx: Tx,
  services: Services,
  realm: Realm,
  source: AuditSource,
  entry: { action: string; subject: string; detail?: AuditDetail },
): Promise<void> {
  const detail = JSON.stringify(entry.detail ?? {});
  if (detail.length > MAX_AUDIT_DETAIL_CHARS) throw new Error(`audit detail of ${entry.action} is too long`);
  const now = services.clock();
  await insertAuditEntry(tx, realm, {
    id: newId(AUDIT_ID_PREFIX[realm], now, services.random),
    actorId: source.actor.id,
    actorEmail: source.actor.email,
    merchantId: source.merchantId ?? null,
    mode: source.mode ?? null,
    action: entry.action,
    subject: entry.subject,
    detail,
    ip: source.ip,
    createdAt: now,
  });
}

export const AUDIT_PAGE_SIZE = 100;

export interface AuditPageEntry {
  id: string;
  at: string;
  actorId: string;
  actorEmail: string;
  mode: Mode | null;
  action: string;
  subject: string;
  detail: AuditDetail;
  ip: string;
}

/** A realm's audit log, newest first, a page at a time; `nextBefore` continues it. */
export async function readAuditPage(
  db: Tx,
  realm: Realm,
  filters: AuditFilters,
): Promise<{ entries: AuditPageEntry[]; nextBefore: string | null }> {
  const records = await listAuditEntries(db, realm, filters, AUDIT_PAGE_SIZE + 1);
  const page = records.slice(0, AUDIT_PAGE_SIZE);
  return {
    entries: page.map((record) => ({
      id: record.id,
      at: iso(record.createdAt),
      actorId: record.actorId,
      actorEmail: record.actorEmail,
      mode: record.mode,
      action: record.action,
      subject: record.subject,
      detail: JSON.parse(record.detail) as AuditDetail,
      ip: record.ip,
    })),
    nextBefore: records.length > AUDIT_PAGE_SIZE ? page[page.length - 1].id : null,
  };
}

/** Someone who manages a realm's accounts: an owner of a merchant's team, an admin of the claims team. */
export interface AccountManager {
  id: string;
  email: string;
  role: string;
  /** The manager's merchant (a member); staff have none. */
  merchantId?: string;
}

/** What a realm decides for itself; the mechanism is the same. */
export interface RealmRules<Role extends string> {
  realm: Realm;
  /** The prefix of a new account's id. */
  idPrefix: string;
  /** The role that invites, changes roles and disables (and, for staff, reads the audit log). */
  managerRole: Role;
  managerRequired: () => DomainError;
  /** A manager never demotes or disables themselves (another manager always remains). */
  selfChange: () => DomainError;
  accountExists: (email: string) => DomainError;
  notFoundName: string;
  idField: string;
  /** What signing out ends: this browser's session, or every session and unused link of the account. */
  signOutEnds: "this_session" | "every_session";
  /** The audit source of an account's own act (sign-in, sign-out): its merchant and mode for a member. */
  ownSource: (account: AccountRecord, ip: string) => AuditSource;
  audit: {
    signedIn: string;
    signedOut: string;
    /** Audited when a link is asked for (staff), or not at all (members, whose address may be in many teams). */
    linkSent?: string;
    invited: string;
    roleChanged: string;
    disabled: string;
    reactivated: string;
  };
  /** What else ends when an account's role changes or it is disabled (role null): a member's server keys. */
  afterAccessChange?(
    tx: Tx,
    services: Services,
    by: AuditSource,
    account: { id: string; role: Role | null },
  ): Promise<void>;
}

/** A sign-in link: the token (once, for the e-mail), its address, and when it stops working. */
export interface IssuedLink {
  email: string;
  token: string;
  expiresAt: number;
}

/** A new sign-in link for the account (`ttlMs`: the demo's longer-lived link; 15 minutes otherwise). */
export async function issueLink(
  tx: Tx,
  services: Services,
  realm: Realm,
  account: { id: string; email: string },
  ttlMs = SIGN_IN_LINK_TTL_MS,
): Promise<IssuedLink> {
  const now = services.clock();
  const token = newToken(services);
  const expiresAt = now + ttlMs;
  await insertSignInLink(tx, realm, { tokenHash: sha256Hex(token), accountId: account.id, expiresAt, createdAt: now });
  return { email: account.email, token, expiresAt };
}

/** The address of a request for a link, normalised (the answer is the same whether or not it has an account). */
export const requestedAddress = (input: { email: unknown }) =>
  parseInput(z.object({ email: emailAddressSchema }), input).email;

/** The link for an account that may sign in (invited or active), audited when the realm says so; else undefined. */
export async function issueLinkIfAllowed(
  tx: Tx,
  services: Services,
  rules: RealmRules<string>,
  account: AccountRecord | undefined,
  ip: string,
): Promise<IssuedLink | undefined> {
  if (!account || account.status === "disabled") return undefined;
  const link = await issueLink(tx, services, rules.realm, account);
  if (rules.audit.linkSent)
    await appendAudit(tx, services, rules.realm, rules.ownSource(account, ip), {
      action: rules.audit.linkSent,
      subject: account.id,
    });
  return link;
}

/** One answer for every link that does not sign in: unknown, expired, used, or its account disabled. */
const linkInvalid = () =>
  new DomainError("not_found", "sign_in_link_invalid", "This sign-in link has expired or has already been used.");

/** Whether a sign-in link would still sign in (showing the link's page spends nothing). */
export async function linkUsable(db: Tx, services: Services, realm: Realm, token: string): Promise<boolean> {
  return TOKEN_PATTERN.test(token) && storedLinkUsable(db, realm, sha256Hex(token), services.clock());
}

/**
 * Spends a sign-in link and opens a session: the session token (once, for the cookie), its expiry and the account.
 * The link is spent by one conditional update, so a second use — even a concurrent one — fails.
 */
export async function redeemLink(
  tx: Tx,
  services: Services,
  rules: RealmRules<string>,
  token: string,
  ip: string,
): Promise<{ sessionToken: string; expiresAt: number; account: AccountRecord }> {
  if (!TOKEN_PATTERN.test(token)) throw linkInvalid();
  const now = services.clock();
  const accountId = await consumeSignInLink(tx, rules.realm, sha256Hex(token), now);
  const account = accountId === undefined ? undefined : await findAccount(tx, rules.realm, accountId);
  if (!account || account.status === "disabled") throw linkInvalid();
  const sessionToken = newToken(services);
  const expiresAt = now + SESSION_TTL_MS;
  await insertSession(tx, rules.realm, {
    tokenHash: sha256Hex(sessionToken),
    accountId: account.id,
    ip,
    expiresAt,
    createdAt: now,
  });
  await markSignedIn(tx, rules.realm, account.id, now);
  await appendAudit(tx, services, rules.realm, rules.ownSource(account, ip), {
    action: rules.audit.signedIn,
    subject: account.id,
  });
  return { sessionToken, expiresAt, account };
}

/**
 * The live session a session token opens (unexpired, not signed out, the account active), with the token's SHA-256
 * (what identifies the session); a missing or malformed token opens nothing without a lookup.
 */
export async function openSession<R extends Realm>(
  db: Tx,
  services: Services,
  realm: R,
  sessionToken: string | undefined,
): Promise<{ session: LiveSessions[R]; sessionTokenHash: string } | undefined> {
  if (!sessionToken || !TOKEN_PATTERN.test(sessionToken)) return undefined;
  const sessionTokenHash = sha256Hex(sessionToken);
  const session = await findLiveSession(db, realm, sessionTokenHash, services.clock());
  return session && { session, sessionTokenHash };
}

/** Signs out as the realm says (this session, or every session and unused link), audited when something ended. */
export async function signOut(
  tx: Tx,
  services: Services,
  rules: RealmRules<string>,
  session: { sessionTokenHash: string },
  source: AuditSource,
): Promise<void> {
  const now = services.clock();
  if (rules.signOutEnds === "this_session" && !(await revokeSession(tx, rules.realm, session.sessionTokenHash, now)))
    return;
  if (rules.signOutEnds === "every_session") await revokeCredentials(tx, rules.realm, source.actor.id, now);
  await appendAudit(tx, services, rules.realm, source, { action: rules.audit.signedOut, subject: source.actor.id });
}

function requireManager(rules: RealmRules<string>, by: AccountManager): void {
  if (by.role !== rules.managerRole) throw rules.managerRequired();
}

/** An account of the manager's team (their merchant's, for a member), or undefined. */
async function findTeamAccount(tx: Tx, rules: RealmRules<string>, by: AccountManager, id: string) {
  const account = await findAccount(tx, rules.realm, id);
  return account && account.merchantId === (by.merchantId ?? null) ? account : undefined;
}

/** A manager invites someone: a new account (status invited) that signs in by e-mail link; its id. */
export async function inviteAccount<Role extends string>(
  tx: Tx,
  services: Services,
  rules: RealmRules<Role>,
  by: AccountManager,
  source: AuditSource,
  invitee: { email: string; role: Role; name: string },
): Promise<string> {
  requireManager(rules, by);
  const now = services.clock();
  const id = newId(rules.idPrefix, now, services.random);
  const inserted = await insertAccount(tx, rules.realm, {
    id,
    merchantId: by.merchantId ?? null,
    ...invitee,
    status: "invited",
    invitedBy: by.id,
    createdAt: now,
  });
  if (!inserted) throw rules.accountExists(invitee.email);
  await appendAudit(tx, services, rules.realm, source, {
    action: rules.audit.invited,
    subject: id,
    detail: { role: invitee.role },
  });
  return id;
}

/** Another account than the manager's own, of the same team. */
async function otherAccount(tx: Tx, rules: RealmRules<string>, by: AccountManager, id: string) {
  requireManager(rules, by);
  const account = await findTeamAccount(tx, rules, by, id);
  if (!account) throw notFound(rules.notFoundName, id, rules.idField);
  if (account.id === by.id) throw rules.selfChange();
  return account;
}

export async function changeRole<Role extends string>(
  tx: Tx,
  services: Services,
  rules: RealmRules<Role>,
  by: AccountManager,
  source: AuditSource,
  change: { id: string; role: Role },
): Promise<void> {
  const account = await otherAccount(tx, rules, by, change.id);
  if (account.role === change.role) return;
  await updateAccount(tx, rules.realm, account.id, { role: change.role }, services.clock());
  await appendAudit(tx, services, rules.realm, source, {
    action: rules.audit.roleChanged,
    subject: account.id,
    detail: { from: account.role, to: change.role },
  });
  await rules.afterAccessChange?.(tx, services, source, { id: account.id, role: change.role });
}

/**
 * Disables an account (it can no longer sign in; its sessions and unused links stop working now), or reactivates a
 * disabled one (it may ask for a sign-in link again and becomes active at its next sign-in; its old sessions and links
 * stay revoked).
 */
export async function setAccountEnabled(
  tx: Tx,
  services: Services,
  rules: RealmRules<string>,
  by: AccountManager,
  source: AuditSource,
  id: string,
  enabled: boolean,
): Promise<void> {
  const account = await otherAccount(tx, rules, by, id);
  if ((account.status !== "disabled") === enabled) return;
  const now = services.clock();
  await updateAccount(tx, rules.realm, account.id, { status: enabled ? "invited" : "disabled" }, now);
  if (!enabled) await revokeCredentials(tx, rules.realm, account.id, now);
  const action = enabled ? rules.audit.reactivated : rules.audit.disabled;
  await appendAudit(tx, services, rules.realm, source, { action, subject: account.id });
  if (!enabled) await rules.afterAccessChange?.(tx, services, source, { id: account.id, role: null });
}

/** Sign-in links and sessions that stopped working over a day ago go (the periodic purge); audit logs stay. */
export const purgeStaleCredentials = (tx: Tx, realm: Realm, now: number) =>
  deleteStaleCredentials(tx, realm, now - STALE_CREDENTIALS_KEPT_MS);
