// /portal/cancel: the free-look cancellation's confirm step. The buyer ticks an explicit confirmation and submits;
// the action calls POST /api/v1/portal/cancel and goes back to the coverage page, which shows the fee refund.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatMoney } from "../ui/format.ts";
import { portalTitle } from "../portal/messages.ts";
import { portalTextFor } from "../portal/locale.server.ts";
import { buyerOf, portal } from "../portal/buyer.server.ts";
import {
  checkCsrf,
  csrfToken,
  failureSentence,
  pageData,
  pageHeaders,
  requireSession,
  unlessExpired,
} from "../portal/session.server.ts";
import { CsrfField, LocalTime, PortalShell, usePortalLocale, usePortalText } from "../portal/ui.tsx";
import { ErrorSummary, type FieldErrors } from "../ui/form-parts.tsx";
import { readForm } from "../form.server.ts";

export const meta: MetaFunction = ({ matches }) => portalTitle(matches, "cancel.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = await requireSession(request);
  const { t } = await portalTextFor(request);
  const plan = await pageData(request, await portal().plan(buyerOf(request, context, token)), t);
  if (!plan.cancellable) throw redirect("/portal/plan");
  const csrf = await csrfToken(request);
  return json({ csrf: csrf.token, plan }, { headers: pageHeaders(csrf) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await checkCsrf(request, form);
  const token = await requireSession(request);
  const { t } = await portalTextFor(request);
  if (form.get("confirm") !== "yes")
    return json(
      {
        errors: { confirm: t("cancel.confirmMissing") } as FieldErrors,
        formError: undefined as string | undefined,
      },
      400,
    );
  const referenceNumber = String(form.get("referenceNumber") ?? "");
  const result = await unlessExpired(request, await portal().cancel(buyerOf(request, context, token), referenceNumber));
  if (!result.ok) return json({ errors: {} as FieldErrors, formError: failureSentence(result, t) }, result.status);
  return redirect("/portal/plan?notice=cancelled");
}

export default function Cancel() {
  const { csrf, plan } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // What the cancellation refunds: the buyer's part (a split plan's merchant part is not the buyer's).
  const fee = formatMoney(plan.buyerFeeCents, plan.currency, usePortalLocale());
  const t = usePortalText();
  const error = actionData?.errors.confirm;
  return (
    <PortalShell merchantName={plan.merchantName} signedIn csrf={csrf}>
      <h1>{t("cancel.title")}</h1>
      <ErrorSummary errors={actionData?.errors} formError={actionData?.formError} />
      <p>{t("cancel.explain", { fee })}</p>
      <p>
        {t("plan.freeLookOpen")} <LocalTime iso={plan.freeLookEndsAt} />.
      </p>
      <Form method="post" className="card" noValidate>
        <CsrfField token={csrf} />
        <input type="hidden" name="referenceNumber" value={plan.referenceNumber} />
        <div className={error ? "field field-error" : "field"}>
          {error ? (
            <p className="error" id="confirm-error">
              {error}
            </p>
          ) : null}
          <label className="check" htmlFor="confirm">
            <input
              type="checkbox"
              id="confirm"
              name="confirm"
              value="yes"
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "confirm-error" : undefined}
            />
            <span>{t("cancel.confirm")}</span>
          </label>
        </div>
        <div className="actions">
          <button type="submit" className="button button-danger">
            {t("cancel.submit")}
          </button>
          <a href="/portal/plan">{t("cancel.back")}</a>
        </div>
      </Form>
    </PortalShell>
  );
}
