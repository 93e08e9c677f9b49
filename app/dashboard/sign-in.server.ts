// What the dashboard's sign-up, sign-in and team pages share on the server: the limits on requests that send e-mail
// or open accounts (RATE_LIMIT_RULES.dashboardSignIn, dashboardSignUp, dashboardSignUpConfirm: per address and per
// client address), and sending the links. Links are sent after the answer is decided, so the answer's timing tells
// nobody whether an address has an account.
import { json } from "@remix-run/node";
import {
  RATE_LIMIT_RULES,
  sendMemberSignInEmail,
  sendMemberSignUpEmail,
  type MemberSignInLink,
  type Runtime,
  type SignUpRequest,
} from "../../server/index.ts";
import type { ActionFailure } from "../form-actions.server.ts";

type DashboardRule = "dashboardSignIn" | "dashboardSignUp" | "dashboardSignUpConfirm";

/** A 429 answer for the form when the rule's limit refuses the request, else undefined. */
export async function limitRefusal(
  runtime: Runtime,
  rule: DashboardRule,
  form: string,
  identity: { ip?: string; email?: string },
  values: Record<string, string>,
) {
  if (!runtime.rateLimits) return undefined;
  const verdict = await runtime.rateLimits.limiter.check(RATE_LIMIT_RULES[rule], identity);
  if (verdict.admitted) return undefined;
  const minutes = Math.max(1, Math.ceil(verdict.retryAfterMs / 60_000));
  const wait = minutes < 120 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${Math.ceil(minutes / 60)} hours`;
  return json<ActionFailure>(
    { errors: {}, formError: `Too many requests. Try again in ${wait}.`, form, values },
    { status: 429, headers: { "Retry-After": String(Math.ceil(verdict.retryAfterMs / 1000)) } },
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
