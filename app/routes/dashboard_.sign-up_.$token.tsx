// /dashboard/sign-up/<token>: the link from the sign-up e-mail. Showing it spends nothing (mail scanners open links);
// the button — a POST from this page — spends it, creates the merchant and its owner, and signs them in. At most
// RATE_LIMIT_RULES.dashboardSignUpConfirm accounts a day are opened from one client address.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Button, Text } from "@shopify/polaris";
import { SIGN_UP_LINK_TTL_MS } from "../../server/index.ts";
import { clientIp, protectionRuntime } from "../protection-api.server.ts";
import { formAction } from "../form-actions.server.ts";
import { checkDashboardOrigin, startDashboardSession } from "../dashboard/standalone.server.ts";
import { limitRefusal } from "../dashboard/sign-in.server.ts";
import { AuthFrame } from "../dashboard/AuthFrame.tsx";

export { links, headers, meta } from "../dashboard/auth-route.ts";

export async function loader({ params }: LoaderFunctionArgs) {
  const runtime = protectionRuntime();
  const signUp = await runtime.core.accounts.usableSignUp(params.token ?? "");
  return json({ businessName: signUp?.businessName ?? null, minutes: SIGN_UP_LINK_TTL_MS / 60_000 });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const runtime = protectionRuntime();
  checkDashboardOrigin(request);
  const ip = clientIp(request, context);
  const result = await formAction("sign-up-link", {}, () =>
    runtime.core.accounts.confirmSignUp(params.token ?? "", ip),
  );
  if (!result.ok) return result.response;
  if (result.value.limited) return limitRefusal(result.value, "sign-up-link", {});
  return redirect("/dashboard", {
    headers: { "Set-Cookie": await startDashboardSession(request, result.value.sessionToken, result.value.expiresAt) },
  });
}

export default function SignUpLink() {
  const { businessName, minutes } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  if (businessName === null)
    return (
      <AuthFrame title="This link no longer works">
        <Text as="p">{`Sign-up links work once, for ${minutes} minutes.`}</Text>
        <Text as="p">
          <a href="/dashboard/sign-up">Ask for a new link</a> or <a href="/dashboard/sign-in">sign in</a>.
        </Text>
      </AuthFrame>
    );
  return (
    <AuthFrame title="Open your dashboard account" formError={failure?.formError}>
      <Text as="p">Press the button to confirm your e-mail address and open the account for:</Text>
      <Text as="p" fontWeight="bold">
        {businessName}
      </Text>
      <Text as="p">You start in test mode, signed in on this device.</Text>
      <Form method="post">
        <Button submit variant="primary">
          Open the account
        </Button>
      </Form>
    </AuthFrame>
  );
}
