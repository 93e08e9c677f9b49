// The people who sign in, in two realms, and one set of statements for both: their accounts, single-use sign-in
// links and sessions (each kept only as the SHA-256 of its token), and their append-only audit logs (database
// triggers refuse UPDATE and DELETE). Each realm keeps its own tables because their rows live differently: a
// merchant's members, links, sessions and audit entries go with the merchant (server/store/erasure.ts), while the
// claims team's audit log outlives every merchant. The realm's layout below names them.
import type { Mode } from "../vocabulary/ids.ts";
import type { Queryable } from "./database.ts";

/** "merchant": the dashboard's members, one team per merchant; "staff": the claims team of the console (/ops). */
export type Realm = "merchant" | "staff";
export type AccountStatus = "invited" | "active" | "disabled";

interface RealmTables {
  accounts: string;
  links: string;
  sessions: string;
  audit: string;
  /** The column naming the account in its links, sessions and audit entries. */
  accountColumn: string;
  /** The column naming the audit entry's actor's address. */
  auditEmailColumn: string;
  /** Columns every link and session copies from its account (a member's merchant). */
  scopeColumns: readonly string[];
}

const TABLES: Record<Realm, RealmTables> = {
  merchant: {
    accounts: "merchant_members",
    links: "member_sign_in_tokens",
    sessions: "member_sessions",
    audit: "merchant_audit_log",
    accountColumn: "member_id",
    auditEmailColumn: "actor_email",
    scopeColumns: ["merchant_id"],
  },
  staff: {
    accounts: "staff_accounts",
    links: "staff_sign_in_tokens",
    sessions: "staff_sessions",
    audit: "staff_audit_log",
    accountColumn: "staff_id",
    auditEmailColumn: "staff_email",
    scopeColumns: [],
  },
};

/** The audit log's actor column: the merchant log names any actor (a member, a Shopify user), the staff log staff. */
const auditActorColumn = (realm: Realm) => (realm === "merchant" ? "actor_id" : "staff_id");

/** The columns every realm's account table has, as a row holds them. */
export interface AccountRow<Role extends string> {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: AccountStatus;
  invited_by: string | null;
  last_sign_in_at: number | null;
  created_at: number;
}

/** Those columns, for a SELECT (`alias.` before each when given). */
export const accountColumns = (alias = "") =>
  ["id", "email", "name", "role", "status", "invited_by", "last_sign_in_at", "created_at"]
    .map((column) => alias + column)
    .join(", ");

/** Those columns as a realm's record holds them. */
export const accountFields = <Role extends string>(row: AccountRow<Role>) => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.status,
  invitedBy: row.invited_by,
  lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
  createdAt: Number(row.created_at),
});

/** What the sign-in mechanism reads of an account: who, whether they may sign in, and the merchant of a member. */
export interface AccountRecord {
  id: string;
  email: string;
  role: string;
  status: AccountStatus;
  /** The member's merchant; null for staff. */
  merchantId: string | null;
}

export async function findAccount(tx: Queryable, realm: Realm, id: string): Promise<AccountRecord | undefined> {
  const merchant = realm === "merchant" ? "merchant_id" : "NULL";
  const row = await tx.get<{ id: string; email: string; role: string; status: AccountStatus; merchant_id: string }>(
    `SELECT id, email, role, status, ${merchant} AS merchant_id FROM ${TABLES[realm].accounts} WHERE id = ?`,
    [id],
  );
  return row && { id: row.id, email: row.email, role: row.role, status: row.status, merchantId: row.merchant_id };
}

/**
 * Stores a new account (its merchant's, for a member); false when the address already has one in that team or, for
 * staff, at all (nothing is written then).
 */
export async function insertAccount(
  tx: Queryable,
  realm: Realm,
  account: {
    id: string;
    merchantId: string | null;
    email: string;
    name: string;
    role: string;
    status: AccountStatus;
    invitedBy: string | null;
    createdAt: number;
  },
): Promise<boolean> {
  const scope = realm === "merchant" ? { merchant_id: account.merchantId } : {};
  const columns = ["id", ...Object.keys(scope), "email", "name", "role", "status", "invited_by", "created_at"];
  const inserted = await tx.all(
    `INSERT INTO ${TABLES[realm].accounts} (${columns.join(", ")}, updated_at)
     VALUES (${columns.map(() => "?").join(", ")}, ?) ON CONFLICT DO NOTHING RETURNING id`,
    [
      account.id,
      ...Object.values(scope),
      account.email,
      account.name,
      account.role,
      account.status,
      account.invitedBy,
      account.createdAt,
      account.createdAt,
    ],
  );
  return inserted.length === 1;
}

export async function updateAccount(
  tx: Queryable,
  realm: Realm,
  id: string,
  change: { role?: string; status?: AccountStatus },
  at: number,
): Promise<void> {
  await tx.run(
    `UPDATE ${TABLES[realm].accounts} SET role = COALESCE(?, role), status = COALESCE(?, status), updated_at = ? WHERE id = ?`,
    [change.role ?? null, change.status ?? null, at, id],
  );
}

