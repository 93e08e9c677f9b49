// /portal/claims/:id: one claim, addressed by its number on the plan (/portal/claims/2; an id from an older link still
// works) and named as the buyer says it ("Claim 2 on CLM-…"): a question waiting for the buyer first ("Action needed",
// with the answer form: message + files → POST …/messages; a claim e-mail's link lands here), then its status, the
// decision and its reason, what an approved claim brings (amount, remedy, who pays, by when), its files (downloaded
// through the session-checked route below) and its timeline in the buyer's time zone.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { chosenFiles, placeFailure } from "../portal/claim-form.server.ts";
import { evidenceHint } from "../portal/format.ts";
import { formatBytes, formatDate, formatMoney } from "../ui/format.ts";
import { ClaimPayout, ClaimQuestion, questionOf } from "../portal/claims.tsx";
import { messages } from "../portal/messages.ts";
import { buyerOf, portal, portalForm } from "../portal/buyer.server.ts";
import {
  checkCsrf,
  csrfToken,
  failureSentence,
  pageHeaders,
  requireSession,
  unlessExpired,
} from "../portal/session.server.ts";
import { CsrfField, EVIDENCE_ACCEPT, LocalTime, PortalShell, usePortalLocale } from "../portal/ui.tsx";
import { ErrorSummary, Field, Notice, type FieldErrors } from "../ui/form-parts.tsx";
import { DecisionBasis } from "../ui/decision-basis.tsx";
import { readForm } from "../form.server.ts";

export const meta: MetaFunction = () => [{ title: `${messages.claim.detailTitle} · ${messages.siteName}` }];

const NOTICES: Record<string, string> = { filed: messages.claim.created, added: messages.claim.added };
const CLOSED = new Set(["paid", "denied"]);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const buyer = buyerOf(request, context, await requireSession(request));
  const claimId = await unlessExpired(request, await portal().claimId(buyer, params.id ?? ""));
  if (!claimId.ok) throw new Response(failureSentence(claimId), { status: claimId.status });
  const [plan, claim, rulebook] = await Promise.all([
    portal()
      .plan(buyer)
      .then((result) => unlessExpired(request, result)),
    portal()
      .claim(buyer, claimId.data)
      .then((result) => unlessExpired(request, result)),
    portal().reasons(),
  ]);
  if (!plan.ok) throw new Response(failureSentence(plan), { status: plan.status });
  if (!claim.ok) throw new Response(failureSentence(claim), { status: claim.status });
  if (!rulebook.ok) throw new Response(failureSentence(rulebook), { status: rulebook.status });
  const csrf = await csrfToken(request);
  return json(
    {
      csrf: csrf.token,
      merchantName: plan.data.merchantName,
      claim: claim.data,
      question: claim.data.status === "needs_information" ? questionOf(claim.data) : undefined,
      evidence: rulebook.data.evidence,
      notice: NOTICES[new URL(request.url).searchParams.get("notice") ?? ""],
    },
    { headers: pageHeaders(csrf) },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  await checkCsrf(request, form);
  const buyer = buyerOf(request, context, await requireSession(request));
  const claimId = await unlessExpired(request, await portal().claimId(buyer, params.id ?? ""));
  if (!claimId.ok) throw new Response(failureSentence(claimId), { status: claimId.status });
  const values = { message: String(form.get("message") ?? "") };
  if (!values.message.trim())
    return json(
      {
        errors: { message: messages.claim.messageMissing } as FieldErrors,
        formError: undefined as string | undefined,
        values,
      },
      400,
    );
  const body = await portalForm({ message: values.message }, chosenFiles(form, "evidence"));
  const result = await unlessExpired(request, await portal().addMessage(buyer, claimId.data, body));
  if (!result.ok) return json({ ...placeFailure(result), values }, result.status);
  return redirect(`/portal/claims/${result.data.number}?notice=added`);
}

