// A claim: what the buyer asked for and why, their evidence files, the timeline, the decision; and, for merchants
// outside Shopify, confirming the refund or replacement they made for an approved claim (the API's
// POST /merchant/claims/{id}/resolution, the amount typed as money in the claim's currency; a Shopify shop's claims
// are paid by the app and refuse it).
import { claimTitle, getMerchantClaim, readMerchantEvidence } from "../../../server/index.ts";
import { field, formAction } from "../../form-actions.server.ts";
import { REASON_NAMES } from "../reason-names.server.ts";
import { downloadResponse } from "../../downloads.server.ts";
import type { PageAction, PageContext } from "../viewer.ts";

/** The path's segments after /claims/: the claim id, then evidence/<file id> for a download. */
const claimPath = (request: Request) => {
  const parts = new URL(request.url).pathname.split("/").map(decodeURIComponent);
  const at = parts.indexOf("claims");
  return { claimId: parts[at + 1] ?? "", evidenceId: parts[at + 3] ?? "" };
};

export async function loadClaim({ runtime, viewer, request }: PageContext) {
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const claim = await getMerchantClaim(runtime.db, actor, claimPath(request).claimId);
  return { claim, title: claimTitle(claim.referenceNumber, claim.number), reasonNames: REASON_NAMES };
}

export type ClaimData = Awaited<ReturnType<typeof loadClaim>>;

export async function loadClaimEvidence({ runtime, viewer, request }: PageContext): Promise<Response> {
  const { claimId, evidenceId } = claimPath(request);
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  return downloadResponse(await readMerchantEvidence(runtime.db, runtime.services, actor, claimId, evidenceId));
}

export const claimAction: PageAction<unknown> = async ({ runtime, viewer, request, form }) => {
  const values = {
    kind: field(form, "kind"),
    amount: field(form, "amount"),
    reference: field(form, "reference"),
  };
  const { claimId } = claimPath(request);
  const result = await formAction(
    "resolution",
    { kind: "kind", amountCents: "amount", amount: "amount", reference: "reference" },
    () => runtime.core.claims.resolve(viewer, claimId, values),
    values,
  );
  return result.ok
    ? { ok: true, form: "resolution", message: "Recorded: the claim is paid and the buyer is told." }
    : result.response;
};
