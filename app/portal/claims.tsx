// A claim as the portal's pages show it in several places: its address (/portal/claims/<its number>, the number the
// buyer names it by), the question that waits for the buyer, and what an approved or paid claim brings them.
import { formatMoney } from "../ui/format.ts";
import type { PortalClaim, PortalClaimWithTimeline } from "./buyer.server.ts";
import { LocalTime, usePortalLocale, usePortalText } from "./ui.tsx";

/** The claim's page: by its number on the plan, never its internal id. */
export const claimHref = (claim: Pick<PortalClaim, "number">) => `/portal/claims/${claim.number}`;

/** The question of a claim waiting for information: what the claims team or the store asked last. */
export function questionOf(claim: PortalClaimWithTimeline): string {
  const asked = claim.timeline.filter(
    (entry) => entry.kind === "status_changed" && entry.status === "needs_information",
  );
  return asked.at(-1)?.text ?? "";
}

/** The question waiting for the buyer, as the plan page and the claim's page quote it. */
export function ClaimQuestion({ question }: { question?: string }) {
  const t = usePortalText();
  return question ? (
    <blockquote className="question">
      <p className="sr-only">{t("plan.question")}</p>
      <p className="description">{question}</p>
    </blockquote>
  ) : null;
}

/**
 * An approved claim: how much, the remedy, who pays and by when (its terms, in the buyer's language:
 * localize.server.ts); a paid one: what was paid and when.
 */
export function ClaimPayout({
  claim,
  merchantName,
  bankDays,
}: {
  claim: PortalClaim;
  merchantName: string;
  /** What banks take to show a refund (GET /portal/reasons payout.bankBusinessDays). */
  bankDays: string;
}) {
  const locale = usePortalLocale();
  const t = usePortalText();
  const { payout } = claim;
  if (!payout) return null;
  const what = t("claim.remedy", {
    remedy: payout.remedy,
    amount: formatMoney(payout.amountCents, payout.currency, locale),
  });
  if (payout.status === "paid" && payout.paidAt)
    return (
      <div className="payout">
        <p>
          <strong>
            {t("claim.payoutPaidPrefix", { what })} <LocalTime iso={payout.paidAt} />.
          </strong>
        </p>
        <p>{t("claim.paidBy", { payer: payout.payer, remedy: payout.remedy, merchant: merchantName, bankDays })}</p>
      </div>
    );
  return (
    <div className="payout">
      <p>
        <strong>{t("claim.payoutPending", { what })}</strong>
      </p>
      <p>{payout.terms}</p>
    </div>
  );
}
