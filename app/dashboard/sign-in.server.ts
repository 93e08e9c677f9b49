// What the dashboard's sign-up, sign-in and team pages share on the server: the answer when a limit refused a request
// that sends e-mail or opens accounts (the core's accounts use cases check RATE_LIMIT_RULES.dashboardSignIn,
// dashboardSignUp, dashboardSignUpConfirm: per address and per client address), and sending the links. Links are sent
// after the answer is decided, so the answer's timing tells nobody whether an address has an account.
import { json } from "@remix-run/node";
import {
  sendMemberSignInEmail,
  sendMemberSignUpEmail,
  type MemberSignInLink,
  type Runtime,
  type SignUpRequest,
} from "../../server/index.ts";
import type { ActionFailure } from "../form-actions.server.ts";

/** The 429 answer for the form when the limit refused the request. */
export function limitRefusal({ retryAfterMs }: { retryAfterMs: number }, form: string, values: Record<string, string>) {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  const wait = minutes < 120 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${Math.ceil(minutes / 60)} hours`;
  return json<ActionFailure>(
    { errors: {}, formError: `Too many requests. Try again in ${wait}.`, form, values },
    { status: 429, headers: { "Retry-After": String(Math.ceil(retryAfterMs / 1000)) } },
  );
}

/** Logs a failed send without the address or the link. */
const logSendFailure = (runtime: Runtime, what: string) => (error: { code?: string; responseCode?: number }) =>
  runtime.logger.error({ code: error.code, responseCode: error.responseCode }, `could not send a dashboard ${what}`);

/** E-mails each link (one per team). */
export function sendSignInLinks(runtime: Runtime, links: MemberSignInLink[], invitedBy?: string): void {
  for (const link of links)
    sendMemberSignInEmail(runtime.mail, {
      to: link.email,
      link: `${runtime.config.DASHBOARD_URL}/sign-in/${link.token}`,
      expiresAt: link.expiresAt,
      merchantName: link.merchantName,
      invitedBy,
    }).catch(logSendFailure(runtime, "sign-in e-mail"));
}

/** E-mails what a sign-up request sends: the confirmation link, or the address's sign-in links. */
export function sendSignUpLinks(runtime: Runtime, request: SignUpRequest): void {
  if (request.kind === "sign_in") return sendSignInLinks(runtime, request.links);
  sendMemberSignUpEmail(runtime.mail, {
    to: request.email,
    link: `${runtime.config.DASHBOARD_URL}/sign-up/${request.token}`,
    expiresAt: request.expiresAt,
  }).catch(logSendFailure(runtime, "sign-up e-mail"));
}
