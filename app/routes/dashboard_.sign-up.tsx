// /dashboard/sign-up: a merchant on any cart opens an account with an e-mail address and the business's name. The
// answer is the same whether the address was new (a new merchant, test mode) or already in a team (its sign-in links
// are sent instead), so the page tells nobody which addresses have accounts.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { Button, FormLayout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { signUp } from "../../server/index.ts";
import { protectionRuntime } from "../protection-api.server.ts";
import { clientIp, field, formAction } from "../form-actions.server.ts";
import { checkDashboardOrigin, currentMember } from "../dashboard/standalone.server.ts";
import { sendSignInLinks, signInLimitRefusal } from "../dashboard/sign-in.server.ts";
import { AuthFrame } from "../dashboard/AuthFrame.tsx";

export { links, headers, meta } from "../dashboard/auth-route.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  if (await currentMember(request)) throw redirect("/dashboard");
  return json({});
}

export async function action({ request, context }: ActionFunctionArgs) {
  const runtime = protectionRuntime();
  checkDashboardOrigin(request);
  const form = await request.formData();
  const values = { email: field(form, "email"), businessName: field(form, "businessName") };
  const ip = clientIp(request, context);
  const refusal = await signInLimitRefusal(runtime, "sign-up", { ip, email: values.email }, values);
  if (refusal) return refusal;
  const result = await formAction(
    "sign-up",
    { email: "email", businessName: "businessName" },
    () => runtime.db.transaction((tx) => signUp(tx, runtime.services, values, ip ?? "")),
    values,
  );
  if (!result.ok) return result.response;
  sendSignInLinks(runtime, result.value.links);
  return redirect("/dashboard/sign-in?notice=sent");
}

export default function SignUp() {
  const failure = useActionData<typeof action>();
  const [email, setEmail] = useState(failure?.values.email ?? "");
  const [businessName, setBusinessName] = useState(failure?.values.businessName ?? "");
  return (
    <AuthFrame title="Open a dashboard account" formError={failure?.formError}>
      <Text as="p">
        Sell purchase protection on any cart: the widget, the REST API or the SDKs. You start in test mode; going live
        takes a checklist, not a sales call.
      </Text>
      <Form method="post" noValidate>
        <FormLayout>
          <TextField
            label="Work e-mail address"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={failure?.errors.email}
          />
          <TextField
            label="Business name"
            name="businessName"
            autoComplete="organization"
            value={businessName}
            onChange={setBusinessName}
            error={failure?.errors.businessName}
          />
          <Button submit variant="primary">
            Create the account
          </Button>
        </FormLayout>
      </Form>
      <Text as="p">
        Already have an account? <a href="/dashboard/sign-in">Sign in</a>.
      </Text>
    </AuthFrame>
  );
}
