// /portal/claims/:id: one claim, addressed by its number on the plan (/portal/claims/2; an id from an older link still
// works) and named as the buyer says it ("Claim 2 on CLM-…"): a question waiting for the buyer first ("Action needed",
// with the answer form: message + files → POST …/messages; a claim e-mail's link lands here), then its status, the
// decision and its reason, what an approved claim brings (amount, remedy, who pays, by when), its files (downloaded
// through the session-checked route below) and its timeline in the buyer's time zone.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { chosenFiles, placeFailure } from "../portal/claim-form.server.ts";
import { evidenceHint, formatSize } from "../portal/format.ts";
import { formatDate, formatMoney } from "../ui/format.ts";
import { ClaimPayout, ClaimQuestion, questionOf } from "../portal/claims.tsx";
import { portalTitle } from "../portal/messages.ts";
import { portalTextFor } from "../portal/locale.server.ts";
import { localizedClaim } from "../portal/localize.server.ts";
import { buyerOf, portal, portalForm } from "../portal/buyer.server.ts";
import {
  checkCsrf,
  csrfToken,
  failureSentence,
  pageHeaders,
  requireSession,
  unlessExpired,
} from "../portal/session.server.ts";
import { CsrfField, EVIDENCE_ACCEPT, LocalTime, PortalShell, usePortalLocale, usePortalText } from "../portal/ui.tsx";
import { ErrorSummary, Field, Notice, type FieldErrors } from "../ui/form-parts.tsx";
import { DecisionBasis } from "../ui/decision-basis.tsx";
import { readForm } from "../form.server.ts";

export const meta: MetaFunction = ({ matches }) => portalTitle(matches, "claim.detailTitle");

const NOTICES = { filed: "claim.created", added: "claim.added" } as const;
const CLOSED = new Set(["paid", "denied"]);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const buyer = buyerOf(request, context, await requireSession(request));
  const { locale, t } = await portalTextFor(request);
  const claimId = await unlessExpired(request, await portal().claimId(buyer, params.id ?? ""));
  if (!claimId.ok) throw new Response(failureSentence(claimId, t), { status: claimId.status });
  const [plan, claim, rulebook] = await Promise.all([
    portal()
      .plan(buyer)
      .then((result) => unlessExpired(request, result)),
    portal()
      .claim(buyer, claimId.data, locale)
      .then((result) => unlessExpired(request, result)),
    portal().reasons(locale),
  ]);
  if (!plan.ok) throw new Response(failureSentence(plan, t), { status: plan.status });
  if (!claim.ok) throw new Response(failureSentence(claim, t), { status: claim.status });
  if (!rulebook.ok) throw new Response(failureSentence(rulebook, t), { status: rulebook.status });
  const csrf = await csrfToken(request);
  const notice = new URL(request.url).searchParams.get("notice") ?? "";
  return json(
    {
      csrf: csrf.token,
      merchantName: plan.data.merchantName,
      claim: localizedClaim(claim.data, locale, plan.data.merchantName, rulebook.data.payout),
      question: claim.data.status === "needs_information" ? questionOf(claim.data) : undefined,
      evidence: rulebook.data.evidence,
      bankDays: rulebook.data.payout.bankBusinessDays,
      notice: Object.hasOwn(NOTICES, notice) ? NOTICES[notice as keyof typeof NOTICES] : undefined,
    },
    { headers: pageHeaders(csrf) },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  await checkCsrf(request, form);
  const buyer = buyerOf(request, context, await requireSession(request));
  const { t } = await portalTextFor(request);
  const claimId = await unlessExpired(request, await portal().claimId(buyer, params.id ?? ""));
  if (!claimId.ok) throw new Response(failureSentence(claimId, t), { status: claimId.status });
  const values = { message: String(form.get("message") ?? "") };
  if (!values.message.trim())
    return json(
      {
        errors: { message: t("claim.messageMissing") } as FieldErrors,
        formError: undefined as string | undefined,
        values,
      },
      400,
    );
  const body = await portalForm({ message: values.message }, chosenFiles(form, "evidence"));
  const result = await unlessExpired(request, await portal().addMessage(buyer, claimId.data, body));
  if (!result.ok) return json({ ...placeFailure(result, t), values }, result.status);
  return redirect(`/portal/claims/${result.data.number}?notice=added`);
}

