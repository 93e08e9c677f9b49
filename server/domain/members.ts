// The standalone dashboard's people (/dashboard, for merchants on any cart): sign-up (sign-ups.ts) creates a merchant
// and its owner once the address is confirmed; team members are invited by e-mail as owner, developer (keys and webhooks) or support (read-only, claims);
// everyone signs in by a single-use e-mail link (sign-in-links.ts: 32 random bytes, 15 minutes, only the SHA-256
// stored) into a 12-hour session whose row also holds the mode its pages show. Every request looks the session up,
// so signing out everywhere or disabling a member ends their sessions at once — and the server keys they minted
// (api-keys.ts), as does a new role that could not mint them. Sensitive actions are audited
// (merchant-audit.ts) in the same transaction.
import { z } from "zod";
import type { Services, Tx } from "./context.ts";
import { DomainError, notFound } from "./errors.ts";
import { newId, sha256Hex } from "./ids.ts";
import type { Mode } from "../vocabulary/ids.ts";
import { appendMerchantAudit, type MerchantAuditSource } from "./merchant-audit.ts";
import { endKeysBeyondRole } from "./api-keys.ts";
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
  consumeMemberSignInToken,
  deleteStaleMemberCredentials,
  findLiveMemberSession,
  findMember,
  findMembershipsByEmail,
  insertMember,
  insertMemberSession,
  insertMemberSignInToken,
  listMembers,
  markMemberSignedIn,
  memberSignInTokenUsable,
  revokeMemberCredentials,
  setMemberSessionMode,
  updateMember,
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

async function issueLink(
  tx: Tx,
  services: Services,
  member: { id: string; merchantId: string; email: string },
  merchantName: string,
  ttlMs: number,
): Promise<MemberSignInLink> {
  const now = services.clock();
  const token = newToken(services);
  const expiresAt = now + ttlMs;
  await insertMemberSignInToken(tx, {
    tokenHash: sha256Hex(token),
    merchantId: member.merchantId,
    memberId: member.id,
    expiresAt,
    createdAt: now,
  });
  return { email: member.email, merchantName, token, expiresAt };
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
  const { email } = parseInput(z.object({ email: emailAddressSchema }), input);
  const links: MemberSignInLink[] = [];
  for (const membership of await findMembershipsByEmail(tx, email))
    links.push(await issueLink(tx, services, membership, membership.merchantName, ttlMs));
  return links;
}

/** One answer for every link that does not sign in: unknown, expired, used, or its member disabled. */
const linkInvalid = () =>
  new DomainError("not_found", "sign_in_link_invalid", "This sign-in link has expired or has already been used.");

/** Whether a sign-in link would still sign in (showing the link's page spends nothing). */
export async function memberSignInLinkUsable(db: Tx, services: Services, token: string): Promise<boolean> {
  return TOKEN_PATTERN.test(token) && memberSignInTokenUsable(db, sha256Hex(token), services.clock());
}

/** Spends a sign-in link (one conditional update: a second use, even a concurrent one, fails) and opens a session. */
export async function signInMemberWithLink(
  tx: Tx,
  services: Services,
  token: string,
  ip: string,
): Promise<{ sessionToken: string; expiresAt: number }> {
  if (!TOKEN_PATTERN.test(token)) throw linkInvalid();
  const now = services.clock();
  const spent = await consumeMemberSignInToken(tx, sha256Hex(token), now);
  const member = spent && (await findMember(tx, spent.merchantId, spent.memberId));
  if (!member || member.status === "disabled") throw linkInvalid();
  const sessionToken = newToken(services);
  const expiresAt = now + SESSION_TTL_MS;
  await insertMemberSession(tx, {
    tokenHash: sha256Hex(sessionToken),
    merchantId: member.merchantId,
    memberId: member.id,
    ip,
    expiresAt,
    createdAt: now,
  });
  await markMemberSignedIn(tx, member.id, now);
  await appendMerchantAudit(
    tx,
    services,
    { merchantId: member.merchantId, mode: "test", actor: { id: member.id, email: member.email }, ip },
    { action: "member.signed_in", subject: member.id },
  );
  return { sessionToken, expiresAt };
}

