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
import { messages } from "../portal/messages.ts";
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
import { CsrfField, EVIDENCE_ACCEPT, PortalShell, subscribeToNothing, usePortalLocale } from "../portal/ui.tsx";
import { DeliveryWindow } from "../portal/delivery-window.tsx";
import { ErrorSummary, Field, type FieldErrors } from "../ui/form-parts.tsx";
import { localeFrom } from "../portal/locale.ts";
import { readForm } from "../form.server.ts";

export const meta: MetaFunction = () => [{ title: `${messages.claim.newTitle} · ${messages.siteName}` }];

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
  const [planResult, rulebook] = await Promise.all([portal().plan(buyer), portal().reasons()]);
  const plan = await pageData(request, planResult);
  if (plan.status !== "active") throw redirect("/portal/plan");
  if (!rulebook.ok) throw new Response(failureSentence(rulebook), { status: rulebook.status });
  const csrf = await csrfToken(request);
  return json(
    // The server does not know the buyer's zone: until the page runs, the latest day is the latest anywhere (UTC+14).
    {
      csrf: csrf.token,
      plan,
      evidence: rulebook.data.evidence,
      latestDay: new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10),
    },
    { headers: pageHeaders(csrf) },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await checkCsrf(request, form);
  const buyer = buyerOf(request, context, await requireSession(request));
  const values = {
    reason: String(form.get("reason") ?? ""),
    occurredAt: String(form.get("occurredAt") ?? "").trim(),
    description: String(form.get("description") ?? ""),
    amount: String(form.get("amount") ?? "").trim(),
  };
  const plan = await unlessExpired(request, await portal().plan(buyer));
  if (!plan.ok) return json({ errors: {} as FieldErrors, formError: failureSentence(plan), values }, plan.status);
  const errors: FieldErrors = {};
  if (!values.reason) errors.reason = messages.claim.reasonMissing;
  if (!values.occurredAt) errors.occurredAt = messages.claim.occurredAtMissing;
  if (!values.description.trim()) errors.description = messages.claim.descriptionMissing;
  const amountCents = values.amount ? parseMoney(values.amount, plan.data.currency) : undefined;
  if (values.amount && amountCents === undefined)
    errors.amount = messages.claim.amountInvalid(
      amountExample(plan.data.currency, localeFrom(request.headers.get("Accept-Language"))),
    );
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
  if (!result.ok) return json({ ...placeFailure(result), values }, result.status);
  return redirect(`/portal/claims/${result.data.number}?notice=filed`);
}

export default function NewClaim() {
  const { csrf, plan, evidence, latestDay } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = usePortalLocale();
  const errors = actionData?.errors ?? {};
  const values = actionData?.values ?? { reason: "", occurredAt: "", description: "", amount: "" };
  const [reason, setReason] = useState(values.reason);
  // Once the page runs, the date picker ends on the buyer's own today.
  const maxDay = useSyncExternalStore(subscribeToNothing, browserToday, () => latestDay);
  const photosAsked = PHOTO_REASONS.has(reason);
  return (
    <PortalShell merchantName={plan.merchantName} signedIn csrf={csrf}>
      <p>
        <a href="/portal/plan">{messages.claim.back}</a>
      </p>
      <h1>{messages.claim.newTitle}</h1>
      <ErrorSummary errors={errors} formError={actionData?.formError} />
      <p>{messages.claim.newIntro}</p>
      <DeliveryWindow plan={plan} />
      <Form method="post" encType="multipart/form-data" className="card" noValidate>
        <CsrfField token={csrf} />
        <Field id="reason" label={messages.claim.reason} error={errors.reason}>
          {(props) => (
            <select
              {...props}
              required
              defaultValue={values.reason}
              onChange={(event) => setReason(event.target.value)}
            >
              <option value="">{messages.claim.reasonChoose}</option>
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
          label={messages.claim.occurredAt}
          hint={messages.claim.occurredAtHint}
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
          label={messages.claim.description}
          hint={messages.claim.descriptionHint}
          error={errors.description}
        >
          {(props) => <textarea {...props} required maxLength={5000} rows={6} defaultValue={values.description} />}
        </Field>
        <Field
          id="amount"
          label={messages.claim.amount}
          hint={messages.claim.amountHint(
            formatMoney(plan.remainingCoveredCents, plan.currency, locale),
            amountExample(plan.currency, locale),
          )}
          error={errors.amount}
        >
          {(props) => (
            <input {...props} type="text" inputMode="decimal" autoComplete="off" defaultValue={values.amount} />
          )}
        </Field>
        <Field
          id="evidence"
          label={photosAsked ? messages.claim.evidencePhotos : messages.claim.evidence}
          hint={`${photosAsked ? messages.claim.photosPlease : messages.claim.photosAsked} ${evidenceHint(evidence)}`}
          error={errors.evidence}
        >
          {(props) => <input {...props} type="file" multiple accept={EVIDENCE_ACCEPT} />}
        </Field>
        <button type="submit" className="button">
          {messages.claim.submit}
        </button>
      </Form>
    </PortalShell>
  );
}
