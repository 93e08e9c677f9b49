// The portal's two cookies. `portal_session` holds the portal API's session token (HttpOnly, SameSite=Lax so that a
// link to a portal page from elsewhere finds the buyer signed in, Max-Age until the API's expiresAt; only a POST from
// a portal page ever sets it). `portal_csrf` is the double-submit CSRF
// token: a random value in a SameSite=Strict HttpOnly cookie that every form repeats in a hidden field; a POST whose
// field and cookie differ is refused with 403. Cookie syntax by the `cookie` package through Remix's createCookie.
import { createCookie, redirect } from "@remix-run/node";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { isHttps } from "../request-scheme.server.ts";
import type { ApiResult } from "./buyer.server.ts";
import { errorSentence, type PortalText } from "./messages.ts";
import { forgetPlanLanguage, rememberPlanLanguage } from "./locale.server.ts";

export const SESSION_COOKIE = "portal_session";
export const CSRF_COOKIE = "portal_csrf";
export const CSRF_FIELD = "csrf";

const sessionCookie = (request: Request) =>
  createCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "lax", path: "/portal", secure: isHttps(request) });

const csrfCookie = (request: Request) =>
  createCookie(CSRF_COOKIE, { httpOnly: true, sameSite: "strict", path: "/portal", secure: isHttps(request) });

/** The session token from the request's cookie, or undefined. */
export async function sessionToken(request: Request): Promise<string | undefined> {
  const value = await sessionCookie(request).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/**
 * The Set-Cookie headers of a new session, living until the API's expiresAt: its token, and the locale recorded with
 * its plan (the portal's language for the buyer unless they chose another: locale.server.ts).
 */
export async function startSession(
  request: Request,
  session: { portalToken: string; expiresAt: string; plan: { locale: string | null } },
): Promise<Headers> {
  const maxAge = Math.max(0, Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000));
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie(request).serialize(session.portalToken, { maxAge }));
  headers.append("Set-Cookie", await rememberPlanLanguage(request, session.plan.locale, maxAge));
  return headers;
}

/** Set-Cookie headers that remove the session's cookies. */
export async function endSession(request: Request): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie(request).serialize("", { maxAge: 0 }));
  headers.append("Set-Cookie", await forgetPlanLanguage(request));
  return headers;
}

/** Where a page sends a buyer without a (valid) session: the look-up, with a sentence saying why. */
export async function expiredRedirect(request: Request): Promise<Response> {
  return redirect("/portal?notice=expired", { headers: await endSession(request) });
}

/** The session token, or a redirect (thrown) to the look-up page. */
export async function requireSession(request: Request): Promise<string> {
  const token = await sessionToken(request);
  if (!token) throw await expiredRedirect(request);
  return token;
}

/**
 * Throws the redirect to the look-up page when the API said the session is gone (401); otherwise returns the
 * result so that the page can show the error.
 */
/** The data of a successful read: an expired session goes to the look-up, any other failure is the page's error. */
export async function pageData<T>(request: Request, result: ApiResult<T>, t?: PortalText): Promise<T> {
  const checked = await unlessExpired(request, result);
  if (!checked.ok) throw new Response(failureSentence(checked, t), { status: checked.status });
  return checked.data;
}

export async function unlessExpired<T>(request: Request, result: ApiResult<T>): Promise<ApiResult<T>> {
  if (!result.ok && (result.status === 401 || result.error.code === "portal_session_required"))
    throw await expiredRedirect(request);
  return result;
}

/** The buyer's sentence for a failed API call, in their language (`t`; English without it). */
export const failureSentence = (result: Extract<ApiResult<unknown>, { ok: false }>, t?: PortalText) =>
  errorSentence(result.error, result.status, result.retryAfterSeconds, t);

/**
 * The CSRF token for this page's forms: the cookie's when it has one, else a new one and the Set-Cookie to send with
 * the page.
 */
export async function csrfToken(request: Request): Promise<{ token: string; setCookie?: string }> {
  const existing = await csrfCookie(request).parse(request.headers.get("Cookie"));
  if (typeof existing === "string" && existing.length >= 32) return { token: existing };
  const token = randomBytes(32).toString("base64url");
  return { token, setCookie: await csrfCookie(request).serialize(token) };
}

/** Refuses (throws 403) a POST whose form field does not repeat the CSRF cookie. */
export async function checkCsrf(request: Request, form: FormData): Promise<void> {
  const cookie = await csrfCookie(request).parse(request.headers.get("Cookie"));
  const field = form.get(CSRF_FIELD);
  const same =
    typeof cookie === "string" &&
    typeof field === "string" &&
    cookie.length > 0 &&
    Buffer.byteLength(cookie) === Buffer.byteLength(field) &&
    timingSafeEqual(Buffer.from(cookie), Buffer.from(field));
  if (!same)
    throw new Response("Forbidden: the form's security token did not match. Reload the page.", { status: 403 });
}

/** Headers for a page response: its CSRF cookie when it made one. */
export const pageHeaders = (csrf: { setCookie?: string }, extra: string[] = []): Headers => {
  const headers = new Headers();
  for (const cookie of [csrf.setCookie, ...extra]) if (cookie) headers.append("Set-Cookie", cookie);
  return headers;
};
