// /portal/plan: the coverage page. What is covered (the reasons with their names, the claim window, the full
// disclosure), the amounts in the plan's currency, the free-look deadline with its countdown and the cancel action
// while the plan is cancellable, the fee refund after a cancellation, and the buyer's claims with the reason of every
// decision.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useEffect } from "react";
import { useLoaderData } from "@remix-run/react";
import { formatDate, formatDateTime, formatMoney, remainingText } from "../portal/format.ts";
import { messages } from "../portal/messages.ts";
import { portalApi, type PortalPlan } from "../portal/portal-api.server.ts";
import { csrfToken, failureSentence, pageHeaders, requireSession, unlessExpired } from "../portal/session.server.ts";
import { Notice, PortalShell } from "../portal/ui.tsx";

export const meta: MetaFunction = () => [{ title: `${messages.plan.title} · ${messages.siteName}` }];

const NOTICES: Record<string, string> = { cancelled: messages.cancel.done, filed: messages.claim.created };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = await requireSession(request);
  const ctx = { request, context };
  const [plan, claims] = await Promise.all([
    portalApi.plan(ctx, token).then((result) => unlessExpired(request, result)),
    portalApi.claims(ctx, token).then((result) => unlessExpired(request, result)),
  ]);
  if (!plan.ok) throw new Response(failureSentence(plan), { status: plan.status });
  const csrf = await csrfToken(request);
  return json(
    {
      csrf: csrf.token,
      plan: plan.data,
      claims: claims.ok ? claims.data.data : [],
      claimsError: claims.ok ? undefined : failureSentence(claims),
      notice: NOTICES[new URL(request.url).searchParams.get("notice") ?? ""],
      now: Date.now(),
    },
    { headers: pageHeaders(csrf) },
  );
}

/**
 * Ticks the countdown once a minute with JavaScript on; without it the server-rendered text stands (the deadline is
 * printed beside it too). Self-contained (no outer names) because the page also inlines its source as a script, so
 * the countdown ticks before, or without, the app's bundle; React runs it again after a client-side navigation.
 * Written by hand: a dozen lines no library is needed for.
 */
function startCountdown(closedText: string) {
  const element = document.getElementById("free-look-countdown");
  if (!element || element.getAttribute("data-ticking")) return;
  element.setAttribute("data-ticking", "1");
  const endsAt = Date.parse(element.getAttribute("data-ends-at") ?? "");
  const tick = () => {
    const ms = endsAt - Date.now();
    if (!(ms > 0)) {
      element.textContent = closedText;
      return;
    }
    const total = Math.ceil(ms / 60_000);
    const hours = Math.floor(total / 60);
    const minutes = total % 60;
    element.textContent = hours > 0 ? `${hours} h ${minutes < 10 ? "0" : ""}${minutes} min` : `${minutes} min`;
    setTimeout(tick, ms % 60_000 || 60_000);
  };
  tick();
}

const COUNTDOWN_SCRIPT = `(${startCountdown.toString()})(${JSON.stringify(messages.plan.freeLookClosed)});`;