/** The member of a session token: unexpired, not signed out, the member active. Else undefined. */
export async function authenticateMember(
  db: Tx,
  services: Services,
  sessionToken: string | undefined,
): Promise<MemberPrincipal | undefined> {
  const opened = await openSession(sessionToken, (hash) => findLiveMemberSession(db, hash, services.clock()));
  if (!opened) return undefined;
  const { session, sessionTokenHash } = opened;
  return {
    id: session.id,
    email: session.email,
    role: session.role,
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
  await setMemberSessionMode(tx, member.sessionTokenHash, parsed);
  return parsed;
}

/** Ends every session of the member (this browser's and every other) and spends their unused links. */
export async function signOutEverywhere(tx: Tx, services: Services, member: MemberPrincipal, ip: string) {
  await revokeMemberCredentials(tx, member.id, services.clock());
  await appendMerchantAudit(tx, services, auditSourceOf(member, ip), {
    action: "member.signed_out_everywhere",
    subject: member.id,
  });
}

function requireOwner(member: TeamActor): void {
  if (member.role !== "owner")
    throw new DomainError("forbidden", "owner_required", "Only an owner can manage the team.");
}

export async function listTeam(db: Tx, member: TeamActor): Promise<TeamMember[]> {
  requireOwner(member);
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
  requireOwner(by);
  const { email, role } = parseInput(inviteSchema, input);
  const now = services.clock();
  const id = newId("mem", now, services.random);
  const inserted = await insertMember(tx, {
    id,
    merchantId: by.merchantId,
    email,
    name: "",
    role,
    status: "invited",
    invitedBy: by.id,
    createdAt: now,
  });
  if (!inserted) throw new DomainError("conflict", "member_exists", `${email} is already in your team.`, "email");
  await appendMerchantAudit(tx, services, auditSourceOf(by, ip), {
    action: "member.invited",
    subject: id,
    detail: { role },
  });
  const member = (await findMember(tx, by.merchantId, id))!;
  return {
    member: toTeamMember(member),
    link: await issueLink(tx, services, member, by.merchantName, SIGN_IN_LINK_TTL_MS),
  };
}

/** Another member than the owner's own, of the same merchant (an owner never demotes or disables themselves). */
async function otherMember(tx: Tx, by: TeamActor, memberId: string): Promise<MemberRecord> {
  requireOwner(by);
  const member = await findMember(tx, by.merchantId, memberId);
  if (!member) throw notFound("team member", memberId, "memberId");
  if (member.id === by.id)
    throw new DomainError(
      "conflict",
      "member_self_change",
      "You cannot change your own role or remove yourself; ask another owner.",
      "memberId",
    );
  return member;
}

export async function changeMemberRole(
  tx: Tx,
  services: Services,
  by: TeamActor,
  input: unknown,
  ip: string,
): Promise<TeamMember> {
  const { memberId, role } = parseInput(roleChangeSchema, input);
  const member = await otherMember(tx, by, memberId);
  if (member.role !== role) {
    await updateMember(tx, member.id, { role }, services.clock());
    await appendMerchantAudit(tx, services, auditSourceOf(by, ip), {
      action: "member.role_changed",
      subject: member.id,
      detail: { from: member.role, to: role },
    });
    await endKeysBeyondRole(tx, services, auditSourceOf(by, ip), { id: member.id, role });
  }
  return toTeamMember((await findMember(tx, by.merchantId, member.id))!);
}

/** Disables a member: no more sign-in; their sessions, unused links and server keys stop working now. */
export async function disableMember(
  tx: Tx,
  services: Services,
  by: TeamActor,
  memberId: string,
  ip: string,
): Promise<TeamMember> {
  const member = await otherMember(tx, by, memberId);
  if (member.status !== "disabled") {
    const now = services.clock();
    await updateMember(tx, member.id, { status: "disabled" }, now);
    await revokeMemberCredentials(tx, member.id, now);
    await appendMerchantAudit(tx, services, auditSourceOf(by, ip), { action: "member.disabled", subject: member.id });
    await endKeysBeyondRole(tx, services, auditSourceOf(by, ip), { id: member.id, role: null });
  }
  return toTeamMember((await findMember(tx, by.merchantId, member.id))!);
}

/** Sign-in links and sessions that stopped working over a day ago go (the periodic purge). */
export const purgeStaleMemberCredentials = (tx: Tx, now: number) =>
  deleteStaleMemberCredentials(tx, now - 24 * 60 * 60 * 1000);
