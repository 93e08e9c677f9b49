// The standalone dashboard's people (/dashboard, for merchants on any cart): sign-up (sign-ups.ts) creates a merchant
// and its owner once the address is confirmed; team members are invited by e-mail as owner, developer (keys and webhooks) or support (read-only, claims);
// everyone signs in by a single-use e-mail link (accounts.ts, the mechanism both realms share: 32 random bytes, 15
// minutes, only the SHA-256 stored) into a 12-hour session whose row also holds the mode its pages show. Every request looks the session up,
// so signing out everywhere or disabling a member ends their sessions at once — and the server keys they minted
// (api-keys.ts), as does a new role that could not mint them. Sensitive actions are audited
// (merchant-audit.ts) in the same transaction.
import { z } from "zod";
import type { Services, Tx } from "./context.ts";
import { DomainError } from "./errors.ts";
import type { Mode } from "../vocabulary/ids.ts";
import type { MerchantAuditAction, MerchantAuditSource } from "./merchant-audit.ts";
import { endKeysBeyondRole } from "./api-keys.ts";
import {
  changeRole,
  setAccountEnabled,
  emailAddressSchema,
  inviteAccount,
  issueLink,
  linkUsable,
  openSession,
  parseInput,
  purgeStaleCredentials,
  redeemLink,
  requestedAddress,
  signOut,
  SIGN_IN_LINK_TTL_MS,
  STALE_CREDENTIALS_KEPT_MS,
  type RealmRules,
} from "./accounts.ts";
import { setSessionMode } from "../store/accounts.ts";
import {
  deleteStaleMemberSignUps,
  findMember,
  findMembershipsByEmail,
  listMembers,
  type MemberRecord,
  type MemberRole,
  type MemberStatus,
} from "../store/members.ts";

export type { MemberRole, MemberStatus };
export const MEMBER_ROLES = ["owner", "developer", "support"] as const satisfies readonly MemberRole[];

/** Who manages the team: a member of the merchant, in the mode their session shows. */
export interface TeamActor {
  id: string;
  email: string;
  role: MemberRole;
  merchantId: string;
  merchantName: string;
  mode: Mode;
}

/** A signed-in member, as every dashboard request sees them. */
export interface MemberPrincipal extends TeamActor {
  merchantLive: boolean;
  sessionExpiresAt: number;
  /** The SHA-256 of the session token (what identifies the session to change its mode). */
  sessionTokenHash: string;
}

export interface TeamMember {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  status: MemberStatus;
  lastSignInAt: string | null;
  createdAt: string;
}

/** A sign-in link for one team: the token (once, for the e-mail), when it stops working, and the business's name. */
export interface MemberSignInLink {
  email: string;
  merchantName: string;
  token: string;
  expiresAt: number;
}

const toTeamMember = (record: MemberRecord): TeamMember => ({
  id: record.id,
  email: record.email,
  name: record.name,
  role: record.role,
  status: record.status,
  lastSignInAt: record.lastSignInAt === null ? null : new Date(record.lastSignInAt).toISOString(),
  createdAt: new Date(record.createdAt).toISOString(),
});

const roleSchema = z.enum(MEMBER_ROLES, "Choose owner, developer or support.");

const inviteSchema = z.strictObject({ email: emailAddressSchema, role: roleSchema });
const roleChangeSchema = z.strictObject({ memberId: z.string().min(1).max(64), role: roleSchema });

/** The audit source of a signed-in member's action. */
export const auditSourceOf = (member: TeamActor, ip: string): MerchantAuditSource => ({
  merchantId: member.merchantId,
  mode: member.mode,
  actor: { id: member.id, email: member.email },
  ip,
});

/** An action name, checked against the merchant log's list. */
const audited = (action: MerchantAuditAction) => action;

/**
 * The merchant realm: a team per merchant whose owners manage it; signing out ends every session of the member (a
 * shared computer is the case it answers); a sign-in is audited in test mode (the session starts there); a role
 * that can no longer mint server keys, or a disabled member, ends the keys they minted.
 */
export const MEMBER_REALM: RealmRules<MemberRole> = {
  realm: "merchant",
  idPrefix: "mem",
  managerRole: "owner",
  managerRequired: () => new DomainError("forbidden", "owner_required", "Only an owner can manage the team."),
  selfChange: () =>
    new DomainError(
      "conflict",
      "member_self_change",
      "You cannot change your own role or remove yourself; ask another owner.",
      "memberId",
    ),
  accountExists: (email) => new DomainError("conflict", "member_exists", `${email} is already in your team.`, "email"),
  notFoundName: "team member",
  idField: "memberId",
  signOutEnds: "every_session",
  ownSource: (account, ip) => ({
    merchantId: account.merchantId!,
    mode: "test",
    actor: { id: account.id, email: account.email },
    ip,
  }),
  audit: {
    signedIn: audited("member.signed_in"),
    signedOut: audited("member.signed_out_everywhere"),
    invited: audited("member.invited"),
    roleChanged: audited("member.role_changed"),
    disabled: audited("member.disabled"),
    reactivated: audited("member.reactivated"),
  },
  afterAccessChange: (tx, services, by, member) => endKeysBeyondRole(tx, services, by as MerchantAuditSource, member),
};