export default function ClaimDetail() {
  const { csrf, merchantName, claim, question, evidence, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = usePortalLocale();
  const evidenceHref = (evidenceId: string) =>
    `/portal/claims/${claim.number}/evidence/${encodeURIComponent(evidenceId)}`;
  const waiting = claim.status === "needs_information";
  const answer = (
    <AddInformation csrf={csrf} evidence={evidence} actionData={actionData} closed={CLOSED.has(claim.status)} />
  );
  return (
    <PortalShell merchantName={merchantName} signedIn csrf={csrf}>
      <p>
        <a href="/portal/plan">{messages.claim.back}</a>
      </p>
      <h1>{messages.claim.name(claim.number, claim.referenceNumber)}</h1>
      <p className="subtitle">{claim.reasonName}</p>
      {notice && !actionData ? <Notice>{notice}</Notice> : null}

      {waiting ? (
        <section className="card card-action" aria-labelledby="action-title" id="action">
          <h2 id="action-title">{messages.claim.actionTitle}</h2>
          <ClaimQuestion question={question} />
          {answer}
        </section>
      ) : null}

      <section className="card" aria-labelledby="claim-summary">
        <h2 id="claim-summary">
          {messages.claim.status}:{" "}
          <span className={`badge badge-${claim.status}`}>{messages.claim.statuses[claim.status] ?? claim.status}</span>
        </h2>
        <dl className="facts">
          <div>
            <dt>{messages.claim.reasonLabel}</dt>
            <dd>{claim.reasonName}</dd>
          </div>
          <div>
            <dt>{messages.claim.occurredLabel}</dt>
            <dd>{formatDate(claim.occurredAt, locale)}</dd>
          </div>
          <div>
            <dt>{messages.claim.amountLabel}</dt>
            <dd>{formatMoney(claim.amountCents, claim.currency, locale)}</dd>
          </div>
          <div>
            <dt>{messages.claim.filedLabel}</dt>
            <dd>
              <LocalTime iso={claim.createdAt} />
            </dd>
          </div>
        </dl>
        {claim.decision ? (
          <div className="decision">
            <h3>{messages.claim.decision}</h3>
            <p>{claim.decision.message}</p>
            <DecisionBasis
              basis={claim.decision.basis}
              heading={<p className="muted">{messages.claim.decisionBasis}</p>}
            />
            <ClaimPayout claim={claim} merchantName={merchantName} />
            <p className="muted">
              <LocalTime iso={claim.decision.decidedAt} />
            </p>
          </div>
        ) : null}
        <h3 className="spaced">{messages.claim.yourDescription}</h3>
        <p className="description">{claim.description}</p>
      </section>

      <section className="card" aria-labelledby="evidence-title">
        <h2 id="evidence-title">{messages.claim.evidenceTitle}</h2>
        {claim.evidence.length === 0 ? (
          <p>{messages.claim.noEvidence}</p>
        ) : (
          <ul>
            {claim.evidence.map((file) => (
              <li key={file.id}>
                <a href={evidenceHref(file.id)} download={file.fileName}>
                  {messages.claim.download(file.fileName)}
                </a>{" "}
                <span className="muted">({formatBytes(file.byteSize)})</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="timeline-title">
        <h2 id="timeline-title">{messages.claim.timeline}</h2>
        <ol className="timeline">
          {claim.timeline.map((entry) => (
            <li key={entry.id}>
              <p className="muted">
                <LocalTime iso={entry.at} /> · {messages.claim.actors[entry.actor] ?? entry.actor}
              </p>
              <p>
                <strong>
                  {entry.kind === "status_changed" && entry.status
                    ? messages.claim.statusBecame(messages.claim.statuses[entry.status] ?? entry.status)
                    : (messages.claim.kinds[entry.kind] ?? entry.kind)}
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
          <h2 id="add-title">{messages.claim.addInfoTitle}</h2>
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
  if (closed) return <p>{messages.claim.closed}</p>;
  const errors = actionData?.errors ?? {};
  return (
    <>
      <ErrorSummary errors={errors} formError={actionData?.formError} />
      <p>{messages.claim.addInfoIntro}</p>
      <Form method="post" encType="multipart/form-data" noValidate>
        <CsrfField token={csrf} />
        <Field id="message" label={messages.claim.message} error={errors.message}>
          {(props) => (
            <textarea {...props} required maxLength={5000} rows={5} defaultValue={actionData?.values.message} />
          )}
        </Field>
        <Field id="evidence" label={messages.claim.evidence} hint={evidenceHint(evidence)} error={errors.evidence}>
          {(props) => <input {...props} type="file" multiple accept={EVIDENCE_ACCEPT} />}
        </Field>
        <button type="submit" className="button">
          {messages.claim.addInfoSubmit}
        </button>
      </Form>
    </>
  );
}
