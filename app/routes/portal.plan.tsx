// /portal/plan: the coverage page. First what waits for the buyer ("Action needed": a claim whose question they have
// not answered), then the plan (the store's order name, amounts in the plan's currency and the buyer's locale), the
// free-look deadline with its countdown and the cancel action while the plan is cancellable, the fee refund after a
// cancellation, the buyer's claims named as they would say them ("Claim 2 on CLM-…", reason, date) with the reason of
// every decision and what an approved one brings, and what is covered (once).
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useEffect, type ReactNode } from "react";
import { useLoaderData } from "@remix-run/react";
import { remainingText } from "../portal/format.ts";
import { formatDate, formatMoney } from "../ui/format.ts";
import { messages } from "../portal/messages.ts";
import { buyerOf, portal, type PortalClaim, type PortalPlan } from "../portal/buyer.server.ts";
import { csrfToken, failureSentence, pageHeaders, requireSession, unlessExpired } from "../portal/session.server.ts";
import { LocalTime, PortalShell, usePortalLocale } from "../portal/ui.tsx";
import { Notice } from "../ui/form-parts.tsx";
import { ClaimPayout, ClaimQuestion, claimHref, questionOf } from "../portal/claims.tsx";
import { DeliveryWindow } from "../portal/delivery-window.tsx";

export const meta: MetaFunction = () => [{ title: `${messages.plan.title} · ${messages.siteName}` }];

