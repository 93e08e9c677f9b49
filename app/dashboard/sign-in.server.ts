// What the dashboard's sign-up, sign-in and team pages share on the server: the limit on requests that send e-mail
// (RATE_LIMIT_RULES.dashboardSignIn, per address and per client address), and sending sign-in links. Links are sent
// after the answer is decided, so the answer's timing tells nobody whether an address has an account.
import { json } from "@remix-run/node";
import { RATE_LIMIT_RULES, sendMemberSignInEmail, type MemberSignInLink, type Runtime } from "../../server/index.ts";
import type { ActionFailure } from "../form-actions.server.ts";

/** A 429 answer for the form when the limit refuses the request, else undefined. */
export async function signInLimitRefusal(
  runtime: Runtime,
  form: string,
  identity: { ip?: string; email: string },
  values: Record<string, string>,
) {
  if (!runtime.rateLimits) return undefined;
  const verdict = await runtime.rateLimits.limiter.check(RATE_LIMIT_RULES.dashboardSignIn, identity);
  if (verdict.admitted) return undefined;
  const minutes = Math.max(1, Math.ceil(verdict.retryAfterMs / 60_000));
  return json<ActionFailure>(
    {
      errors: {},
      formError: `Too many requests for sign-in links. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      form,
      values,
    },
    { status: 429, headers: { "Retry-After": String(Math.ceil(verdict.retryAfterMs / 1000)) } },
  );
}

/** E-mails each link (one per team); a failure is logged without the address or the link. */
export function sendSignInLinks(runtime: Runtime, links: MemberSignInLink[], invitedBy?: string): void {
  for (const link of links)
    sendMemberSignInEmail(runtime.mail, {
      to: link.email,
      link: `${runtime.config.DASHBOARD_URL}/sign-in/${link.token}`,
      expiresAt: link.expiresAt,
      merchantName: link.merchantName,
      invitedBy,
    }).catch((error: { code?: string; responseCode?: number }) =>
      runtime.logger.error(
        { code: error.code, responseCode: error.responseCode },
        "could not send a dashboard sign-in e-mail",
      ),
    );
}
