// What every page of the claims team's console (/ops) shares on the server: the protection runtime it calls in
// process (through the core's facade), the session cookie, the CSRF check, the staff member of a request, the
// client's address for the audit log, and how a refused action comes back to its form.
//
// The session cookie `ops_session` holds the session token (HttpOnly, SameSite=Strict, Secure over https, path
// /ops, Max-Age until the session's 12 hours end); the database holds its SHA-256, and every request looks the
// session up, so signing out or disabling an account ends it at once. CSRF: every POST must come from this origin
// (its Origin header, which browsers send on every POST; SameSite=Strict keeps the cookie off cross-site requests
// as a second line).
import { createCookie, json, redirect, type TypedResponse } from "@remix-run/node";
import {
  authenticateStaff,
  clientAddress,
  DomainError,
  type Queryable,
  type Runtime,
  type StaffPrincipal,
} from "../../server/index.ts";
import { protectionRuntime, type ApiLoadContext } from "../protection-api.server.ts";
import { isHttps } from "../portal/session.server.ts";
import type { FieldErrors } from "../portal/ui.tsx";

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
export async function currentStaff(
  request: Request,
  db: Queryable = runtime().db,
): Promise<StaffPrincipal | undefined> {
  return authenticateStaff(db, runtime().services, await sessionToken(request));
}

/** The staff member, or a redirect (thrown) to the sign-in page that also clears a dead cookie. */
export async function requireStaff(request: Request, db?: Queryable): Promise<StaffPrincipal> {
  const staff = await currentStaff(request, db);
  if (staff) return staff;
  const hadCookie = (await sessionToken(request)) !== undefined;
  throw redirect(`/ops/sign-in${hadCookie ? "?notice=expired" : ""}`, {
    headers: { "Set-Cookie": await endSession(request) },
  });
}

/** An admin, or a 403 (thrown) for a reviewer. */
export async function requireAdmin(request: Request, db?: Queryable): Promise<StaffPrincipal> {
  const staff = await requireStaff(request, db);
  if (staff.role !== "admin") throw new Response("Only an admin can open this page.", { status: 403 });
  return staff;
}

/** This server's origin as the browser sees it (https behind a TLS-terminating proxy that says so). */
function ownOrigins(request: Request): string[] {
  const url = new URL(request.url);
  return [`${isHttps(request) ? "https:" : url.protocol}//${url.host}`, new URL(runtime().config.OPS_URL).origin];
}

/**
 * Refuses (throws 403) a POST that did not come from a page of this origin. Browsers send Origin on every POST; a
 * request without one is accepted only when Fetch Metadata says it is same-origin.
 */
export function checkOrigin(request: Request): void {
  const origin = request.headers.get("Origin");
  const sameOrigin =
    origin === null ? request.headers.get("Sec-Fetch-Site") === "same-origin" : ownOrigins(request).includes(origin);
  if (!sameOrigin) throw new Response("Forbidden: this form was not sent from the claims console.", { status: 403 });
}

/** The client's address for the audit log and the limits (the socket's, or X-Forwarded-For behind TRUST_PROXY). */
export function clientIp(request: Request, context: unknown): string | undefined {
  return clientAddress(
    (context as ApiLoadContext | undefined)?.nodeBindings,
    request.headers.get("X-Forwarded-For"),
    runtime().config.TRUST_PROXY,
  );
}

export interface ActionFailure {
  errors: FieldErrors;
  formError?: string;
  /** Which of the page's forms failed (several forms share one action). */
  form: string;
  /** What was typed, shown again. */
  values: Record<string, string>;
}

const STATUS_OF_KIND: Record<DomainError["kind"], number> = {
  invalid: 400,
  unprocessable: 422,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  order_context_invalid: 400,
};

/**
 * Runs an action's work; a refusal of the core (a DomainError) comes back as the form's error, next to its field
 * when the core named one the form has (`fieldIds` maps the core's field names to the form's element ids).
 */
export async function formAction<T>(
  form: string,
  fieldIds: Record<string, string>,
  work: () => Promise<T>,
  values: Record<string, string> = {},
): Promise<{ ok: true; value: T } | { ok: false; response: TypedResponse<ActionFailure> }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const id = error.field === undefined ? undefined : fieldIds[error.field.split(".")[0]];
    const failure: ActionFailure = id
      ? { errors: { [id]: error.message }, form, values }
      : { errors: {}, formError: error.message, form, values };
    return { ok: false, response: json(failure, STATUS_OF_KIND[error.kind]) };
  }
}

/** A form field as text ("" when absent or a file). */
export const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};
