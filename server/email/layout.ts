// What every buyer e-mail shares (docs/api.md "E-mail to buyers"): ONE layout that writes the plain-text alternative and
// the HTML document from the same blocks. The HTML is MJML (mjml 5): a responsive document (viewport, single column
// under 480 px, Outlook fallbacks) with the merchant's name as its header, one button into the portal, the blocks, and
// the footer (where to sign in without the link, the disclosure). Compiling MJML costs milliseconds, so each shape of
// document (which blocks, how many facts and items) is compiled once per process with a numbered slot in place of
// every text, and each message fills its escaped texts into that compiled HTML (compiledSkeleton, fillSlots).
//
// Text the service did not write (the merchant's name, the order's id or name, the buyer's description, the claims
// team's or the merchant's notes) is shown exactly as written: escaped in the HTML part (escapeHtml: no markup, no
// attribute can be closed), never altered, and never put in a link's address or in the Subject, which hold only our
// words, our reference number and URLs we built. A mail client may still link something in it that looks like a
// URL, as it would in any e-mail: safe enough, because what is written on a claim (by the buyer, the claims team, the
// merchant) reaches only that plan's buyer, and the one caller text that can reach a stranger — the order id of a
// widget purchase, chosen with the address by whoever holds the page's key — is not shown when it holds something a
// client would link (shownOrderName). The caps (server/domain/emails.ts) bound the rest.
//
// Every text is in the language recorded with the plan (email-text.ts; docs/api.md "The buyer's language").
import type { Settings } from "../domain/context.ts";
import type { EmailClaim, EmailPlan } from "../store/emails.ts";
import { emailText, type EmailText } from "./email-text.ts";
import { mjml2html } from "./mjml.ts";

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
  /**
   * The plan's tokenized coverage link (server/email/coverage-link.ts); for a claim e-mail it names the claim, so the
   * portal opens on it.
   */
  coverageLink: string;
}

/**
 * A paragraph (our sentence, which may name caller text inline); label–value facts; a titled list; caller text quoted
 * as written, line breaks kept, under our label; or one of our links.
 */
export type Block =
  | string
  | { facts: [label: string, value: string][] }
  | { title: string; items: string[] }
  | { quoteLabel: string; quote: string }
  | { label: string; href: string };

/** What a template says; the layout adds the header, the button's address and the footer. */
export interface EmailContent {
  /** Our words and our reference number only. */
  subject: string;
  heading: string;
  /** What happened, before the button (kept short: the button stays above the fold on a phone). */
  lead: Block[];
  /** The button's label; its address is the context's coverage link. */
  button: string;
  body: Block[];
}

/** A template: what the e-mail says, or undefined when what it announces no longer holds (the message is "skipped"). */
export type EmailTemplateRenderer = (context: EmailContext) => EmailContent | undefined;

export { emailText, type EmailText };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * What mail clients turn into a link even in plain text: a scheme, "www.", an address, a dotted domain name
 * ("evil-prize.com"); a name ending in "Co." is none.
 */
const LINKABLE = /:\/\/|www\.|@|[\p{L}\p{N}-]\.\p{L}{2,}/iu;

/**
 * The order as the e-mails name it: its name at the store ("#1001") where it gave one, else its order id — unless that
 * holds something a mail client would link. Whoever holds the merchant's publishable key (anyone who reads the
 * storefront's page) chooses the order id of a widget purchase and the address its welcome e-mail goes to, so an
 * order id like "WIN a phone at evil-prize.com" would be that person's link in our e-mail to a stranger. Such an id is
 * not shown (never shown altered): the order is named by its date instead.
 */
const shownOrderName = (plan: EmailPlan): string | undefined => {
  const name = plan.orderName ?? plan.orderId;
  return LINKABLE.test(name) ? undefined : name;
};

