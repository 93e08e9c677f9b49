// /portal/claims/new: report a problem. The multipart form (reason, date, description, optional amount, evidence files)
// is re-sent server-side to POST /api/v1/portal/claims; a refusal is shown next to its field, the typed values kept.
// The amount is read as people write it ("$129.99", "129,99"); the date stays a day (YYYY-MM-DD, no time is made up);
// for a damaged, defective or wrong item the form asks for at least one photo (the rulebook does not require one); once
// the carrier recorded the delivery, the form says until when a parcel as it arrived can be claimed for.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useState, useSyncExternalStore } from "react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { chosenFiles, placeFailure } from "../portal/claim-form.server.ts";
import { evidenceHint, parseMoney } from "../portal/format.ts";
import { formatMoney } from "../ui/format.ts";
import { portalTitle } from "../portal/messages.ts";
import { portalTextFor } from "../portal/locale.server.ts";
import { localizedPlan } from "../portal/localize.server.ts";
import { buyerOf, portal, portalForm } from "../portal/buyer.server.ts";
import {
  checkCsrf,
  csrfToken,
  failureSentence,
  pageData,
  pageHeaders,
  requireSession,
  unlessExpired,
} from "../portal/session.server.ts";
import {
  CsrfField,
  EVIDENCE_ACCEPT,
  PortalShell,
  subscribeToNothing,
  usePortalLocale,
  usePortalText,
} from "../portal/ui.tsx";
import { DeliveryWindow } from "../portal/delivery-window.tsx";
import { ErrorSummary, Field, type FieldErrors } from "../ui/form-parts.tsx";
import { readForm } from "../form.server.ts";

export const meta: MetaFunction = ({ matches }) => portalTitle(matches, "claim.newTitle");

/** The longest description the API takes (its claim body's limit). */
const MAX_DESCRIPTION = 5000;

/** The reasons a photo shows best (a damaged, defective or wrong item): the form asks for at least one. */
const PHOTO_REASONS = new Set(["damaged_in_transit", "arrived_defective", "wrong_item_delivered"]);

/** How an amount is shown as an example in the buyer's way of writing money ("$25.50", "25,50 €"). */
const amountExample = (currency: string, locale: string) => formatMoney(2_550, currency, locale);

/** The buyer's today where they are (YYYY-MM-DD), for the date picker's latest day. */
const browserToday = () => {
  const date = new Date();
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const buyer = buyerOf(request, context, await requireSession(request));
  const { locale, t } = await portalTextFor(request);
  const [planResult, rulebook] = await Promise.all([portal().plan(buyer), portal().reasons(locale)]);
  const plan = localizedPlan(await pageData(request, planResult, t), locale);
  if (plan.status !== "active") throw redirect("/portal/plan");
  if (!rulebook.ok) throw new Response(failureSentence(rulebook, t), { status: rulebook.status });
  const csrf = await csrfToken(request);
  return json(
    // The server does not know the buyer's zone: until the page runs, the latest day is the latest anywhere (UTC+14).
    {
      csrf: csrf.token,
      plan,
      evidence: rulebook.data.evidence,
      claimWindowDays: rulebook.data.claimWindowDays,
      latestDay: new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10),
    },
    { headers: pageHeaders(csrf) },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await checkCsrf(request, form);
  const buyer = buyerOf(request, context, await requireSession(request));
  const { locale, t } = await portalTextFor(request);
  const values = {
    reason: String(form.get("reason") ?? ""),
    occurredAt: String(form.get("occurredAt") ?? "").trim(),
    description: String(form.get("description") ?? ""),
    amount: String(form.get("amount") ?? "").trim(),
  };
  const plan = await unlessExpired(request, await portal().plan(buyer));
  if (!plan.ok) return json({ errors: {} as FieldErrors, formError: failureSentence(plan, t), values }, plan.status);
  const errors: FieldErrors = {};
  if (!values.reason) errors.reason = t("claim.reasonMissing");
  if (!values.occurredAt) errors.occurredAt = t("claim.occurredAtMissing");
  if (!values.description.trim()) errors.description = t("claim.descriptionMissing");
  const amountCents = values.amount ? parseMoney(values.amount, plan.data.currency) : undefined;
  if (values.amount && amountCents === undefined)
    errors.amount = t("claim.amountInvalid", { example: amountExample(plan.data.currency, locale) });
  if (Object.keys(errors).length > 0) return json({ errors, formError: undefined as string | undefined, values }, 400);

  const body = await portalForm(
    {
      referenceNumber: plan.data.referenceNumber,
      reason: values.reason,
      occurredAt: values.occurredAt,
      description: values.description,
      ...(amountCents !== undefined ? { amountCents: String(amountCents) } : {}),
    },
    chosenFiles(form, "evidence"),
  );
  const result = await unlessExpired(request, await portal().fileClaim(buyer, body));
  if (!result.ok) return json({ ...placeFailure(result, t), values }, result.status);
  return redirect(`/portal/claims/${result.data.number}?notice=filed`);
}