/** A first sign-in activates an invited account; every sign-in is recorded. */
export async function markSignedIn(tx: Queryable, realm: Realm, id: string, at: number): Promise<void> {
  await tx.run(
    `UPDATE ${TABLES[realm].accounts} SET status = CASE WHEN status = 'invited' THEN 'active' ELSE status END,
     last_sign_in_at = ?, updated_at = ? WHERE id = ?`,
    [at, at, id],
  );
}

/** A row of a link or session: its own values, then the account's scope columns copied from the account's row. */
async function insertForAccount(
  tx: Queryable,
  realm: Realm,
  table: string,
  own: Record<string, string | number>,
  accountId: string,
): Promise<void> {
  const { accounts, accountColumn, scopeColumns } = TABLES[realm];
  const columns = [...Object.keys(own), accountColumn, ...scopeColumns];
  await tx.run(
    `INSERT INTO ${table} (${columns.join(", ")})
     SELECT ${Object.keys(own)
       .map(() => "?")
       .join(", ")}, id${scopeColumns.map((column) => `, ${column}`).join("")}
     FROM ${accounts} WHERE id = ?`,
    [...Object.values(own), accountId],
  );
}

export async function insertSignInLink(
  tx: Queryable,
  realm: Realm,
  link: { tokenHash: string; accountId: string; expiresAt: number; createdAt: number },
): Promise<void> {
  const own = { token_hash: link.tokenHash, expires_at: link.expiresAt, created_at: link.createdAt };
  await insertForAccount(tx, realm, TABLES[realm].links, own, link.accountId);
}

/** Whether a sign-in link is still unused and unexpired at `now` (reads only: showing the page spends nothing). */
export async function signInLinkUsable(tx: Queryable, realm: Realm, tokenHash: string, now: number) {
  const row = await tx.get(
    `SELECT token_hash FROM ${TABLES[realm].links} WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`,
    [tokenHash, now],
  );
  return row !== undefined;
}

/**
 * Spends a sign-in link: one conditional UPDATE, so of two concurrent uses exactly one gets the account's id;
 * undefined for a link that is unknown, expired or already used.
 */
export async function consumeSignInLink(
  tx: Queryable,
  realm: Realm,
  tokenHash: string,
  now: number,
): Promise<string | undefined> {
  const { links, accountColumn } = TABLES[realm];
  const rows = await tx.all<{ account_id: string }>(
    `UPDATE ${links} SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
     RETURNING ${accountColumn} AS account_id`,
    [now, tokenHash, now],
  );
  return rows[0]?.account_id;
}

export async function insertSession(
  tx: Queryable,
  realm: Realm,
  session: { tokenHash: string; accountId: string; ip: string; expiresAt: number; createdAt: number },
): Promise<void> {
  const own = {
    token_hash: session.tokenHash,
    ip: session.ip,
    expires_at: session.expiresAt,
    created_at: session.createdAt,
  };
  await insertForAccount(tx, realm, TABLES[realm].sessions, own, session.accountId);
}

/** A live session as each realm's requests see it: the account, and what the realm shows with it. */
export interface LiveSessions {
  merchant: {
    id: string;
    email: string;
    role: string;
    merchantId: string;
    merchantName: string;
    merchantLive: boolean;
    /** Which data the session's pages show. */
    mode: Mode;
    sessionExpiresAt: number;
  };
  staff: { id: string; email: string; name: string; role: string; sessionExpiresAt: number };
}

/** What each realm's session lookup reads besides the session (`a` is the account, `s` the session). */
const LIVE_SESSION_READS: Record<Realm, { columns: string; joins: string }> = {
  merchant: {
    columns: "a.merchant_id, b.name AS merchant_name, b.live_at, s.mode",
    joins: "JOIN merchants b ON b.id = a.merchant_id",
  },
  staff: { columns: "a.name", joins: "" },
};

type LiveSessionRow = {
  id: string;
  email: string;
  role: string;
  name: string;
  merchant_id: string;
  merchant_name: string;
  live_at: number | null;
  mode: Mode;
  session_expires_at: number;
};

const LIVE_SESSION_OF: { [R in Realm]: (row: LiveSessionRow) => LiveSessions[R] } = {
  merchant: (row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    merchantLive: row.live_at !== null,
    mode: row.mode,
    sessionExpiresAt: Number(row.session_expires_at),
  }),
  staff: (row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    sessionExpiresAt: Number(row.session_expires_at),
  }),
};

/** The account of a session that is unexpired and unrevoked at `now` and whose account is active. */
export async function findLiveSession<R extends Realm>(
  tx: Queryable,
  realm: R,
  tokenHash: string,
  now: number,
): Promise<LiveSessions[R] | undefined> {
  const { accounts, sessions, accountColumn } = TABLES[realm];
  const { columns, joins } = LIVE_SESSION_READS[realm];
  const row = await tx.get<LiveSessionRow>(
    `SELECT a.id, a.email, a.role, ${columns}, s.expires_at AS session_expires_at
     FROM ${sessions} s JOIN ${accounts} a ON a.id = s.${accountColumn} ${joins}
     WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND a.status = 'active'`,
    [tokenHash, now],
  );
  return row && LIVE_SESSION_OF[realm](row);
}

