// A claim: what the buyer asked for and why, their evidence files, the timeline, the decision; and, for merchants
// outside Shopify, confirming the refund or replacement they made for an approved claim (the API's
// POST /merchant/claims/{id}/resolution, the amount typed as money in the claim's currency; a Shopify shop's claims
// are paid by the app and refuse it).
import { z } from "zod";
import {
  claimTitle,
  DomainError,
  getMerchantClaim,
  readMerchantEvidence,
  resolveClaim,
} from "../../../server/index.ts";
import { formatMoney, parseTypedMoney } from "@purchase-protection/contract";
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

const resolutionSchema = z.object({
  kind: z.enum(["refund", "replacement"], "Choose what you did: a refund or a replacement."),
  reference: z
    .string()
    .trim()
    .min(1, "Enter your reference: the refund id, the order or its tracking number.")
    .max(200),
});

/** What the merchant typed as the amount ("$129.99", "129.99"; empty: the claim's) in the claim's currency. */
function resolutionAmount(typed: string, currency: string): number | undefined {
  if (typed.trim() === "") return undefined;
  const cents = parseTypedMoney(typed, currency);
  if (cents === undefined || cents < 1)
    throw new DomainError(
      "invalid",
      "parameter_invalid",
      `Enter an amount such as ${formatMoney(12_999, currency, "en-US")}, or leave it empty for the claim's amount.`,
      "amount",
    );
  return cents;
}

export const claimAction: PageAction<unknown> = async ({ runtime, viewer, request, form }) => {
  const values = {
    kind: field(form, "kind"),
    amount: field(form, "amount"),
    reference: field(form, "reference"),
  };
  const actor = { merchantId: viewer.merchantId, mode: viewer.mode };
  const { claimId } = claimPath(request);
  const result = await formAction(
    "resolution",
    { kind: "kind", amountCents: "amount", amount: "amount", reference: "reference" },
    async () => {
      const claim = await getMerchantClaim(runtime.db, actor, claimId);
      const amountCents = resolutionAmount(values.amount, claim.resolution?.currency ?? claim.currency);
      const parsed = resolutionSchema.safeParse(values);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new DomainError("invalid", "parameter_invalid", issue.message, String(issue.path[0]));
      }
      return runtime.db.transaction((tx) =>
        resolveClaim(tx, runtime.services, actor, claimId, { channel: "merchant", ...parsed.data, amountCents }),
      );
    },
    values,
  );
  return result.ok
    ? { ok: true, form: "resolution", message: "Recorded: the claim is paid and the buyer is told." }
    : result.response;
};