export default function NewClaim() {
  const { csrf, plan, evidence, claimWindowDays, latestDay } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = usePortalLocale();
  const t = usePortalText();
  const errors = actionData?.errors ?? {};
  const values = actionData?.values ?? { reason: "", occurredAt: "", description: "", amount: "" };
  const [reason, setReason] = useState(values.reason);
  // Once the page runs, the date picker ends on the buyer's own today.
  const maxDay = useSyncExternalStore(subscribeToNothing, browserToday, () => latestDay);
  const photosAsked = PHOTO_REASONS.has(reason);
  return (
    <PortalShell merchantName={plan.merchantName} signedIn csrf={csrf}>
      <p>
        <a href="/portal/plan">{t("claim.back")}</a>
      </p>
      <h1>{t("claim.newTitle")}</h1>
      <ErrorSummary errors={errors} formError={actionData?.formError} />
      <p>{t("claim.newIntro")}</p>
      <DeliveryWindow plan={plan} />
      <Form method="post" encType="multipart/form-data" className="card" noValidate>
        <CsrfField token={csrf} />
        <Field id="reason" label={t("claim.reason")} error={errors.reason}>
          {(props) => (
            <select
              {...props}
              required
              defaultValue={values.reason}
              onChange={(event) => setReason(event.target.value)}
            >
              <option value="">{t("claim.reasonChoose")}</option>
              {plan.coveredReasons.map((reason) => (
                <option key={reason.code} value={reason.code}>
                  {reason.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          id="occurredAt"
          label={t("claim.occurredAt")}
          hint={t("claim.occurredAtHint", { days: claimWindowDays })}
          error={errors.occurredAt}
        >
          {(props) => (
            <input
              {...props}
              type="date"
              required
              max={maxDay}
              defaultValue={values.occurredAt}
              suppressHydrationWarning
            />
          )}
        </Field>
        <Field
          id="description"
          label={t("claim.description")}
          hint={t("claim.descriptionHint", { max: MAX_DESCRIPTION })}
          error={errors.description}
        >
          {(props) => (
            <textarea {...props} required maxLength={MAX_DESCRIPTION} rows={6} defaultValue={values.description} />
          )}
        </Field>
        <Field
          id="amount"
          label={t("claim.amount")}
          hint={t("claim.amountHint", {
            remaining: formatMoney(plan.remainingCoveredCents, plan.currency, locale),
            example: amountExample(plan.currency, locale),
          })}
          error={errors.amount}
        >
          {(props) => (
            <input {...props} type="text" inputMode="decimal" autoComplete="off" defaultValue={values.amount} />
          )}
        </Field>
        <Field
          id="evidence"
          label={t(photosAsked ? "claim.evidencePhotos" : "claim.evidence")}
          hint={`${t(photosAsked ? "claim.photosPlease" : "claim.photosAsked")} ${evidenceHint(evidence, t)}`}
          error={errors.evidence}
        >
          {(props) => <input {...props} type="file" multiple accept={EVIDENCE_ACCEPT} />}
        </Field>
        <button type="submit" className="button">
          {t("claim.submit")}
        </button>
      </Form>
    </PortalShell>
  );
}