/** Which data a member's session shows (the merchant realm's sessions hold it). */
export async function setSessionMode(tx: Queryable, tokenHash: string, mode: Mode): Promise<void> {
  await tx.run(`UPDATE ${TABLES.merchant.sessions} SET mode = ? WHERE token_hash = ?`, [mode, tokenHash]);
}

/** Revokes one session; false when it was already revoked or never existed. */
export async function revokeSession(tx: Queryable, realm: Realm, tokenHash: string, at: number): Promise<boolean> {
  const revoked = await tx.run(
    `UPDATE ${TABLES[realm].sessions} SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL`,
    [at, tokenHash],
  );
  return revoked === 1;
}

/** Revokes every session of an account and spends its unused sign-in links; resolves to how many sessions ended. */
export async function revokeCredentials(tx: Queryable, realm: Realm, accountId: string, at: number): Promise<number> {
  const { links, sessions, accountColumn } = TABLES[realm];
  const ended = await tx.run(
    `UPDATE ${sessions} SET revoked_at = ? WHERE ${accountColumn} = ? AND revoked_at IS NULL`,
    [at, accountId],
  );
  await tx.run(`UPDATE ${links} SET used_at = ? WHERE ${accountColumn} = ? AND used_at IS NULL`, [at, accountId]);
  return ended;
}

/** Deletes sign-in links and sessions that stopped working before `before`; resolves to how many went. */
export async function deleteStaleCredentials(tx: Queryable, realm: Realm, before: number): Promise<number> {
  const { links, sessions } = TABLES[realm];
  const deletedLinks = await tx.run(`DELETE FROM ${links} WHERE expires_at < ?`, [before]);
  const deletedSessions = await tx.run(`DELETE FROM ${sessions} WHERE expires_at < ?`, [before]);
  return deletedLinks + deletedSessions;
}

export interface AuditRecord {
  id: string;
  actorId: string;
  actorEmail: string;
  /** The merchant and mode of a merchant's entry; null in the staff's log. */
  merchantId: string | null;
  mode: Mode | null;
  action: string;
  subject: string;
  /** JSON text. */
  detail: string;
  ip: string;
  createdAt: number;
}

export async function insertAuditEntry(tx: Queryable, realm: Realm, entry: AuditRecord): Promise<void> {
  const scope = realm === "merchant" ? { merchant_id: entry.merchantId, mode: entry.mode } : {};
  const columns = ["id", ...Object.keys(scope), auditActorColumn(realm), TABLES[realm].auditEmailColumn];
  columns.push("action", "subject", "detail", "ip", "created_at");
  await tx.run(
    `INSERT INTO ${TABLES[realm].audit} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    [
      entry.id,
      ...Object.values(scope),
      entry.actorId,
      entry.actorEmail,
      entry.action,
      entry.subject,
      entry.detail,
      entry.ip,
      entry.createdAt,
    ],
  );
}

export interface AuditFilters {
  /** Only a merchant's entries (the merchant realm's log is always read so). */
  merchantId?: string;
  /** Only entries about this subject (a claim id, an account id). */
  subject?: string;
  /** Only entries by this actor. */
  actorId?: string;
  /** Entries older than this id (ids sort by time): the next page. */
  before?: string;
}

/** The newest `limit` entries of the realm's log matching the filters. */
export async function listAuditEntries(
  tx: Queryable,
  realm: Realm,
  filters: AuditFilters,
  limit: number,
): Promise<AuditRecord[]> {
  const actor = auditActorColumn(realm);
  const scope = realm === "merchant" ? "merchant_id, mode" : "NULL AS merchant_id, NULL AS mode";
  const applied: [string, string | undefined][] = [
    ["merchant_id = ?", filters.merchantId],
    ["subject = ?", filters.subject],
    [`${actor} = ?`, filters.actorId],
    ["id < ?", filters.before],
  ];
  const used = applied.filter((filter): filter is [string, string] => filter[1] !== undefined);
  const where = used.length ? `WHERE ${used.map(([clause]) => clause).join(" AND ")}` : "";
  const rows = await tx.all<{
    id: string;
    actor_id: string;
    actor_email: string;
    merchant_id: string | null;
    mode: Mode | null;
    action: string;
    subject: string;
    detail: string;
    ip: string;
    created_at: number;
  }>(
    `SELECT id, ${actor} AS actor_id, ${TABLES[realm].auditEmailColumn} AS actor_email, ${scope}, action, subject,
     detail, ip, created_at FROM ${TABLES[realm].audit} ${where} ORDER BY id DESC LIMIT ${limit}`,
    used.map(([, value]) => value),
  );
  return rows.map((row) => ({
    id: row.id,
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    merchantId: row.merchant_id,
    mode: row.mode,
    action: row.action,
    subject: row.subject,
    detail: row.detail,
    ip: row.ip,
    createdAt: Number(row.created_at),
  }));
}