const NOTICES: Record<string, string> = { cancelled: messages.cancel.done, filed: messages.claim.created };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const buyer = buyerOf(request, context, await requireSession(request));
  const [plan, claims] = await Promise.all([
    portal()
      .plan(buyer)
      .then((result) => unlessExpired(request, result)),
    portal()
      .claims(buyer)
      .then((result) => unlessExpired(request, result)),
  ]);
  if (!plan.ok) throw new Response(failureSentence(plan), { status: plan.status });
  const listed = claims.ok ? claims.data : [];
  // The question of each claim that waits for the buyer, from its timeline (rarely more than one).
  const waiting = await Promise.all(
    listed
      .filter((claim) => claim.status === "needs_information")
      .map(async (claim) => {
        const detail = await portal().claim(buyer, claim.id);
        return { claim, question: detail.ok ? questionOf(detail.data) : "" };
      }),
  );
  const csrf = await csrfToken(request);
  return json(
    {
      csrf: csrf.token,
      plan: plan.data,
      claims: listed,
      waiting,
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
  const { csrf, plan, claims, waiting, claimsError, notice, now } = useLoaderData<typeof loader>();
  const locale = usePortalLocale();
  const money = (cents: number) => formatMoney(cents, plan.currency, locale);
  const remaining = plan.cancellable ? remainingText(plan.freeLookEndsAt, now) : undefined;
  const active = plan.status === "active";
  return (
    <PortalShell merchantName={plan.merchantName} signedIn csrf={csrf}>
      <h1>{messages.plan.title}</h1>
      {notice ? <Notice>{notice}</Notice> : null}

      {waiting.length > 0 ? (
        <section className="card card-action" aria-labelledby="action-title" id="action-needed">
          <h2 id="action-title">{messages.plan.actionTitle}</h2>
          <p>{messages.plan.actionIntro}</p>
          <ul className="claims">
            {waiting.map(({ claim, question }) => (
              <li key={claim.id}>
                <h3>{messages.claim.name(claim.number, claim.referenceNumber)}</h3>
                <p className="muted">{claim.reasonName}</p>
                <ClaimQuestion question={question} />
                <p>
                  <a className="button" href={`${claimHref(claim)}#action`}>
                    {messages.plan.actionAnswer(messages.claim.nameInline(claim.number, claim.referenceNumber))}
                  </a>
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="card" aria-labelledby="summary-title">
        <h2 id="summary-title">{plan.merchantName}</h2>
        <dl className="facts">
          <Fact term={messages.plan.reference} value={plan.referenceNumber} whole />
          <Fact term={messages.plan.order} value={plan.orderName ?? plan.orderId} />
          <Fact term={messages.plan.status} value={messages.plan.statuses[plan.status] ?? plan.status} />
          <Fact term={messages.plan.purchased} value={<LocalTime iso={plan.purchasedAt} />} />
          <Fact term={messages.plan.covered} value={money(plan.coveredAmountCents)} />
          {/* An ended plan takes no claim: nothing is "still available" on it. */}
          {active ? <Fact term={messages.plan.remaining} value={money(plan.remainingCoveredCents)} /> : null}
          <Fact term={messages.plan.fee} value={money(plan.buyerFeeCents)} />
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
              <ClaimItem key={claim.id} claim={claim} merchantName={plan.merchantName} />
            ))}
          </ul>
        ) : null}
        {active ? (
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
        <p>{active ? messages.plan.reasonsIntro : messages.plan.reasonsIntroEnded}</p>
        <ul className="reasons">
          {plan.coveredReasons.map((reason) => (
            <li key={reason.code}>{reason.name}</li>
          ))}
        </ul>
        <p>{messages.plan.claimWindow(plan.claimWindowDays)}</p>
        <DeliveryWindow plan={plan} />
        <p className="disclosure">{plan.disclosureText}</p>
        <p>
          <a href="/portal/terms">{messages.plan.fullTerms}</a>
        </p>
      </section>
    </PortalShell>
  );
}

function ClaimItem({ claim, merchantName }: { claim: PortalClaim; merchantName: string }) {
  const locale = usePortalLocale();
  const name = messages.claim.name(claim.number, claim.referenceNumber);
  return (
    <li>
      <h3>{name}</h3>
      <p className="muted">
        {claim.reasonName} · {messages.plan.filedOn(formatDate(claim.createdAt, locale))} ·{" "}
        {formatMoney(claim.amountCents, claim.currency, locale)}
      </p>
      <p>
        <span className={`badge badge-${claim.status}`}>{messages.claim.statuses[claim.status] ?? claim.status}</span>
      </p>
      {claim.decision ? (
        <p>
          {messages.plan.decisionReason} {claim.decision.message}
        </p>
      ) : null}
      <ClaimPayout claim={claim} merchantName={merchantName} />
      <a href={claimHref(claim)}>
        {messages.plan.viewClaim(messages.claim.nameInline(claim.number, claim.referenceNumber))}
      </a>
    </li>
  );
}

/** A fact of the plan; `whole`: a value read out as one (a reference number) is never broken over lines. */
function Fact({ term, value, whole }: { term: string; value: ReactNode; whole?: boolean }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd className={whole ? "whole" : undefined}>{value}</dd>
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
        {plan.cancelledAt ? (
          <p>
            {messages.plan.cancelledOn} <LocalTime iso={plan.cancelledAt} />.
          </p>
        ) : null}
        {plan.feeRefund ? (
          <p>
            {plan.feeRefund.status === "refunded" && plan.feeRefund.refundedAt ? (
              <>
                {messages.plan.refundDone(money(plan.feeRefund.amountCents))}{" "}
                <LocalTime iso={plan.feeRefund.refundedAt} />.
              </>
            ) : (
              messages.plan.refundPending(money(plan.feeRefund.amountCents))
            )}
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
            {messages.plan.freeLookOpen} <LocalTime iso={plan.freeLookEndsAt} /> ({money(plan.buyerFeeCents)}).
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
      ) : plan.payer === "merchant" ? (
        <p>{messages.plan.freeLookMerchantPaid(plan.merchantName)}</p>
      ) : plan.status === "active" && Date.parse(plan.freeLookEndsAt) > now ? (
        // Active and within the 48 hours yet not cancellable: a request that is not declined holds the fee.
        <p>{messages.plan.freeLookHasClaims}</p>
      ) : (
        <p>{messages.plan.freeLookClosed}</p>
      )}
    </section>
  );
}