/** A member's sign-in link, named by the team it opens. */
async function memberLink(
  tx: Tx,
  services: Services,
  member: { id: string; email: string },
  merchantName: string,
  ttlMs: number,
) {
  return { ...(await issueLink(tx, services, "merchant", member, ttlMs)), merchantName };
}

/**
 * Someone asks for sign-in links for `email`: one per team the address belongs to (not disabled), else none. The
 * caller answers every case the same way, so that the page never tells which addresses have accounts.
 */
export async function requestMemberSignInLinks(
  tx: Tx,
  services: Services,
  input: { email: unknown },
  ttlMs = SIGN_IN_LINK_TTL_MS,
): Promise<MemberSignInLink[]> {
  const links: MemberSignInLink[] = [];
  for (const membership of await findMembershipsByEmail(tx, requestedAddress(input)))
    links.push(await memberLink(tx, services, membership, membership.merchantName, ttlMs));
  return links;
}

/** Whether a sign-in link would still sign in (showing the link's page spends nothing). */
export const memberSignInLinkUsable = (db: Tx, services: Services, token: string) =>
  linkUsable(db, services, "merchant", token);

/** Spends a sign-in link (one conditional update: a second use, even a concurrent one, fails) and opens a session. */
export async function signInMemberWithLink(
  tx: Tx,
  services: Services,
  token: string,
  ip: string,
): Promise<{ sessionToken: string; expiresAt: number }> {
  const { sessionToken, expiresAt } = await redeemLink(tx, services, MEMBER_REALM, token, ip);
  return { sessionToken, expiresAt };
}

/** The member of a session token: unexpired, not signed out, the member active. Else undefined. */
export async function authenticateMember(
  db: Tx,
  services: Services,
  sessionToken: string | undefined,
): Promise<MemberPrincipal | undefined> {
  const opened = await openSession(db, services, "merchant", sessionToken);
  if (!opened) return undefined;
  const { session, sessionTokenHash } = opened;
  return {
    id: session.id,
    email: session.email,
    role: session.role as MemberRole,
    merchantId: session.merchantId,
    merchantName: session.merchantName,
    merchantLive: session.merchantLive,
    mode: session.mode,
    sessionExpiresAt: session.sessionExpiresAt,
    sessionTokenHash,
  };
}

/** Which data the session's pages show from now on. */
export async function switchDashboardMode(tx: Tx, member: MemberPrincipal, mode: unknown): Promise<Mode> {
  const parsed = parseInput(z.enum(["test", "live"], "Choose test or live."), mode);
  await setSessionMode(tx, member.sessionTokenHash, parsed);
  return parsed;
}

/** Ends every session of the member (this browser's and every other) and spends their unused links. */
export const signOutEverywhere = (tx: Tx, services: Services, member: MemberPrincipal, ip: string) =>
  signOut(tx, services, MEMBER_REALM, member, auditSourceOf(member, ip));

export async function listTeam(db: Tx, member: TeamActor): Promise<TeamMember[]> {
  if (member.role !== MEMBER_REALM.managerRole) throw MEMBER_REALM.managerRequired();
  return (await listMembers(db, member.merchantId)).map(toTeamMember);
}

/** An owner invites someone: a new member (status invited) and their sign-in link (for the invitation e-mail). */
export async function inviteMember(
  tx: Tx,
  services: Services,
  by: TeamActor,
  input: unknown,
  ip: string,
): Promise<{ member: TeamMember; link: MemberSignInLink }> {
  if (by.role !== MEMBER_REALM.managerRole) throw MEMBER_REALM.managerRequired();
  const { email, role } = parseInput(inviteSchema, input);
  const id = await inviteAccount(tx, services, MEMBER_REALM, by, auditSourceOf(by, ip), { email, role, name: "" });
  const member = (await findMember(tx, by.merchantId, id))!;
  return {
    member: toTeamMember(member),
    link: await memberLink(tx, services, member, by.merchantName, SIGN_IN_LINK_TTL_MS),
  };
}

export async function changeMemberRole(
  tx: Tx,
  services: Services,
  by: TeamActor,
  input: unknown,
  ip: string,
): Promise<TeamMember> {
  const { memberId, role } = parseInput(roleChangeSchema, input);
  await changeRole(tx, services, MEMBER_REALM, by, auditSourceOf(by, ip), { id: memberId, role });
  return toTeamMember((await findMember(tx, by.merchantId, memberId))!);
}

/** Disables a member: no more sign-in; their sessions, unused links and server keys stop working now. */
export async function disableMember(
  tx: Tx,
  services: Services,
  by: TeamActor,
  memberId: string,
  ip: string,
): Promise<TeamMember> {
  await setAccountEnabled(tx, services, MEMBER_REALM, by, auditSourceOf(by, ip), memberId, false);
  return toTeamMember((await findMember(tx, by.merchantId, memberId))!);
}

/** Sign-in links, sign-ups and sessions that stopped working over a day ago go (the periodic purge). */
export async function purgeStaleMemberCredentials(tx: Tx, now: number): Promise<number> {
  return (
    (await purgeStaleCredentials(tx, "merchant", now)) +
    (await deleteStaleMemberSignUps(tx, now - STALE_CREDENTIALS_KEPT_MS))
  );
}
