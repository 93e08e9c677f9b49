// /portal/terms: the public rulebook (no session needed; the widget's "See what is covered" link opens it). Every
// reason with its description, the 48-hour free look, the 30-day window, the evidence limits and quotas, how decisions work
// with the published denial reasons, and the disclosure, all from GET /api/v1/portal/reasons and the service's own disclosure sentence.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { rulebookText } from "../../server/index.ts";
import { formatQuota, formatSize } from "../portal/format.ts";
import { portalTitle } from "../portal/messages.ts";
import { portalTextFor } from "../portal/locale.server.ts";
import { buyerOf, portal } from "../portal/buyer.server.ts";
import { csrfToken, failureSentence, pageHeaders, sessionToken } from "../portal/session.server.ts";
import { PortalShell, usePortalText } from "../portal/ui.tsx";
import { protectionRuntime } from "../protection-api.server.ts";

export const meta: MetaFunction = ({ matches }) => portalTitle(matches, "terms.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { locale, t } = await portalTextFor(request);
  const rulebook = await portal().reasons(locale);
  if (!rulebook.ok) throw new Response(failureSentence(rulebook, t), { status: rulebook.status });
  const text = rulebookText(locale);
  // Signed in: the page names the buyer's merchant like every page with a session. An expired session is no error here.
  const token = await sessionToken(request);
  const plan = token ? await portal().plan(buyerOf(request, context, token)) : undefined;
  const csrf = await csrfToken(request);
  return json(
    {
      csrf: csrf.token,
      rulebook: rulebook.data,
      // The rulebook's own sentences for the windows, the free look and the disclosure, in the buyer's language.
      sentences: {
        freeLookTitle: text.freeLookTitle(),
        freeLook: text.freeLook(),
        windowTitle: text.claimWindowTitle(),
        window: text.claimWindow(),
        deliveryWindow: text.deliveryWindow(
          rulebook.data.data
            .filter((reason) => reason.claimWindowFrom === "delivery")
            // Inside a sentence: the first letter lower-cased only (German keeps its nouns' capitals).
            .map((reason) => `${reason.name.charAt(0).toLowerCase()}${reason.name.slice(1)}`)
            .join(", "),
        ),
        disclosure: text.disclosure(protectionRuntime().services.settings.companyName),
      },
      merchantName: plan?.ok ? plan.data.merchantName : undefined,
    },
    { headers: pageHeaders(csrf) },
  );
}

export default function Terms() {
  const { csrf, rulebook, sentences, merchantName } = useLoaderData<typeof loader>();
  const t = usePortalText();
  return (
    <PortalShell merchantName={merchantName} signedIn={Boolean(merchantName)} csrf={csrf}>
      <h1>{t("terms.title")}</h1>
      <p>{t("terms.intro")}</p>
      <section className="card" aria-labelledby="reasons-title">
        <h2 id="reasons-title">{t("terms.reasonsTitle")}</h2>
        <dl className="rulebook">
          {rulebook.data.map((reason) => (
            <div key={reason.code} id={`reason-${reason.code}`}>
              <dt>{reason.name}</dt>
              <dd>{reason.description}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="card" aria-labelledby="free-look-title">
        <h2 id="free-look-title">{sentences.freeLookTitle}</h2>
        <p>{sentences.freeLook}</p>
      </section>
      <section className="card" aria-labelledby="window-title">
        <h2 id="window-title">{sentences.windowTitle}</h2>
        <p>{sentences.window}</p>
        <p>{sentences.deliveryWindow}</p>
      </section>
      <section className="card" aria-labelledby="evidence-title">
        <h2 id="evidence-title">{t("terms.evidenceTitle")}</h2>
        <p>
          {t("terms.evidence", {
            maxFiles: rulebook.evidence.maxFiles,
            maxSize: formatSize(rulebook.evidence.maxFileBytes, t),
          })}
        </p>
        <p>{t("claim.photosAsked")}</p>
        <p>
          {t("terms.evidenceQuotas", {
            claim: formatQuota(rulebook.evidence.quotas.claim, t),
            plan: formatQuota(rulebook.evidence.quotas.plan, t),
            session: formatQuota(rulebook.evidence.quotas.session, t),
          })}
        </p>
      </section>
      <section className="card" aria-labelledby="decisions-title">
        <h2 id="decisions-title">{t("terms.decisionsTitle")}</h2>
        <p>{t("terms.decisions")}</p>
        <p>{t("terms.denialReasonsIntro")}</p>
        <ul>
          {rulebook.denialReasons.map((reason) => (
            <li key={reason.code} id={`denial-${reason.code}`}>
              {reason.message}
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="payout-title">
        <h2 id="payout-title">{t("terms.payoutTitle")}</h2>
        <p>
          {t("terms.payout", {
            shopifyDays: rulebook.payout.shopifyBusinessDays,
            merchantDays: rulebook.payout.merchantDays,
            bankDays: rulebook.payout.bankBusinessDays,
          })}
        </p>
      </section>
      <section className="card" aria-labelledby="disclosure-title">
        <h2 id="disclosure-title">{t("terms.disclosureTitle")}</h2>
        <p className="disclosure">{sentences.disclosure}</p>
      </section>
      <p>
        <a className="button" href={merchantName ? "/portal/plan" : "/portal"}>
          {merchantName ? t("planLink") : t("terms.start")}
        </a>
      </p>
    </PortalShell>
  );
}
