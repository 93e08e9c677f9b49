// /portal: the look-up (e-mail + reference number or the store's order number, one field; `?reference=` prefilled from
// the Shopify order-status link and the confirm's coverageUrl). A match starts the portal session (cookie) and goes to
// the coverage page; any mismatch shows the API's one sentence, the same whether the reference or order exists or not.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { portalTitle } from "../portal/messages.ts";
import { buyerOf, portal } from "../portal/buyer.server.ts";
import { portalTextFor } from "../portal/locale.server.ts";
import {
  checkCsrf,
  csrfToken,
  failureSentence,
  pageHeaders,
  sessionToken,
  startSession,
} from "../portal/session.server.ts";
import { CsrfField, PortalShell, usePortalText } from "../portal/ui.tsx";
import { ErrorSummary, Field, Notice, type FieldErrors } from "../ui/form-parts.tsx";
import { readForm } from "../form.server.ts";

export const meta: MetaFunction = ({ matches }) => portalTitle(matches, "lookup.title");

const NOTICES = {
  expired: "lookup.sessionExpired",
  "signed-out": "lookup.signedOut",
  "link-failed": "lookup.linkFailed",
} as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const csrf = await csrfToken(request);
  const notice = Object.hasOwn(NOTICES, url.searchParams.get("notice") ?? "")
    ? NOTICES[url.searchParams.get("notice") as keyof typeof NOTICES]
    : undefined;
  // A buyer still signed in goes straight to the coverage page, unless they came with another reference.
  if (!notice && !url.searchParams.get("reference") && (await sessionToken(request)))
    throw redirect("/portal/plan", { headers: pageHeaders(csrf) });
  return json(
    { csrf: csrf.token, reference: (url.searchParams.get("reference") ?? "").slice(0, 64), notice },
    { headers: pageHeaders(csrf) },
  );
}

/** What the buyer typed is a reference number when it starts as ours do (CLM-); anything else is the store's order. */
const REFERENCE_PREFIX = /^CLM-/i;

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await checkCsrf(request, form);
  const { t } = await portalTextFor(request);
  const email = String(form.get("email") ?? "").trim();
  const typed = String(form.get("reference") ?? "").trim();
  const values = { email, reference: typed };
  const errors: FieldErrors = {};
  if (!email) errors.email = t("lookup.emailMissing");
  if (!typed) errors.reference = t("lookup.referenceMissing");
  if (Object.keys(errors).length > 0)
    return json({ errors, formError: undefined as string | undefined, values }, { status: 400 });
  const result = await portal().lookup(
    buyerOf(request, context),
    REFERENCE_PREFIX.test(typed) ? { email, referenceNumber: typed } : { email, orderNumber: typed },
  );
  if (!result.ok) return json({ errors, formError: failureSentence(result, t), values }, { status: result.status });
  return redirect("/portal/plan", { headers: await startSession(request, result.data) });
}

export default function Lookup() {
  const { csrf, reference, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const values = actionData?.values ?? { email: "", reference };
  const t = usePortalText();
  return (
    <PortalShell csrf={csrf}>
      <h1>{t("lookup.title")}</h1>
      {notice && !actionData ? <Notice>{t(notice)}</Notice> : null}
      <ErrorSummary errors={actionData?.errors} formError={actionData?.formError} />
      <p>{t("lookup.intro")}</p>
      <Form method="post" className="card" noValidate>
        <CsrfField token={csrf} />
        <Field id="email" label={t("lookup.email")} hint={t("lookup.emailHint")} error={actionData?.errors.email}>
          {(props) => (
            <input
              {...props}
              type="email"
              autoComplete="email"
              required
              // Opened from the confirm's coverageUrl or the order-status link, the reference is there already.
              autoFocus={Boolean(values.reference) && !values.email}
              defaultValue={values.email}
              spellCheck={false}
            />
          )}
        </Field>
        <Field
          id="reference"
          label={t("lookup.reference")}
          hint={t("lookup.referenceHint")}
          error={actionData?.errors.reference}
        >
          {(props) => (
            <input
              {...props}
              type="text"
              required
              autoCapitalize="characters"
              spellCheck={false}
              defaultValue={values.reference}
            />
          )}
        </Field>
        <button type="submit" className="button">
          {t("lookup.submit")}
        </button>
      </Form>
    </PortalShell>
  );
}
