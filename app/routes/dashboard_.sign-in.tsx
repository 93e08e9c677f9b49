// /dashboard/sign-in: a member asks for a sign-in link (one per team the address belongs to). The same sentence
// answers every address, so the page tells nobody which have accounts.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Button, FormLayout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { SIGN_IN_LINK_TTL_MS } from "../../server/index.ts";
import { clientIp, protectionRuntime } from "../protection-api.server.ts";
import { field, formAction } from "../form-actions.server.ts";
import { checkDashboardOrigin, currentMember } from "../dashboard/standalone.server.ts";
import { limitRefusal, sendSignInLinks } from "../dashboard/sign-in.server.ts";
import { AuthFrame } from "../dashboard/AuthFrame.tsx";
import { readForm } from "../form.server.ts";

export { links, headers, meta } from "../dashboard/auth-route.ts";

const NOTICES: Record<string, string> = {
  sent: `If this address has a dashboard account, a sign-in link is on its way. It works once, for ${SIGN_IN_LINK_TTL_MS / 60_000} minutes.`,
  expired: "Your session has ended. Sign in again.",
  "signed-out": "You are signed out on every device.",
};

export async function loader({ request }: LoaderFunctionArgs) {
  if (await currentMember(request)) throw redirect("/dashboard");
  return json({ notice: NOTICES[new URL(request.url).searchParams.get("notice") ?? ""] });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const runtime = protectionRuntime();
  checkDashboardOrigin(request);
  const form = await readForm(request);
  const values = { email: field(form, "email") };
  const ip = clientIp(request, context);
  const result = await formAction(
    "sign-in",
    { email: "email" },
    () => runtime.core.accounts.requestSignIn("merchant", values, ip),
    values,
  );
  if (!result.ok) return result.response;
  if (result.value.limited) return limitRefusal(result.value, "sign-in", values);
  sendSignInLinks(runtime, result.value.links);
  return redirect("/dashboard/sign-in?notice=sent");
}

export default function SignIn() {
  const { notice } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const [email, setEmail] = useState(failure?.values.email ?? "");
  return (
    <AuthFrame title="Sign in to the dashboard" notice={failure ? undefined : notice} formError={failure?.formError}>
      <Text as="p">Enter your work e-mail address. We e-mail you a link that signs you in.</Text>
      <Form method="post" noValidate>
        <FormLayout>
          <TextField
            label="E-mail address"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={failure?.errors.email}
          />
          <Button submit variant="primary">
            E-mail me a sign-in link
          </Button>
        </FormLayout>
      </Form>
      <Text as="p">
        New here? <a href="/dashboard/sign-up">Open an account</a>.
      </Text>
    </AuthFrame>
  );
}
