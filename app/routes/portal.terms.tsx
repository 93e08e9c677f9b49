// /portal/terms: the public rulebook (no session needed; the widget's "See what is covered" link opens it). Every
// reason with its description, the 48-hour free look, the 30-day window, the evidence limits and quotas, how decisions work
// with the published denial reasons, and the disclosure, all from GET /api/v1/portal/reasons and the service's own disclosure sentence.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { fullDisclosure } from "../../server/index.ts";
import { formatQuota } from "../portal/format.ts";
import { formatBytes } from "../ui/format.ts";
import { messages } from "../portal/messages.ts";
import { buyerOf, portal } from "../portal/buyer.server.ts";
import { csrfToken, failureSentence, pageHeaders, sessionToken } from "../portal/session.server.ts";
import { PortalShell } from "../portal/ui.tsx";
import { protectionRuntime } from "../protection-api.server.ts";

export const meta: MetaFunction = () => [{ title: `${messages.terms.title} · ${messages.siteName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const rulebook = await portal().reasons();
  if (!rulebook.ok) throw new Response(failureSentence(rulebook), { status: rulebook.status });
  // Signed in: the page names the buyer's merchant like every page with a session. An expired session is no error here.
  const token = await sessionToken(request);
  const plan = token ? await portal().plan(buyerOf(request, context, token)) : undefined;
  const csrf = await csrfToken(request);
  return json(
    {
      csrf: csrf.token,
      rulebook: rulebook.data,
      disclosure: fullDisclosure(protectionRuntime().services.settings.companyName),
      merchantName: plan?.ok ? plan.data.merchantName : undefined,
    },
    { headers: pageHeaders(csrf) },
  );
}

export default function Terms() {
  const { csrf, rulebook, disclosure, merchantName } = useLoaderData<typeof loader>();
  return (
    <PortalShell merchantName={merchantName} signedIn={Boolean(merchantName)} csrf={csrf}>
      <h1>{messages.terms.title}</h1>
      <p>{messages.terms.intro}</p>
      <section className="card" aria-labelledby="reasons-title">
        <h2 id="reasons-title">{messages.terms.reasonsTitle}</h2>
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
        <h2 id="free-look-title">{messages.terms.freeLookTitle}</h2>
        <p>{messages.terms.freeLook(rulebook.freeLookHours)}</p>
      </section>
      <section className="card" aria-labelledby="window-title">
        <h2 id="window-title">{messages.terms.windowTitle}</h2>
        <p>{messages.terms.window(rulebook.claimWindowDays)}</p>
        <p>
          {messages.terms.deliveryWindow(
            rulebook.data
              .filter((reason) => reason.claimWindowFrom === "delivery")
              .map((reason) => reason.name.toLowerCase())
              .join(", "),
          )}
        </p>
      </section>
      <section className="card" aria-labelledby="evidence-title">
        <h2 id="evidence-title">{messages.terms.evidenceTitle}</h2>
        <p>{messages.terms.evidence(rulebook.evidence.maxFiles, formatBytes(rulebook.evidence.maxFileBytes))}</p>
        <p>{messages.claim.photosAsked}</p>
        <p>
          {messages.terms.evidenceQuotas(
            formatQuota(rulebook.evidence.quotas.claim),
            formatQuota(rulebook.evidence.quotas.plan),
            formatQuota(rulebook.evidence.quotas.session),
          )}
        </p>
      </section>
      <section className="card" aria-labelledby="decisions-title">
        <h2 id="decisions-title">{messages.terms.decisionsTitle}</h2>
        <p>{messages.terms.decisions}</p>
        <p>{messages.terms.denialReasonsIntro}</p>
        <ul>
          {rulebook.denialReasons.map((reason) => (
            <li key={reason.code} id={`denial-${reason.code}`}>
              {reason.message}
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="payout-title">
        <h2 id="payout-title">{messages.terms.payoutTitle}</h2>
        <p>{messages.terms.payout(rulebook.payout)}</p>
      </section>
      <section className="card" aria-labelledby="disclosure-title">
        <h2 id="disclosure-title">{messages.terms.disclosureTitle}</h2>
        <p className="disclosure">{disclosure}</p>
      </section>
      <p>
        <a className="button" href={merchantName ? "/portal/plan" : "/portal"}>
          {merchantName ? messages.planLink : messages.terms.start}
        </a>
      </p>
    </PortalShell>
  );
}