/** "order #1001", or "order of 25 Nov 2026" (see shownOrderName), in the plan's language. */
export function orderLabel(plan: EmailPlan): string {
  const { t, day } = emailText(plan);
  const name = shownOrderName(plan);
  return name === undefined ? t("order.dated", { date: day(plan.purchasedAt) }) : t("order.named", { name });
}

/**
 * "claim 2 on CLM-2026-7K3M9Q2X": how a buyer names a claim (never its internal id), as server/domain/claim-name.ts
 * names it in English.
 */
export const claimLabel = (plan: EmailPlan, claim: EmailClaim) =>
  emailText(plan).t("claim.name", { number: claim.number, reference: plan.referenceNumber });

/** A covered reason's name in the plan's language (the rulebook's); the code itself for anything else. */
export const reasonName = (plan: EmailPlan, code: string): string => emailText(plan).rulebook.reasonName(code);

/** The claim's facts every claim e-mail repeats: its name, the reason, the order, when it was filed. */
export function claimFacts(plan: EmailPlan, claim: EmailClaim): Block {
  const { t, day, dayAndTime } = emailText(plan);
  const order = shownOrderName(plan) ?? t("facts.orderDated", { date: day(plan.purchasedAt) });
  return {
    facts: [
      [t("facts.claim"), t("claim.title", { number: claim.number, reference: plan.referenceNumber })],
      [t("facts.reason"), reasonName(plan, claim.reason)],
      [t("facts.order"), t("facts.orderFrom", { order, merchant: plan.merchantName })],
      [t("facts.filed"), dayAndTime(claim.createdAt)],
    ],
  };
}

/** How long the claims team takes to review a request: the one number every claim e-mail quotes. */
export const CLAIM_REVIEW_BUSINESS_DAYS = 5;

/** Where the portal's address goes in the sign-in sentence, to be cut there: never in any text of ours. */
const PORTAL_MARK = "\uE002";

/** Why the buyer receives it, where to sign in without the button (the portal's address: a link of ours), the disclosure. */
function footer(plan: EmailPlan, settings: Settings) {
  const { t, rulebook } = emailText(plan);
  const order = orderLabel(plan);
  const merchant = plan.merchantName;
  const [before, after] = t("footer.signIn", { portal: PORTAL_MARK, reference: plan.referenceNumber }).split(
    PORTAL_MARK,
  );
  return {
    // The buyer of a plan its store paid for chose nothing (docs/api.md "Who pays"): the store added the protection.
    // A name may end in a period ("Co."): the sentence must not end in two.
    why: t(plan.payer === "merchant" ? "footer.whyMerchantPaid" : "footer.whyBuyer", { merchant, order }).replace(
      /\.\.$/,
      ".",
    ),
    signIn: [before, settings.portalUrl, after] as const,
    disclosure: rulebook.disclosure(settings.companyName),
  };
}

function blockText(block: Block): string {
  if (typeof block === "string") return block;
  if ("facts" in block) return block.facts.map(([label, value]) => `${label}: ${value}`).join("\n");
  if ("items" in block) return `${block.title}\n${block.items.map((item) => `- ${item}`).join("\n")}`;
  if ("quote" in block) return `${block.quoteLabel}\n${block.quote}`;
  return `${block.label}: ${block.href}`;
}

const TEXT_COLOUR = "#1f2933";
const MUTED_COLOUR = "#52606d";
const BUTTON_COLOUR = "#1d4ed8";
const FONTS = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
/** A long unbroken word (an order id, a pasted URL) wraps instead of widening the e-mail past a phone's screen. */
const WRAP = "overflow-wrap:anywhere;word-break:break-word";

/** Escaped text with its line breaks kept. */
const escapedLines = (text: string) => escapeHtml(text).replace(/\r\n|\r|\n/g, "<br>");

/**
 * Where a text goes in the MJML document, given its escaped HTML: the HTML itself, or (for the skeleton) a slot that
 * stands for it. The document never holds a text except through this.
 */
export type Slot = (escapedHtml: string) => string;