export default function Plan() {
  const { csrf, plan, claims, claimsError, notice, now } = useLoaderData<typeof loader>();
  const money = (cents: number) => formatMoney(cents, plan.currency);
  const remaining = plan.cancellable ? remainingText(plan.freeLookEndsAt, now) : undefined;
  return (
    <PortalShell merchantName={plan.merchantName} signedIn csrf={csrf}>
      <h1>{messages.plan.title}</h1>
      {notice ? <Notice>{notice}</Notice> : null}

      <section className="card" aria-labelledby="summary-title">
        <h2 id="summary-title">{plan.merchantName}</h2>
        <dl className="facts">
          <Fact term={messages.plan.reference} value={plan.referenceNumber} />
          <Fact term={messages.plan.order} value={plan.orderId} />
          <Fact term={messages.plan.status} value={messages.plan.statuses[plan.status] ?? plan.status} />
          <Fact term={messages.plan.purchased} value={formatDateTime(plan.purchasedAt)} />
          <Fact term={messages.plan.covered} value={money(plan.coveredAmountCents)} />
          <Fact term={messages.plan.remaining} value={money(plan.remainingCoveredCents)} />
          <Fact term={messages.plan.fee} value={money(plan.feeCents)} />
        </dl>
      </section>

      <FreeLook plan={plan} remaining={remaining} money={money} now={now} />

      <section className="card" aria-labelledby="claims-title">
        <h2 id="claims-title">{messages.plan.claimsTitle}</h2>
        {claimsError ? <p role="alert">{claimsError}</p> : null}
        {claims.length === 0 && !claimsError ? <p>{messages.plan.noClaims}</p> : null}
        {claims.length > 0 ? (
          <ul className="claims">
            {claims.map((claim) => (
              <li key={claim.id}>
                <h3>{claim.reasonName}</h3>
                <p className="muted">
                  {formatDate(claim.createdAt)} · {formatMoney(claim.amountCents, claim.currency)}
                </p>
                <p>
                  <span className={`badge badge-${claim.status}`}>
                    {messages.claim.statuses[claim.status] ?? claim.status}
                  </span>
                </p>
                {claim.decision ? (
                  <p>
                    {messages.plan.decisionReason} {claim.decision.message}
                  </p>
                ) : null}
                <a href={`/portal/claims/${claim.id}`}>
                  {messages.plan.viewClaim}
                  <span className="sr-only"> ({claim.reasonName})</span>
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        {plan.status === "active" ? (
          <p>
            <a className="button" href="/portal/claims/new">
              {messages.plan.newClaim}
            </a>
          </p>
        ) : (
          <p>{messages.plan.notActive}</p>
        )}
      </section>

      <section className="card" aria-labelledby="covered-title">
        <h2 id="covered-title">{messages.plan.reasonsTitle}</h2>
        <p>{messages.plan.reasonsIntro}</p>
        <ul className="reasons">
          {plan.coveredReasons.map((reason) => (
            <li key={reason.code}>{reason.name}</li>
          ))}
        </ul>
        <p>{messages.plan.claimWindow(plan.claimWindowDays)}</p>
        <p className="disclosure">{plan.disclosureText}</p>
        <p>
          <a href="/portal/terms">{messages.plan.fullTerms}</a>
        </p>
      </section>
    </PortalShell>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function FreeLook({
  plan,
  remaining,
  money,
  now,
}: {
  plan: PortalPlan;
  remaining: string | undefined;
  money: (cents: number) => string;
  now: number;
}) {
  useEffect(() => startCountdown(messages.plan.freeLookClosed), []);
  if (plan.status === "cancelled") {
    return (
      <section className="card" aria-labelledby="free-look-title">
        <h2 id="free-look-title">{messages.plan.freeLookTitle}</h2>
        {plan.cancelledAt ? <p>{messages.plan.cancelledOn(formatDateTime(plan.cancelledAt))}</p> : null}
        {plan.feeRefund ? (
          <p>
            {plan.feeRefund.status === "refunded" && plan.feeRefund.refundedAt
              ? messages.plan.refundDone(
                  formatMoney(plan.feeRefund.amountCents, plan.feeRefund.currency),
                  formatDateTime(plan.feeRefund.refundedAt),
                )
              : messages.plan.refundPending(formatMoney(plan.feeRefund.amountCents, plan.feeRefund.currency))}
          </p>
        ) : null}
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="free-look-title">
      <h2 id="free-look-title">{messages.plan.freeLookTitle}</h2>
      {plan.cancellable && remaining ? (
        <>
          <p>
            {messages.plan.freeLookOpen}{" "}
            <time dateTime={plan.freeLookEndsAt}>{formatDateTime(plan.freeLookEndsAt)}</time> ({money(plan.feeCents)}).
          </p>
          <p>
            {messages.plan.freeLookRemaining}{" "}
            <span
              id="free-look-countdown"
              className="countdown"
              role="timer"
              aria-live="off"
              data-ends-at={plan.freeLookEndsAt}
              suppressHydrationWarning
            >
              {remaining}
            </span>
          </p>
          <script dangerouslySetInnerHTML={{ __html: COUNTDOWN_SCRIPT }} />
          <p>
            <a className="button button-secondary" href="/portal/cancel">
              {messages.plan.cancelButton}
            </a>
          </p>
        </>
      ) : plan.status === "voided" ? (
        <p>{messages.plan.freeLookVoided}</p>
      ) : plan.status === "active" && Date.parse(plan.freeLookEndsAt) > now ? (
        // Active and within the 48 hours yet not cancellable: a request that is not declined holds the fee.
        <p>{messages.plan.freeLookHasClaims}</p>
      ) : (
        <p>{messages.plan.freeLookClosed}</p>
      )}
    </section>
  );
}
