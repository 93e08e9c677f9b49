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
import { portalTitle, type PortalText } from "../portal/messages.ts";
import { buyerOf, portal, type PortalClaim, type PortalPlan } from "../portal/buyer.server.ts";
import { csrfToken, failureSentence, pageHeaders, requireSession, unlessExpired } from "../portal/session.server.ts";
import { portalTextFor } from "../portal/locale.server.ts";
import { localizedClaim, localizedPlan } from "../portal/localize.server.ts";
import { rulebookText } from "../../server/index.ts";
import { LocalTime, PortalShell, usePortalLocale, usePortalText } from "../portal/ui.tsx";
import { Notice } from "../ui/form-parts.tsx";
import { ClaimPayout, ClaimQuestion, claimHref, questionOf } from "../portal/claims.tsx";
import { DeliveryWindow } from "../portal/delivery-window.tsx";

export const meta: MetaFunction = ({ matches }) => portalTitle(matches, "plan.title");

const NOTICES = { cancelled: "cancel.done", filed: "claim.created" } as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const buyer = buyerOf(request, context, await requireSession(request));
  const { locale, t } = await portalTextFor(request);
  const [plan, claims, rulebook] = await Promise.all([
    portal()
      .plan(buyer)
      .then((result) => unlessExpired(request, result)),
    portal()
      .claims(buyer)
      .then((result) => unlessExpired(request, result)),
    portal().reasons(locale),
  ]);
  if (!plan.ok) throw new Response(failureSentence(plan, t), { status: plan.status });
  if (!rulebook.ok) throw new Response(failureSentence(rulebook, t), { status: rulebook.status });
  const merchantName = plan.data.merchantName;
  const listed = (claims.ok ? claims.data : []).map((claim) =>
    localizedClaim(claim, locale, merchantName, rulebook.data.payout),
  );
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
  const notice = new URL(request.url).searchParams.get("notice") ?? "";
  return json(
    {
      csrf: csrf.token,
      plan: localizedPlan(plan.data, locale),
      claimWindow: rulebookText(locale).claimWindowSummary(),
      freeLookHours: rulebook.data.freeLookHours,
      bankDays: rulebook.data.payout.bankBusinessDays,
      claims: listed,
      waiting,
      claimsError: claims.ok ? undefined : failureSentence(claims, t),
      notice: Object.hasOwn(NOTICES, notice) ? NOTICES[notice as keyof typeof NOTICES] : undefined,
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
function startCountdown(closedText: string, hoursText: string, minutesText: string) {
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
    const padded = `${minutes < 10 ? "0" : ""}${minutes}`;
    element.textContent =
      hours > 0
        ? hoursText.replace("{h}", String(hours)).replace("{m}", padded)
        : minutesText.replace("{m}", String(minutes));
    setTimeout(tick, ms % 60_000 || 60_000);
  };
  tick();
}

/** The countdown's texts in the buyer's language: the closed sentence, then its two forms with {h} and {m} to fill. */
const countdownTexts = (t: PortalText, freeLookHours: number) =>
  [
    t("plan.freeLookClosed", { hours: freeLookHours }),
    t("countdownHours", { hours: "{h}", minutes: "{m}" }),
    t("countdownMinutes", { minutes: "{m}" }),
  ] as const;

const countdownScript = (t: PortalText, freeLookHours: number) =>
  `(${startCountdown.toString()})(${countdownTexts(t, freeLookHours)
    .map((text) => JSON.stringify(text).replace(/</g, "\\u003c"))
    .join(",")});`;

export default function Plan() {
  const { csrf, plan, claimWindow, freeLookHours, bankDays, claims, waiting, claimsError, notice, now } =
    useLoaderData<typeof loader>();
  const locale = usePortalLocale();
  const t = usePortalText();
  const money = (cents: number) => formatMoney(cents, plan.currency, locale);
  const remaining = plan.cancellable ? remainingText(plan.freeLookEndsAt, now, t) : undefined;
  const active = plan.status === "active";
  return (
    <PortalShell merchantName={plan.merchantName} signedIn csrf={csrf}>
      <h1>{t("plan.title")}</h1>
      {notice ? <Notice>{t(notice)}</Notice> : null}

      {waiting.length > 0 ? (
        <section className="card card-action" aria-labelledby="action-title" id="action-needed">
          <h2 id="action-title">{t("plan.actionTitle")}</h2>
          <p>{t("plan.actionIntro")}</p>
          <ul className="claims">
            {waiting.map(({ claim, question }) => (
              <li key={claim.id}>
                <h3>{t("claim.name", { number: claim.number, reference: claim.referenceNumber })}</h3>
                <p className="muted">{claim.reasonName}</p>
                <ClaimQuestion question={question} />
                <p>
                  <a className="button" href={`${claimHref(claim)}#action`}>
                    {t("plan.actionAnswer", {
                      claim: t("claim.nameInline", { number: claim.number, reference: claim.referenceNumber }),
                    })}
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
          <Fact term={t("plan.reference")} value={plan.referenceNumber} whole />
          <Fact term={t("plan.order")} value={plan.orderName ?? plan.orderId} />
          <Fact term={t("plan.status")} value={t("plan.statusValue", { status: plan.status })} />
          <Fact term={t("plan.purchased")} value={<LocalTime iso={plan.purchasedAt} />} />
          <Fact term={t("plan.covered")} value={money(plan.coveredAmountCents)} />
          {/* An ended plan takes no claim: nothing is "still available" on it. */}
          {active ? <Fact term={t("plan.remaining")} value={money(plan.remainingCoveredCents)} /> : null}
          <Fact term={t("plan.fee")} value={money(plan.buyerFeeCents)} />
        </dl>
      </section>

      <FreeLook plan={plan} remaining={remaining} money={money} now={now} freeLookHours={freeLookHours} />

      <section className="card" aria-labelledby="claims-title">
        <h2 id="claims-title">{t("plan.claimsTitle")}</h2>
        {claimsError ? <p role="alert">{claimsError}</p> : null}
        {claims.length === 0 && !claimsError ? <p>{t("plan.noClaims")}</p> : null}
        {claims.length > 0 ? (
          <ul className="claims">
            {claims.map((claim) => (
              <ClaimItem key={claim.id} claim={claim} merchantName={plan.merchantName} bankDays={bankDays} />
            ))}
          </ul>
        ) : null}
        {active ? (
          <p>
            <a className="button" href="/portal/claims/new">
              {t("plan.newClaim")}
            </a>
          </p>
        ) : (
          <p>{t("plan.notActive")}</p>
        )}
      </section>

      <section className="card" aria-labelledby="covered-title">
        <h2 id="covered-title">{t("plan.reasonsTitle")}</h2>
        <p>{active ? t("plan.reasonsIntro") : t("plan.reasonsIntroEnded")}</p>
        <ul className="reasons">
          {plan.coveredReasons.map((reason) => (
            <li key={reason.code}>{reason.name}</li>
          ))}
        </ul>
        <p>{claimWindow}</p>
        <DeliveryWindow plan={plan} />
        <p className="disclosure">{plan.disclosureText}</p>
        <p>
          <a href="/portal/terms">{t("plan.fullTerms")}</a>
        </p>
      </section>
    </PortalShell>
  );
}

function ClaimItem({ claim, merchantName, bankDays }: { claim: PortalClaim; merchantName: string; bankDays: string }) {
  const locale = usePortalLocale();
  const t = usePortalText();
  const name = t("claim.name", { number: claim.number, reference: claim.referenceNumber });
  return (
    <li>
      <h3>{name}</h3>
      <p className="muted">
        {claim.reasonName} · {t("plan.filedOn", { date: formatDate(claim.createdAt, locale) })} ·{" "}
        {formatMoney(claim.amountCents, claim.currency, locale)}
      </p>
      <p>
        <span className={`badge badge-${claim.status}`}>{t("claim.statusValue", { status: claim.status })}</span>
      </p>
      {claim.decision ? (
        <p>
          {t("plan.decisionReason")} {claim.decision.message}
        </p>
      ) : null}
      <ClaimPayout claim={claim} merchantName={merchantName} bankDays={bankDays} />
      <a href={claimHref(claim)}>
        {t("plan.viewClaim", {
          claim: t("claim.nameInline", { number: claim.number, reference: claim.referenceNumber }),
        })}
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
  freeLookHours,
}: {
  plan: PortalPlan;
  remaining: string | undefined;
  money: (cents: number) => string;
  now: number;
  freeLookHours: number;
}) {
  const t = usePortalText();
  useEffect(() => startCountdown(...countdownTexts(t, freeLookHours)), [t, freeLookHours]);
  if (plan.status === "cancelled") {
    return (
      <section className="card" aria-labelledby="free-look-title">
        <h2 id="free-look-title">{t("plan.freeLookTitle")}</h2>
        {plan.cancelledAt ? (
          <p>
            {t("plan.cancelledOn")} <LocalTime iso={plan.cancelledAt} />.
          </p>
        ) : null}
        {plan.feeRefund ? (
          <p>
            {plan.feeRefund.status === "refunded" && plan.feeRefund.refundedAt ? (
              <>
                {t("plan.refundDone", { amount: money(plan.feeRefund.amountCents) })}{" "}
                <LocalTime iso={plan.feeRefund.refundedAt} />.
              </>
            ) : (
              t("plan.refundPending", { amount: money(plan.feeRefund.amountCents) })
            )}
          </p>
        ) : null}
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="free-look-title">
      <h2 id="free-look-title">{t("plan.freeLookTitle")}</h2>
      {plan.cancellable && remaining ? (
        <>
          <p>
            {t("plan.freeLookOpen")} <LocalTime iso={plan.freeLookEndsAt} /> ({money(plan.buyerFeeCents)}).
          </p>
          <p>
            {t("plan.freeLookRemaining")}{" "}
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
          <script dangerouslySetInnerHTML={{ __html: countdownScript(t, freeLookHours) }} />
          <p>
            <a className="button button-secondary" href="/portal/cancel">
              {t("plan.cancelButton")}
            </a>
          </p>
        </>
      ) : plan.status === "voided" ? (
        <p>{t("plan.freeLookVoided")}</p>
      ) : plan.payer === "merchant" ? (
        <p>{t("plan.freeLookMerchantPaid", { store: plan.merchantName })}</p>
      ) : plan.status === "active" && Date.parse(plan.freeLookEndsAt) > now ? (
        // Active and within the 48 hours yet not cancellable: a request that is not declined holds the fee.
        <p>{t("plan.freeLookHasClaims")}</p>
      ) : (
        <p>{t("plan.freeLookClosed", { hours: freeLookHours })}</p>
      )}
    </section>
  );
}
