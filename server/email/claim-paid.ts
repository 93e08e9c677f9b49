// The claim_paid e-mail: the approved refund was paid (how much, how, when), or the replacement sent (on Shopify: the
// free replacement order placed, which the store ships) — with the merchant's reference and note when it confirmed the
// payment itself.
import { BANK_REFUND_BUSINESS_DAYS } from "../domain/payout-terms.ts";
import { claimFacts, claimLabel, emailText, orderLabel, type Block, type EmailTemplateRenderer } from "./layout.ts";

/** Sent once the claim is paid (refunded or replaced). */
export const claimPaid: EmailTemplateRenderer = ({ plan, claim }) => {
  if (claim?.status !== "paid") return undefined;
  const { t, money, dayAndTime } = emailText(plan);
  const reference = plan.referenceNumber;
  const merchant = plan.merchantName;
  const channel = claim.resolution?.channel ?? plan.refundChannel;
  const amount = money(claim.paidAmountCents > 0 ? claim.paidAmountCents : claim.amountCents, claim.currency);
  const replacement = claim.remedy === "replacement";
  const facts: [string, string][] = [
    [replacement ? t("paid.worth") : t("paid.amount"), amount],
    ...(claim.resolvedAt === null
      ? []
      : [[replacement ? t("paid.sentOn") : t("paid.paidOn"), dayAndTime(claim.resolvedAt)] as [string, string]]),
    // The merchant's own reference (its refund id, the replacement order or tracking number); a Shopify payout's
    // reference is the app's, meaningless to the buyer.
    ...(channel === "merchant" && claim.resolution?.reference
      ? [[t("paid.storeReference"), claim.resolution.reference] as [string, string]]
      : []),
  ];
  const note: Block[] =
    channel === "merchant" && claim.resolution?.note
      ? [{ quoteLabel: t("paid.storeNote", { merchant }), quote: claim.resolution.note }]
      : [];
  const order = orderLabel(plan);
  const claimName = claimLabel(plan, claim);
  if (replacement) {
    const automatic = channel === "shopify";
    return {
      subject: t(automatic ? "paid.replacementPlacedSubject" : "paid.replacementSentSubject", { reference }),
      heading: t(automatic ? "paid.replacementPlaced" : "paid.replacementSent"),
      lead: [
        t(automatic ? "paid.replacementPlacedLead" : "paid.replacementSentLead", { order, claim: claimName, merchant }),
      ],
      button: t("button.request"),
      body: [{ facts }, ...note, claimFacts(plan, claim)],
    };
  }
  const how = channel === "shopify" ? t("paid.byShopify", { order }) : t("paid.byMerchant", { merchant });
  return {
    subject: t("paid.refundSubject", { reference }),
    heading: t("paid.refundHeading"),
    lead: [
      `${t("paid.refundLead", { amount, claim: claimName })} ${how} ${t("paid.bank", { bankDays: BANK_REFUND_BUSINESS_DAYS })}`,
    ],
    button: t("button.request"),
    body: [{ facts }, ...note, claimFacts(plan, claim)],
  };
};