function blockHtml(block: Block, slot: Slot): string {
  const text = (value: string) => slot(escapeHtml(value));
  if (typeof block === "string") return `<mj-text><div style="${WRAP}">${text(block)}</div></mj-text>`;
  if ("facts" in block) {
    const rows = block.facts
      .map(
        ([label, value]) =>
          `<tr><td style="padding:4px 12px 4px 0;color:${MUTED_COLOUR};vertical-align:top;width:34%">${text(label)}</td><td style="padding:4px 0;vertical-align:top;${WRAP}">${text(value)}</td></tr>`,
      )
      .join("");
    return `<mj-table padding="0 0 16px 0" table-layout="fixed">${rows}</mj-table>`;
  }
  if ("items" in block)
    return `<mj-text><div style="${WRAP}">${text(block.title)}</div><ul style="margin:8px 0 0 0;padding-left:20px">${block.items.map((item) => `<li>${text(item)}</li>`).join("")}</ul></mj-text>`;
  if ("quote" in block)
    return `<mj-text><div style="color:${MUTED_COLOUR}">${text(block.quoteLabel)}</div><div style="margin-top:4px;padding:8px 12px;border-left:3px solid #cbd2d9;background:#f5f7fa;${WRAP}">${slot(escapedLines(block.quote))}</div></mj-text>`;
  return `<mj-text><a href="${text(block.href)}" style="color:${BUTTON_COLOUR}">${text(block.label)}</a></mj-text>`;
}

/**
 * The MJML document: header (the merchant), the card (heading, lead, button, body), the footer. No hidden preheader
 * (mj-preview): hidden text is what spam filters score (SpamAssassin's HTML_FONT_LOW_CONTRAST), and the inbox's
 * preview line is then the merchant's name and the heading, which say it anyway.
 */
