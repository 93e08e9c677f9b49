// /dashboard/sign-in/<token>: the link from the e-mail. Showing it spends nothing (mail scanners open links); the
// "Sign in" button spends it and starts the session.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Button, Text } from "@shopify/polaris";
import { clientIp, protectionRuntime } from "../protection-api.server.ts";
import { formAction } from "../form-actions.server.ts";
import { checkDashboardOrigin, startDashboardSession } from "../dashboard/standalone.server.ts";
import { AuthFrame } from "../dashboard/AuthFrame.tsx";

export { links, headers, meta } from "../dashboard/auth-route.ts";

export async function loader({ params }: LoaderFunctionArgs) {
  const runtime = protectionRuntime();
  return json({ usable: await runtime.core.accounts.linkUsable("merchant", params.token ?? "") });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const runtime = protectionRuntime();
  checkDashboardOrigin(request);
  const result = await formAction("sign-in-link", {}, () =>
    runtime.core.accounts.signInWithLink("merchant", params.token ?? "", clientIp(request, context)),
  );
  if (!result.ok) return result.response;
  return redirect("/dashboard", {
    headers: { "Set-Cookie": await startDashboardSession(request, result.value.sessionToken, result.value.expiresAt) },
  });
}

export default function SignInLink() {
  const { usable } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  if (!usable || failure)
    return (
      <AuthFrame title="This link no longer works" formError={failure?.formError}>
        <Text as="p">Sign-in links work once, for 15 minutes.</Text>
        <Text as="p">
          <a href="/dashboard/sign-in">Ask for a new link</a>
        </Text>
      </AuthFrame>
    );
  return (
    <AuthFrame title="Sign in to the dashboard">
      <Text as="p">Press the button to sign in on this device.</Text>
      <Form method="post">
        <Button submit variant="primary">
          Sign in
        </Button>
      </Form>
    </AuthFrame>
  );
}
