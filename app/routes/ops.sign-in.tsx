// /ops/sign-in: a staff member asks for a sign-in link by e-mail. The answer is the same sentence whether or not the
// address has an account (so the page tells nobody which addresses do); the e-mail goes out after the answer, so its
// sending time tells nothing either. Limited per address and per client address (RATE_LIMIT_RULES.opsSignIn).
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { sendStaffSignInEmail, SIGN_IN_LINK_TTL_MS } from "../../server/index.ts";
import { checkOrigin, clientIp, currentStaff, runtime } from "../ops/console.server.ts";
import { field, formAction } from "../form-actions.server.ts";
import { ErrorSummary, Field, Notice, OpsShell, type FieldErrors } from "../ops/ui.tsx";
import { readForm } from "../form.server.ts";

const NOTICES: Record<string, string> = {
  sent: `If this address belongs to a staff account, a sign-in link is on its way. It works once, for ${SIGN_IN_LINK_TTL_MS / 60_000} minutes.`,
  expired: "Your session has ended. Sign in again.",
  "signed-out": "You are signed out.",
};

/** The console's headers, and Retry-After when the limit refused the request. */
export const headers: HeadersFunction = ({ parentHeaders, actionHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export async function loader({ request }: LoaderFunctionArgs) {
  if (await currentStaff(request)) throw redirect("/ops");
  return json({ notice: NOTICES[new URL(request.url).searchParams.get("notice") ?? ""] });
}

export async function action({ request, context }: ActionFunctionArgs) {
  checkOrigin(request);
  const form = await readForm(request);
  const email = field(form, "email");
  const { core, services, config, mail, logger } = runtime();
  const result = await formAction(
    "sign-in",
    { email: "email" },
    () => core.accounts.requestSignIn("staff", { email }, clientIp(request, context)),
    { email },
  );
  if (!result.ok) return result.response;
  if (result.value.limited) {
    const { retryAfterMs } = result.value;
    const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
    return json(
      {
        errors: {} as FieldErrors,
        formError: `Too many sign-in requests. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        form: "sign-in",
        values: { email },
      },
      { status: 429, headers: { "Retry-After": String(Math.ceil(retryAfterMs / 1000)) } },
    );
  }
  for (const link of result.value.links) {
    sendStaffSignInEmail(mail, {
      to: link.email,
      link: `${config.OPS_URL}/sign-in/${link.token}`,
      expiresAt: link.expiresAt,
      companyName: services.settings.companyName,
    }).catch((error: { code?: string; responseCode?: number }) =>
      logger.error({ code: error.code, responseCode: error.responseCode }, "could not send a staff sign-in e-mail"),
    );
  }
  return redirect("/ops/sign-in?notice=sent");
}

export default function SignIn() {
  const { notice } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  return (
    <OpsShell>
      <div className="narrow">
        <h1>Sign in</h1>
        {notice && !failure ? <Notice>{notice}</Notice> : null}
        <ErrorSummary errors={failure?.errors} formError={failure?.formError} />
        <p>Enter your work e-mail address. We e-mail you a link that signs you in.</p>
        <Form method="post" noValidate>
          <Field id="email" label="E-mail address" error={failure?.errors.email}>
            {(props) => (
              <input {...props} type="email" autoComplete="email" required defaultValue={failure?.values.email} />
            )}
          </Field>
          <button type="submit" className="button">
            E-mail me a sign-in link
          </button>
        </Form>
        <p className="muted spaced">
          Already signed in in this browser? <a href="/ops">Open the claims queue</a>.
        </p>
      </div>
    </OpsShell>
  );
}
