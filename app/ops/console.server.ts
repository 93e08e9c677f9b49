// What every page of the claims team's console (/ops) shares on the server: the protection runtime it calls in
// process (through the core's facade), the session cookie, the CSRF check, the staff member of a request, the
// client's address for the audit log (how a refused action comes back to its form: app/form-actions.server.ts).
//
// The session cookie `ops_session` holds the session token (HttpOnly, SameSite=Strict, Secure over https, path
// /ops, Max-Age until the session's 12 hours end); the database holds its SHA-256, and every request looks the
// session up, so signing out or disabling an account ends it at once. CSRF: every POST must come from this origin
// (its Origin header, which browsers send on every POST; SameSite=Strict keeps the cookie off cross-site requests
// as a second line).
import { createCookie, redirect } from "@remix-run/node";
import {
  authenticateStaff,
  StaffRefused,
  type Runtime,
  type StaffCaller,
  type StaffPrincipal,
} from "../../server/index.ts";
import { clientIp, protectionRuntime } from "../protection-api.server.ts";
import { isHttps } from "../request-scheme.server.ts";
import { checkSameOrigin } from "../form-actions.server.ts";

export const OPS_SESSION_COOKIE = "ops_session";

export const runtime = (): Runtime => protectionRuntime();

const sessionCookie = (request: Request) =>
  createCookie(OPS_SESSION_COOKIE, { httpOnly: true, sameSite: "strict", path: "/ops", secure: isHttps(request) });

async function sessionToken(request: Request): Promise<string | undefined> {
  const value = await sessionCookie(request).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** Set-Cookie for a new session, living until it expires. */
export const startSession = (request: Request, token: string, expiresAt: number) =>
  sessionCookie(request).serialize(token, { maxAge: Math.max(0, Math.floor((expiresAt - Date.now()) / 1000)) });

/** Set-Cookie that removes the session cookie. */
export const endSession = (request: Request) => sessionCookie(request).serialize("", { maxAge: 0 });

/** The signed-in staff member, or undefined (no cookie, expired, signed out, or the account disabled). */
export async function currentStaff(request: Request): Promise<StaffPrincipal | undefined> {
  return authenticateStaff(runtime().db, runtime().services, await sessionToken(request));
}

/** The staff member, or a redirect (thrown) to the sign-in page that also clears a dead cookie. */
export async function requireStaff(request: Request): Promise<StaffPrincipal> {
  const staff = await currentStaff(request);
  if (staff) return staff;
  throw await toSignIn(request);
}

/** The redirect to the sign-in page, which also clears a dead cookie. */
async function toSignIn(request: Request): Promise<Response> {
  const hadCookie = (await sessionToken(request)) !== undefined;
  return redirect(`/ops/sign-in${hadCookie ? "?notice=expired" : ""}`, {
    headers: { "Set-Cookie": await endSession(request) },
  });
}

const adminsOnly = () => new Response("Only an admin can open this page.", { status: 403 });

/** An admin, or a 403 (thrown) for a reviewer. */
export async function requireAdmin(request: Request): Promise<StaffPrincipal> {
  const staff = await requireStaff(request);
  if (staff.role !== "admin") throw adminsOnly();
  return staff;
}

/**
 * A console change as the core runs it (server/core/staff-session.ts: the session is checked again inside the change's
 * transaction), its refusals answered as requireStaff and requireAdmin answer them.
 */
export async function asStaffMember<T>(
  request: Request,
  context: unknown,
  change: (caller: StaffCaller) => Promise<T>,
): Promise<T> {
  try {
    return await change({ sessionToken: await sessionToken(request), ip: clientIp(request, context) });
  } catch (error) {
    if (!(error instanceof StaffRefused)) throw error;
    throw error.reason === "signed_out" ? await toSignIn(request) : adminsOnly();
  }
}

/** Refuses (throws 403) a POST that did not come from a console page (app/form-actions.server.ts). */
export const checkOrigin = (request: Request): void =>
  checkSameOrigin(
    request,
    [new URL(runtime().config.OPS_URL).origin],
    "this form was not sent from the claims console",
  );

export { clientIp };
