// /portal/coverage/:reference?token=…: the welcome e-mail's link. Opening it signs nobody in: the page shows one
// button, and only its POST (with this page's CSRF token) trades the link's token for a portal session (POST
// /api/v1/portal/coverage-link), so another site cannot sign a browser in by making it open a link (login CSRF), nor
// can a mail scanner or a prefetch. The token is in this page's URL only: the page is never cached and sends no
// Referer (docs/dashboard.md "Buyer portal pages"). A bad or expired link goes to the look-up with a sentence saying so. Without a token
// (the merchant's order e-mail and the confirm's coverageUrl link to <portal>/coverage/<reference>) it is the look-up
// with the reference filled in, so the buyer types only their e-mail. A claim e-mail's link adds `&claim=<number>`
// (server/email/coverage-link.ts): once signed in, the buyer lands on that claim of the plan.
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { portalTitle } from "../portal/messages.ts";
import { buyerOf, portal } from "../portal/buyer.server.ts";
import { checkCsrf, csrfToken, pageHeaders, startSession } from "../portal/session.server.ts";
import { CsrfField, PortalShell, usePortalText } from "../portal/ui.tsx";
import { readForm } from "../form.server.ts";

export const meta: MetaFunction = ({ matches }) => portalTitle(matches, "coverageLink.title");

/** The portal's headers, with no Referer at all: the URL holds the link's token. */
export const headers: HeadersFunction = ({ parentHeaders, loaderHeaders }) => {
  const headers = new Headers(parentHeaders);
  for (const [name, value] of loaderHeaders) if (name.toLowerCase() !== "set-cookie") headers.set(name, value);
  headers.set("Referrer-Policy", "no-referrer");
  return headers;
};

const referenceOf = (params: LoaderFunctionArgs["params"]) => (params.reference ?? "").slice(0, 64);

/** The claim number a claim e-mail's link names, or "" (anything else is ignored: the plan page opens). */
const claimOf = (value: FormDataEntryValue | string | null) => {
  const claim = String(value ?? "");
  return /^[1-9]\d{0,8}$/.test(claim) ? claim : "";
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const token = search.get("token") ?? "";
  if (!token) return redirect(`/portal?${new URLSearchParams({ reference: referenceOf(params) })}`);
  const csrf = await csrfToken(request);
  return json(
    {
      csrf: csrf.token,
      referenceNumber: referenceOf(params),
      token: token.slice(0, 200),
      claim: claimOf(search.get("claim")),
    },
    { headers: pageHeaders(csrf) },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  await checkCsrf(request, form);
  const referenceNumber = referenceOf(params);
  const token = String(form.get("token") ?? "");
  const result =
    referenceNumber && token
      ? await portal().coverageLink(buyerOf(request, context), { referenceNumber, token })
      : undefined;
  if (!result?.ok)
    return redirect(`/portal?${new URLSearchParams({ notice: "link-failed", reference: referenceNumber })}`);
  const claim = claimOf(form.get("claim"));
  return redirect(claim ? `/portal/claims/${claim}` : "/portal/plan", {
    headers: await startSession(request, result.data),
  });
}

export default function CoverageLink() {
  const { csrf, referenceNumber, token, claim } = useLoaderData<typeof loader>();
  const t = usePortalText();
  return (
    <PortalShell csrf={csrf}>
      <h1>{t("coverageLink.title")}</h1>
      <p>{t("coverageLink.intro", { reference: referenceNumber })}</p>
      <Form method="post" className="card">
        <CsrfField token={csrf} />
        <input type="hidden" name="token" value={token} />
        {claim ? <input type="hidden" name="claim" value={claim} /> : null}
        <button type="submit" className="button">
          {t("coverageLink.submit")}
        </button>
      </Form>
    </PortalShell>
  );
}
