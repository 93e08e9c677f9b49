// /dashboard/sign-up: a merchant on any cart asks to open an account with an e-mail address and the business's name.
// Nothing is created yet: one fixed e-mail goes to the address with a link (/dashboard/sign-up/<token>) that opens the
// account. The answer is the same whether the address was new or already in a team (its sign-in links are sent
// instead), so the page tells nobody which addresses have accounts. After a request the page shows where the link went
// and a way to start again, not the form: the address rides a short-lived cookie to that page, never the URL (which
// logs and browser history keep).
import { createCookie, json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Button, FormLayout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { SIGN_UP_LINK_TTL_MS } from "../../server/index.ts";
import { clientIp, protectionRuntime } from "../protection-api.server.ts";
import { field, formAction } from "../form-actions.server.ts";
import { checkDashboardOrigin, currentMember } from "../dashboard/standalone.server.ts";
import { isHttps } from "../request-scheme.server.ts";
import { limitRefusal, sendSignUpLinks } from "../dashboard/sign-in.server.ts";
import { AuthFrame } from "../dashboard/AuthFrame.tsx";
import { readForm } from "../form.server.ts";

export { links, headers, meta } from "../dashboard/auth-route.ts";

const PAGE = "/dashboard/sign-up";

/**
 * The notice after a request; without the cookie (cookies off, or expired) it cannot name the address. It is the same
 * for an address that already has an account (its e-mail holds sign-in links instead), so it tells nobody which
 * addresses have accounts.
 */
const sentNotice = (address: string | undefined) =>
  `We sent a link to ${address ?? "the address you entered"}. Open it to continue.`;

/** The address the last request's link went to, for the page the request redirects to; it lives as long as the link. */
const sentToCookie = (request: Request) =>
  createCookie("dashboard_sign_up_sent", {
    httpOnly: true,
    sameSite: "lax",
    path: PAGE,
    secure: isHttps(request),
    maxAge: SIGN_UP_LINK_TTL_MS / 1000,
  });

export async function loader({ request }: LoaderFunctionArgs) {
  if (await currentMember(request)) throw redirect("/dashboard");
  const cookie = sentToCookie(request);
  const sentTo: unknown = await cookie.parse(request.headers.get("Cookie"));
  const address = typeof sentTo === "string" && sentTo.length > 0 ? sentTo : undefined;
  if (new URL(request.url).searchParams.get("notice") === "sent")
    return json({ notice: sentNotice(address) as string | undefined, minutes: SIGN_UP_LINK_TTL_MS / 60_000 });
  // Starting again: the form, and the address of the last request forgotten.
  const headers = address ? { "Set-Cookie": await cookie.serialize("", { maxAge: 0 }) } : undefined;
  return json({ notice: undefined as string | undefined, minutes: SIGN_UP_LINK_TTL_MS / 60_000 }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const runtime = protectionRuntime();
  checkDashboardOrigin(request);
  const form = await readForm(request);
  const values = { email: field(form, "email"), businessName: field(form, "businessName") };
  const ip = clientIp(request, context);
  const result = await formAction(
    "sign-up",
    { email: "email", businessName: "businessName" },
    () => runtime.core.accounts.requestSignUp(values, ip),
    values,
  );
  if (!result.ok) return result.response;
  if (result.value.limited) return limitRefusal(result.value, "sign-up", values);
  sendSignUpLinks(runtime, result.value.request);
  // The address as typed (trimmed), the same whether it had an account or not.
  return redirect(`${PAGE}?notice=sent`, {
    headers: { "Set-Cookie": await sentToCookie(request).serialize(values.email.trim()) },
  });
}

export default function SignUp() {
  const { notice, minutes } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const [email, setEmail] = useState(failure?.values.email ?? "");
  const [businessName, setBusinessName] = useState(failure?.values.businessName ?? "");
  if (notice && !failure) {
    return (
      <AuthFrame title="Open a dashboard account" notice={notice}>
        <Text as="p">{`The link works once, for ${minutes} minutes. Nothing is created until you open it.`}</Text>
        <Text as="p">
          Wrong address, or no e-mail after a few minutes? <a href={PAGE}>Start again</a>.
        </Text>
        <Text as="p">
          Already have an account? <a href="/dashboard/sign-in">Sign in</a>.
        </Text>
      </AuthFrame>
    );
  }
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
            E-mail me a link to open the account
          </Button>
        </FormLayout>
      </Form>
      <Text as="p">
        Already have an account? <a href="/dashboard/sign-in">Sign in</a>.
      </Text>
    </AuthFrame>
  );
}