export function mjmlDocument(content: EmailContent, context: EmailContext, slot: Slot): string {
  const { plan, settings, coverageLink } = context;
  const { why, signIn, disclosure } = footer(plan, settings);
  // MJML trims an element's content (mjml-parser-xml): a text at the start or end of one (the title, the reference
  // number, the button) is trimmed here as MJML would trim it, so that its slot is filled with what MJML would write.
  const text = (value: string) => slot(escapeHtml(value));
  const [before, portalUrl, after] = signIn.map(text);
  const signInHtml = `${before}<a href="${portalUrl}" style="color:${MUTED_COLOUR}">${portalUrl}</a>${after}`;
  const footerHtml = [text(why), signInHtml, text(disclosure)]
    .map(
      (line) =>
        `<mj-text font-size="13px" line-height="20px" color="${MUTED_COLOUR}"><div style="${WRAP}">${line}</div></mj-text>`,
    )
    .join("\n");
  const { t, language } = emailText(plan);
  return `<mjml lang="${language}">
  <mj-head>
    <mj-title>${slot(escapeHtml(content.subject).trim())}</mj-title>
    <mj-attributes>
      <mj-all font-family="${FONTS}" />
      <mj-text font-size="16px" line-height="24px" color="${TEXT_COLOUR}" padding="0 0 16px 0" />
      <mj-table font-size="16px" line-height="24px" color="${TEXT_COLOUR}" />
      <mj-section padding="0 16px" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f4f5f7" width="600px">
    <mj-section padding="24px 16px 12px 16px">
      <mj-column>
        <mj-text font-size="20px" line-height="28px" font-weight="700" padding="0"><div style="${WRAP}">${text(plan.merchantName)}</div></mj-text>
        <mj-text font-size="13px" line-height="20px" color="${MUTED_COLOUR}" padding="0">${escapeHtml(t("brand"))} · ${slot(escapeHtml(plan.referenceNumber).trimEnd())}</mj-text>
      </mj-column>
    </mj-section>
    <mj-wrapper background-color="#ffffff" border-radius="8px" padding="24px 8px 8px 8px">
      <mj-section padding="0 12px">
        <mj-column>
          <mj-text font-size="22px" line-height="30px" font-weight="700"><h1 style="margin:0;font-size:22px;line-height:30px;${WRAP}">${text(content.heading)}</h1></mj-text>
          ${content.lead.map((block) => blockHtml(block, slot)).join("\n          ")}
          <mj-button href="${text(coverageLink)}" background-color="${BUTTON_COLOUR}" color="#ffffff" font-size="16px" font-weight="600" border-radius="6px" inner-padding="14px 24px" padding="4px 0 24px 0" align="left">${slot(escapeHtml(content.button).trim())}</mj-button>
          ${content.body.map((block) => blockHtml(block, slot)).join("\n          ")}
        </mj-column>
      </mj-section>
    </mj-wrapper>
    <mj-section padding="16px 16px 32px 16px">
      <mj-column>
        ${footerHtml}
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
}

function footerText({ plan, settings }: EmailContext): string[] {
  const { why, signIn, disclosure } = footer(plan, settings);
  return [why, signIn.join(""), disclosure];
}

/** The e-mail: the plain-text alternative and the HTML document, from the same content. */
export async function renderEmail(content: EmailContent, context: EmailContext): Promise<RenderedEmail> {
  const text = [
    context.plan.merchantName,
    content.heading,
    ...content.lead.map(blockText),
    `${content.button}: ${context.coverageLink}`,
    ...content.body.map(blockText),
    "--",
    ...footerText(context),
  ].join("\n\n");
  const texts: string[] = [];
  const skeleton = mjmlDocument(
    content,
    context,
    (escapedHtml) => `${SLOT_OPEN}${texts.push(escapedHtml) - 1}${SLOT_CLOSE}`,
  );
  return { subject: content.subject, text, html: fillSlots(await compiledSkeleton(skeleton), texts) };
}

/** No web fonts (the default would load one from another host): system fonts only. */
export const MJML_OPTIONS = { validationLevel: "strict", fonts: {} } as const;

// A slot is its text's number between two private-use characters: nothing our markup or MJML writes. The texts
// themselves never go through MJML (they are filled in after it), so a text holding these characters is still only text.
const SLOT_OPEN = "\uE000";
const SLOT_CLOSE = "\uE001";
const SLOT = /\uE000(\d+)\uE001/;

/** The compiled HTML cut at its slots: fixed HTML at even indexes, a slot's text number at odd ones. */
type CompiledSkeleton = (string | number)[];

/**
 * One compiled skeleton per shape of document, kept for the process: the shapes are the templates' (which blocks, how
 * many facts and items), a few dozen at most, as no count comes from caller text. The promise is kept so that a batch
 * of messages of one shape compiles it once.
 */
const skeletons = new Map<string, Promise<CompiledSkeleton>>();

function compiledSkeleton(skeleton: string): Promise<CompiledSkeleton> {
  let compiled = skeletons.get(skeleton);
  if (!compiled) {
    compiled = mjml2html(skeleton, MJML_OPTIONS).then(({ html }) => cutAtSlots(html));
    // A failed compile is not kept: the next message tries again (and fails the same way if MJML refuses it).
    compiled.catch(() => skeletons.delete(skeleton));
    skeletons.set(skeleton, compiled);
  }
  return compiled;
}

function cutAtSlots(html: string): CompiledSkeleton {
  const parts: CompiledSkeleton = html.split(SLOT).map((part, index) => (index % 2 === 0 ? part : Number(part)));
  if (parts.some((part) => typeof part === "string" && (part.includes(SLOT_OPEN) || part.includes(SLOT_CLOSE))))
    throw new Error("MJML altered a slot of the e-mail skeleton");
  return parts;
}

const fillSlots = (parts: CompiledSkeleton, texts: string[]) =>
  parts.map((part) => (typeof part === "number" ? texts[part] : part)).join("");