export default function ClaimDetail() {
  const { csrf, merchantName, claim, question, evidence, bankDays, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = usePortalLocale();
  const t = usePortalText();
  const evidenceHref = (evidenceId: string) =>
    `/portal/claims/${claim.number}/evidence/${encodeURIComponent(evidenceId)}`;
  const waiting = claim.status === "needs_information";
  const answer = (
    <AddInformation csrf={csrf} evidence={evidence} actionData={actionData} closed={CLOSED.has(claim.status)} />
  );
  return (
    <PortalShell merchantName={merchantName} signedIn csrf={csrf}>
      <p>
        <a href="/portal/plan">{t("claim.back")}</a>
      </p>
      <h1>{t("claim.name", { number: claim.number, reference: claim.referenceNumber })}</h1>
      <p className="subtitle">{claim.reasonName}</p>
      {notice && !actionData ? <Notice>{t(notice)}</Notice> : null}

      {waiting ? (
        <section className="card card-action" aria-labelledby="action-title" id="action">
          <h2 id="action-title">{t("claim.actionTitle")}</h2>
          <ClaimQuestion question={question} />
          {answer}
        </section>
      ) : null}

      <section className="card" aria-labelledby="claim-summary">
        <h2 id="claim-summary">
          {t("claim.status")}:{" "}
          <span className={`badge badge-${claim.status}`}>{t("claim.statusValue", { status: claim.status })}</span>
        </h2>
        <dl className="facts">
          <div>
            <dt>{t("claim.reasonLabel")}</dt>
            <dd>{claim.reasonName}</dd>
          </div>
          <div>
            <dt>{t("claim.occurredLabel")}</dt>
            <dd>{formatDate(claim.occurredAt, locale)}</dd>
          </div>
          <div>
            <dt>{t("claim.amountLabel")}</dt>
            <dd>{formatMoney(claim.amountCents, claim.currency, locale)}</dd>
          </div>
          <div>
            <dt>{t("claim.filedLabel")}</dt>
            <dd>
              <LocalTime iso={claim.createdAt} />
            </dd>
          </div>
        </dl>
        {claim.decision ? (
          <div className="decision">
            <h3>{t("claim.decision")}</h3>
            <p>{claim.decision.message}</p>
            <DecisionBasis basis={claim.decision.basis} heading={<p className="muted">{t("claim.decisionBasis")}</p>} />
            <ClaimPayout claim={claim} merchantName={merchantName} bankDays={bankDays} />
            <p className="muted">
              <LocalTime iso={claim.decision.decidedAt} />
            </p>
          </div>
        ) : null}
        <h3 className="spaced">{t("claim.yourDescription")}</h3>
        <p className="description">{claim.description}</p>
      </section>

      <section className="card" aria-labelledby="evidence-title">
        <h2 id="evidence-title">{t("claim.evidenceTitle")}</h2>
        {claim.evidence.length === 0 ? (
          <p>{t("claim.noEvidence")}</p>
        ) : (
          <ul>
            {claim.evidence.map((file) => (
              <li key={file.id}>
                <a href={evidenceHref(file.id)} download={file.fileName}>
                  {t("claim.download", { name: file.fileName })}
                </a>{" "}
                <span className="muted">({formatSize(file.byteSize, t)})</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="timeline-title">
        <h2 id="timeline-title">{t("claim.timeline")}</h2>
        <ol className="timeline">
          {claim.timeline.map((entry) => (
            <li key={entry.id}>
              <p className="muted">
                <LocalTime iso={entry.at} /> · {t("claim.actor", { actor: entry.actor })}
              </p>
              <p>
                <strong>
                  {entry.kind === "status_changed" && entry.status
                    ? t("claim.statusBecame", { status: t("claim.statusValue", { status: entry.status }) })
                    : t("claim.kind", { kind: entry.kind })}
                </strong>
              </p>
              {entry.text ? <p className="description">{entry.text}</p> : null}
              {entry.evidence.length > 0 ? (
                <p className="muted">{entry.evidence.map((file) => file.fileName).join(", ")}</p>
              ) : null}
            </li>
          ))}
        </ol>
      </section>

      {waiting ? null : (
        <section className="card" aria-labelledby="add-title">
          <h2 id="add-title">{t("claim.addInfoTitle")}</h2>
          {answer}
        </section>
      )}
    </PortalShell>
  );
}

/** The message + files form (or, on a closed claim, the sentence saying it takes no more). */
function AddInformation({
  csrf,
  evidence,
  actionData,
  closed,
}: {
  csrf: string;
  evidence: ReturnType<typeof useLoaderData<typeof loader>>["evidence"];
  actionData: ReturnType<typeof useActionData<typeof action>>;
  closed: boolean;
}) {
  const t = usePortalText();
  if (closed) return <p>{t("claim.closed")}</p>;
  const errors = actionData?.errors ?? {};
  return (
    <>
      <ErrorSummary errors={errors} formError={actionData?.formError} />
      <p>{t("claim.addInfoIntro")}</p>
      <Form method="post" encType="multipart/form-data" noValidate>
        <CsrfField token={csrf} />
        <Field id="message" label={t("claim.message")} error={errors.message}>
          {(props) => (
            <textarea {...props} required maxLength={5000} rows={5} defaultValue={actionData?.values.message} />
          )}
        </Field>
        <Field id="evidence" label={t("claim.evidence")} hint={evidenceHint(evidence, t)} error={errors.evidence}>
          {(props) => <input {...props} type="file" multiple accept={EVIDENCE_ACCEPT} />}
        </Field>
        <button type="submit" className="button">
          {t("claim.addInfoSubmit")}
        </button>
      </Form>
    </>
  );
}
