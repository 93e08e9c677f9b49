// What the portal API answers in English because it is stored so (a plan's reasons and disclosure, a claim's reason,
// its decision's sentence, its payout terms), put in the buyer's language for a page: the rulebook's words by their
// codes (server/domain/rulebook-text.ts), the payout terms from the portal's catalogue. A reviewer's own note, a
// buyer's description and the claims team's questions stay as they were written. A decision's basis comes already in
// the buyer's language: the page asks the core for the claim in its locale.
import { rulebookText } from "../../server/index.ts";
import { protectionRuntime } from "../protection-api.server.ts";
import { formatDate } from "../ui/format.ts";
import { portalMessages } from "./messages.ts";
import { htmlLang } from "./locale.ts";
import type { PortalClaim, PortalClaimWithTimeline, PortalPlan, PortalRulebook } from "./buyer.server.ts";

/** The plan with its covered reasons' names and its disclosure in `locale`. */
export function localizedPlan(plan: PortalPlan, locale: string): PortalPlan {
  const text = rulebookText(locale);
  return {
    ...plan,
    coveredReasons: plan.coveredReasons.map((reason) => ({ ...reason, name: text.reasonName(reason.code) })),
    disclosureText: text.disclosure(protectionRuntime().services.settings.companyName),
  };
}

/** A claim (and its timeline, when it has one) with its reason, decision and payout terms in `locale`. */
export function localizedClaim<Claim extends PortalClaim & { timeline?: PortalClaimWithTimeline["timeline"] }>(
  claim: Claim,
  locale: string,
  merchantName: string,
  payout: PortalRulebook["payout"],
): Claim {
  const text = rulebookText(locale);
  const decided = claim.decision;
  return {
    ...claim,
    reasonName: text.reasonName(claim.reason),
    decision: decided && { ...decided, message: text.decision(decided.code, decided.message) },
    // English reads the service's own sentence (server/domain/payout-terms.ts, as the e-mails say it).
    payout: claim.payout && {
      ...claim.payout,
      terms:
        htmlLang(locale) === "en"
          ? claim.payout.terms
          : portalMessages.format(locale, "claim.payoutTerms", {
              payer: claim.payout.payer,
              remedy: claim.payout.remedy,
              merchant: merchantName,
              by: formatDate(`${claim.payout.dueBy}T00:00:00Z`, locale),
              days: claim.payout.payer === "shopify_refund" ? payout.shopifyBusinessDays : payout.merchantDays,
              bankDays: payout.bankBusinessDays,
            }),
    },
    // The entry of a decision holds its sentence (and the note): the same sentence in the buyer's language.
    ...(claim.timeline && decided
      ? {
          timeline: claim.timeline.map((entry) =>
            entry.kind === "status_changed" && (entry.status === "approved" || entry.status === "denied")
              ? { ...entry, text: text.decision(decided.code, entry.text) }
              : entry,
          ),
        }
      : {}),
  };
}
