// /ops/sign-in/:token: the e-mail's link. GET only shows a "Sign in" button (mail scanners and link previews fetch
// links, and must not spend a single-use link); the POST spends the link, opens a 12-hour session and sets its cookie.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { checkOrigin, clientIp, runtime, startSession } from "../ops/console.server.ts";
import { formAction } from "../form-actions.server.ts";
import { ErrorSummary, OpsShell } from "../ops/ui.tsx";

const LINK_INVALID = "This sign-in link has expired or has already been used.";

export async function loader({ params }: LoaderFunctionArgs) {
  return json({ usable: await runtime().core.accounts.linkUsable("staff", params.token ?? "") });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  checkOrigin(request);
  const result = await formAction("sign-in", {}, () =>
    runtime().core.accounts.signInWithLink("staff", params.token ?? "", clientIp(request, context)),
  );
  if (!result.ok) return result.response;
  const { sessionToken, expiresAt } = result.value;
  return redirect("/ops", { headers: { "Set-Cookie": await startSession(request, sessionToken, expiresAt) } });
}

export default function SignInWithLink() {
  const { usable } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  return (
    <OpsShell>
      <div className="narrow">
        <h1>Sign in to the claims console</h1>
        <ErrorSummary formError={failure?.formError} />
        {usable && !failure ? (
          <Form method="post">
            <p>Press the button to sign in. The link then stops working.</p>
            <button type="submit" className="button">
              Sign in
            </button>
          </Form>
        ) : (
          <>
            {failure ? null : <p role="alert">{LINK_INVALID}</p>}
            <p>
              <a href="/ops/sign-in">Ask for a new sign-in link</a>
            </p>
          </>
        )}
      </div>
    </OpsShell>
  );
}
