// What every buyer e-mail shares (README "E-mail to buyers"): one layout that writes the plain-text and the HTML part
// from the same blocks (the HTML escaped), the reasons' names, amounts and dates as buyers read them, and the one rule
// for text the service did not write. The templates beside this file say what each e-mail holds and when it no
// longer applies; the worker renders them at send time from the database.
import { fullDisclosure, reasonName } from "../domain/disclosure.ts";
import type { Settings } from "../domain/context.ts";
import { formatDecimalAmount } from "../domain/money.ts";
import type { EmailClaim, EmailPlan } from "../store/emails.ts";

export interface RenderedEmail {
  /** Fixed words per template plus our reference number: never any stored or caller text. */
  subject: string;
  text: string;
  html: string;
}

/** What a template renders from; `claim` for the claim e-mails. */
export interface EmailContext {
  plan: EmailPlan;
  claim?: EmailClaim;
  settings: Settings;
  /** The plan's tokenized coverage link (server/email/coverage-link.ts). */
  coverageLink: string;
}

/** A template: the e-mail, or undefined when what it announces no longer holds (the message is then "skipped"). */
export type EmailTemplateRenderer = (context: EmailContext) => RenderedEmail | undefined;

/** A paragraph; a titled list; or a link (its label, then the URL, in the text part). */
export type Block = string | { title: string; items: string[] } | { label: string; href: string };

/** The reasons' names come from the one rulebook list (server/domain/disclosure.ts). */
export { reasonName };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * Text the service did not write (an order id: anyone with the page's publishable key chooses it; a merchant's name;
 * a buyer's description; a message on a claim) made inert for both parts. Mail clients turn what looks like a URL, a
 * domain, an address or a @mention into a link even in plain text; each needs punctuation glued to its neighbours
 * ("://", ".", "@", or an IDNA dot such as "。"). So a hair space (U+200A: a space to every autolinker, barely
 * visible) follows each punctuation or symbol character except "#", "-" and "_". Line breaks become spaces (a
 * description cannot fake a paragraph of ours). The HTML part escapes the result too, and never wraps it in a link.
 */
export const inertCallerText = (text: string) =>
  text.replace(/[\r\n\u2028\u2029]+/g, " ").replace(/[^\p{L}\p{N}\p{Zs}#_-]/gu, (character) => `${character}\u200A`);

/** "3.70 USD" */
export const money = (cents: number, currency: string) => `${formatDecimalAmount(cents, currency)} ${currency}`;

/** "Mon, 23 Nov 2026 19:34:31 GMT" */
export const utcTime = (ms: number) => new Date(ms).toUTCString();

/** "2026-11-23" */
export const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** "order 1001 from Harbour Lane Ceramics", both caller texts inert. */
export const orderFrom = (plan: EmailPlan) =>
  `order ${inertCallerText(plan.orderId)} from ${inertCallerText(plan.merchantName)}`;

/** The disclosure (both sentences, always) and where the buyer signs in without the link. */
export function footer(plan: EmailPlan, settings: Settings): Block[] {
  return [
    `You can also sign in at ${settings.portalUrl} with your e-mail address and your reference number ${plan.referenceNumber}.`,
    fullDisclosure(settings.companyName),
  ];
}

export function renderEmail(subject: string, blocks: Block[]): RenderedEmail {
  const text = blocks
    .map((block) => {
      if (typeof block === "string") return block;
      if ("items" in block) return `${block.title}\n${block.items.map((item) => `- ${item}`).join("\n")}`;
      return `${block.label}: ${block.href}`;
    })
    .join("\n\n");
  const html = blocks
    .map((block) => {
      if (typeof block === "string") return `<p>${escapeHtml(block)}</p>`;
      if ("items" in block)
        return `<p>${escapeHtml(block.title)}</p><ul>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`;
      return `<p><a href="${escapeHtml(block.href)}">${escapeHtml(block.label)}</a></p>`;
    })
    .join("\n");
  return { subject, text, html };
}

/** How money comes back to the buyer on the plan's cart (on Shopify only through the original order: README "Shopify app"). */
export function howRefunded(channel: EmailPlan["refundChannel"], plan: EmailPlan, done = false): string {
  const merchant = inertCallerText(plan.merchantName);
  if (channel === "shopify")
    return `It ${done ? "was" : "is"} refunded automatically to the payment method you used for the order.`;
  return done
    ? `${merchant} refunded it to you directly and confirmed the refund to us.`
    : `${merchant} refunds it to you directly and confirms the refund to us.`;
}

/** How long the claims team takes to review a request: the one number every claim e-mail quotes. */
export const CLAIM_REVIEW_BUSINESS_DAYS = 5;

/** The claim's own lines: our reference number, the claim id, the reason's name. */
export const claimSummary = (plan: EmailPlan, claim: EmailClaim) =>
  `Your reference number: ${plan.referenceNumber}. Your claim: ${claim.id}. Reason: ${reasonName(claim.reason)}.`;
