// The standalone dashboard's shell (/dashboard, for merchants on any cart): the session cookie, CSRF, the member of a
// request and the page wrappers every /dashboard route uses. The pages themselves (app/dashboard/pages) know nothing
// of this.
//
// The cookie `dashboard_session` holds the session token (HttpOnly, SameSite=Lax so that the sign-in link opened from
// an e-mail lands signed in on the next navigation, Secure over https, path /dashboard, Max-Age until the session's
// 12 hours end); the database holds its SHA-256 and every request looks it up, so signing out everywhere or disabling
// a member ends it at once. CSRF, two lines: every POST must come from this origin (Origin, or Fetch Metadata), and
// carry the `csrf` field, a value derived from the session token that another site cannot read or compute.
import { createHash, timingSafeEqual } from "node:crypto";
import { createCookie, json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { authenticateMember, type MemberPrincipal, type Runtime } from "../../server/index.ts";
import { clientIp, protectionRuntime } from "../protection-api.server.ts";
import { isHttps } from "../request-scheme.server.ts";
import { answeringRefusals, checkSameOrigin } from "../form-actions.server.ts";
import { canChange, canView, DASHBOARD_PAGES, type DashboardPage } from "./access.ts";
import { CSRF_FIELD, type DashboardShell } from "./shell-context.tsx";
import type { DashboardViewer, PageAction, PageLoad } from "./viewer.ts";
import { readForm } from "../form.server.ts";

export const DASHBOARD_SESSION_COOKIE = "dashboard_session";
export const DASHBOARD_BASE = "/dashboard";

const runtime = (): Runtime => protectionRuntime();

const sessionCookie = (request: Request) =>
  createCookie(DASHBOARD_SESSION_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    path: DASHBOARD_BASE,
    secure: isHttps(request),
  });

async function sessionToken(request: Request): Promise<string | undefined> {
  const value = await sessionCookie(request).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** Set-Cookie for a new session, living until it expires. */
export const startDashboardSession = (request: Request, token: string, expiresAt: number) =>
  sessionCookie(request).serialize(token, { maxAge: Math.max(0, Math.floor((expiresAt - Date.now()) / 1000)) });

/** Set-Cookie that removes the session cookie. */
export const endDashboardSession = (request: Request) => sessionCookie(request).serialize("", { maxAge: 0 });

/** The CSRF value of a session: a hash of its token, which only pages served to this session can show. */
const csrfTokenOf = (sessionToken: string) => createHash("sha256").update(`csrf:${sessionToken}`).digest("base64url");

/** The signed-in member, or undefined (no cookie, expired, signed out, or the member disabled). */
export async function currentMember(request: Request): Promise<MemberPrincipal | undefined> {
  return authenticateMember(runtime().db, runtime().services, await sessionToken(request));
}

/** The member and their session token, or a redirect (thrown) to the sign-in page that also clears a dead cookie. */
async function requireMember(request: Request): Promise<{ member: MemberPrincipal; token: string }> {
  const token = await sessionToken(request);
  const member = await authenticateMember(runtime().db, runtime().services, token);
  if (member && token) return { member, token };
  throw redirect(`${DASHBOARD_BASE}/sign-in${token ? "?notice=expired" : ""}`, {
    headers: { "Set-Cookie": await endDashboardSession(request) },
  });
}

const viewerOf = (member: MemberPrincipal, ip: string): DashboardViewer => ({
  shell: "standalone",
  merchantId: member.merchantId,
  merchantName: member.merchantName,
  mode: member.mode,
  live: member.merchantLive,
  role: member.role,
  actor: { id: member.id, email: member.email },
  ip,
  shop: null,
});

const forbidden = (page: DashboardPage, verb: string) =>
  new Response(`Your role cannot ${verb} ${DASHBOARD_PAGES[page].title}. Ask an owner of your team.`, { status: 403 });

/** Refuses (throws 403) a POST that did not come from a dashboard page (this origin or DASHBOARD_URL's). */
export function checkDashboardOrigin(request: Request): void {
  checkSameOrigin(
    request,
    [new URL(runtime().config.DASHBOARD_URL).origin],
    "this form was not sent from the dashboard",
  );
}

/** Refuses (throws 403) a POST from another origin or without this session's CSRF value. */
export function checkCsrf(request: Request, form: FormData, token: string): void {
  checkDashboardOrigin(request);
  const sent = Buffer.from(String(form.get(CSRF_FIELD) ?? ""));
  const expected = Buffer.from(csrfTokenOf(token));
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected))
    throw new Response("Forbidden: this form has expired. Reload the page and try again.", { status: 403 });
}

/** What the layout gives every page component (DashboardShellProvider), and the member for the layout itself. */
export async function standaloneShell(request: Request): Promise<{ shell: DashboardShell; member: MemberPrincipal }> {
  const { member, token } = await requireMember(request);
  return {
    member,
    shell: {
      shell: "standalone",
      basePath: DASHBOARD_BASE,
      merchantName: member.merchantName,
      mode: member.mode,
      live: member.merchantLive,
      role: member.role,
      csrfToken: csrfTokenOf(token),
    },
  };
}

/** A POST of the shell itself (mode switch, sign out everywhere): the member and their session, after the CSRF checks. */
export async function standaloneMemberAction({
  request,
  context,
}: ActionFunctionArgs): Promise<{ member: MemberPrincipal; sessionToken: string; form: FormData; ip: string }> {
  const { member, token } = await requireMember(request);
  const form = await readForm(request);
  checkCsrf(request, form, token);
  return { member, sessionToken: token, form, ip: clientIp(request, context) ?? "" };
}

export function standaloneLoader<T>(page: DashboardPage, load: PageLoad<T>) {
  return async ({ request, context }: LoaderFunctionArgs): Promise<Response> => {
    const { member } = await requireMember(request);
    if (!canView(member.role, page)) throw forbidden(page, "open");
    const result = await answeringRefusals(() =>
      load({ runtime: runtime(), viewer: viewerOf(member, clientIp(request, context) ?? ""), request }),
    );
    return result instanceof Response ? result : json(result);
  };
}

export function standaloneAction<T>(page: DashboardPage, act: PageAction<T>) {
  return async ({ request, context }: ActionFunctionArgs): Promise<Response> => {
    const { member, token } = await requireMember(request);
    const form = await readForm(request);
    checkCsrf(request, form, token);
    if (!canChange(member.role, page)) throw forbidden(page, "change");
    const viewer = viewerOf(member, clientIp(request, context) ?? "");
    const result = await answeringRefusals(() => act({ runtime: runtime(), viewer, request, form }));
    return result instanceof Response ? result : json(result);
  };
}
