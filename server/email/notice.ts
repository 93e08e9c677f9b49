// The service's own short notices to people who asked for a link (the claims team's and the merchant dashboard's
// sign-in, sign-up and invitation e-mails): a few paragraphs and one link, the same words in the plain-text and the
// HTML part (escaped). Unlike the buyer e-mails (layout.ts), these go to any address someone typed into a form, with
// a business name or an inviter's address that person also typed: that text is made inert (inertCallerText) so the
// e-mail cannot be turned into someone else's link.
import { escapeHtml } from "./layout.ts";

export interface RenderedNotice {
  /** Fixed words: never any caller text. */
  subject: string;
  text: string;
  html: string;
}

/** A paragraph, or a link (its label, then the URL, in the text part). */
export type NoticeBlock = string | { label: string; href: string };

/**
 * Text someone typed into a form (a business name, an inviter's address) made inert for both parts. Mail clients turn
 * what looks like a URL, a domain, an address or a @mention into a link even in plain text; each needs punctuation
 * glued to its neighbours ("://", ".", "@", or an IDNA dot such as "。"). So a hair space (U+200A: a space to every
 * autolinker, barely visible) follows each punctuation or symbol character except "#", "-" and "_". Line breaks
 * become spaces. The HTML part escapes the result too, and never wraps it in a link.
 */
export const inertCallerText = (text: string) =>
  text.replace(/[\r\n\u2028\u2029]+/g, " ").replace(/[^\p{L}\p{N}\p{Zs}#_-]/gu, (character) => `${character}\u200A`);

/** "Mon, 23 Nov 2026 19:34:31 GMT" */
export const utcTime = (ms: number) => new Date(ms).toUTCString();

export function renderNotice(subject: string, blocks: NoticeBlock[]): RenderedNotice {
  const text = blocks
    .map((block) => (typeof block === "string" ? block : `${block.label}: ${block.href}`))
    .join("\n\n");
  const html = blocks
    .map((block) =>
      typeof block === "string"
        ? `<p>${escapeHtml(block)}</p>`
        : `<p><a href="${escapeHtml(block.href)}">${escapeHtml(block.label)}</a></p>`,
    )
    .join("\n");
  return { subject, text, html };
}
