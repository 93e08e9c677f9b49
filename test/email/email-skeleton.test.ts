// The buyer e-mails' HTML comes from a skeleton compiled once per shape of document, with each message's escaped texts
// filled into its slots (server/email/layout.ts). This proves it writes byte for byte what compiling the whole MJML
// document with the texts in place writes (the oracle below: the same document, MJML run on every message), for every
// template and state, with plain and hostile texts: markup, entities, quotes, emoji, right-to-left and bidi controls,
// long words, line breaks, the slots' own private-use characters and what String.replace would read as patterns.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import {
  MJML_OPTIONS,
  mjmlDocument,
  renderEmail,
  type EmailContext,
  type EmailTemplateRenderer,
} from "../../server/email/layout.ts";
import { mjml2html } from "../../server/email/mjml.ts";
import { welcomeProtected } from "../../server/email/welcome-protected.ts";
import { freeLookCancelled } from "../../server/email/free-look-cancelled.ts";
import { claimReceived } from "../../server/email/claim-received.ts";
import { claimInformationNeeded } from "../../server/email/claim-information-needed.ts";
import { claimDecided } from "../../server/email/claim-decided.ts";
import { claimPaid } from "../../server/email/claim-paid.ts";
import { APPROVAL_DECISION, DENIAL_REASONS } from "../../server/domain/claim-decisions.ts";
import type { EmailClaim, EmailPlan } from "../../server/store/emails.ts";
import { NOW, SAMPLE_REFERENCE, sampleClaim, samplePlan } from "./samples.ts";

/** One text for every caller-written field of a message. */
const TEXTS = {
  plain: "Harbour Lane Ceramics",
  markup: `<script>alert("x")</script><b onclick='y'>bold</b> </mj-text></mj-column><mj-raw>`,
  entities: "Fish & Chips &amp; &#38; &lt; &#x3C; &nbsp; Co.",
  quotes: `It's "brand new" — ‘curly’ “quotes” \` backtick`,
  emoji: "Ceramics 🛡️👍🏽👨‍👩‍👧 🇯🇵 \u{1F600}",
  rtl: "متجر الخزف \u200F\u202Eabc\u202C עברית",
  long: `https://carrier.example/track/${"X".repeat(5_000)}`,
  lines: "First line\r\nSecond line\n\nThird\rFourth\u2028",
  slots: "\uE0000\uE001 \uE000 \uE001 \uE0001",
  patterns: "$& $1 $$ $' $` $<name>",
};

const plan = (text: string, overrides: Partial<EmailPlan> = {}) =>
  samplePlan({
    referenceNumber: `${SAMPLE_REFERENCE}${text === TEXTS.plain ? "" : text}`,
    orderId: `gid-${text}`,
    orderName: text,
    merchantName: text,
    ...overrides,
  });

const claim = (text: string, overrides: Partial<EmailClaim> = {}) => sampleClaim({ description: text, ...overrides });

const decided = (text: string, overrides: Partial<EmailClaim>) =>
  claim(text, {
    status: "approved",
    decisionCode: APPROVAL_DECISION.code,
    decisionMessage: APPROVAL_DECISION.message,
    decidedAt: NOW,
    remedy: "refund",
    ...overrides,
  });

const denial = DENIAL_REASONS[0];

/** Every template in the states it tells apart (each a shape of document, or a block present or absent). */
const CASES: {
  name: string;
  template: EmailTemplateRenderer;
  plan: (text: string) => EmailPlan;
  claim?: (text: string) => EmailClaim;
}[] = [
  { name: "welcome_protected", template: welcomeProtected, plan: (text) => plan(text) },
  {
    name: "welcome_protected, no order name",
    template: welcomeProtected,
    plan: (text) => plan(text, { orderName: null }),
  },
  {
    name: "free_look_cancelled",
    template: freeLookCancelled,
    plan: (text) => plan(text, { status: "cancelled", cancelledAt: NOW - 60_000, feeRefundChannel: "shopify" }),
  },
  {
    name: "free_look_cancelled, no time",
    template: freeLookCancelled,
    plan: (text) => plan(text, { status: "cancelled" }),
  },
  { name: "claim_received", template: claimReceived, plan: (text) => plan(text), claim: (text) => claim(text) },
  {
    name: "claim_received, no date",
    template: claimReceived,
    plan: (text) => plan(text),
    claim: (text) => claim(text, { occurredAt: 0 }),
  },
  {
    name: "claim_information_needed",
    template: claimInformationNeeded,
    plan: (text) => plan(text),
    claim: (text) => claim(text, { status: "needs_information", latestRequest: { actor: "claims_team", text } }),
  },
  {
    name: "claim_information_needed, no question",
    template: claimInformationNeeded,
    plan: (text) => plan(text),
    claim: (text) => claim(text, { status: "needs_information" }),
  },
  {
    name: "claim_decided, approved with a note",
    template: claimDecided,
    plan: (text) => plan(text),
    claim: (text) => decided(text, { decisionNote: text, decisionMessage: text }),
  },
  {
    name: "claim_decided, approved on Shopify",
    template: claimDecided,
    plan: (text) => plan(text, { refundChannel: "shopify" }),
    claim: (text) => decided(text, {}),
  },
  {
    name: "claim_decided, replacement",
    template: claimDecided,
    plan: (text) => plan(text, { refundChannel: "shopify" }),
    claim: (text) => decided(text, { remedy: "replacement" }),
  },
  {
    name: "claim_decided, denied",
    template: claimDecided,
    plan: (text) => plan(text),
    claim: (text) =>
      decided(text, { status: "denied", decisionCode: denial.code, decisionMessage: text, decisionNote: text }),
  },
  {
    name: "claim_paid, refund by the merchant",
    template: claimPaid,
    plan: (text) => plan(text),
    claim: (text) =>
      decided(text, {
        status: "paid",
        paidAmountCents: 12_000,
        resolution: { channel: "merchant", reference: text, note: text },
        resolvedAt: NOW,
      }),
  },
  {
    name: "claim_paid, refund on Shopify",
    template: claimPaid,
    plan: (text) => plan(text, { refundChannel: "shopify" }),
    claim: (text) => decided(text, { status: "paid" }),
  },
  {
    name: "claim_paid, replacement placed",
    template: claimPaid,
    plan: (text) => plan(text, { refundChannel: "shopify" }),
    claim: (text) =>
      decided(text, {
        status: "paid",
        remedy: "replacement",
        resolution: { channel: "shopify", reference: text, note: null },
        resolvedAt: NOW,
      }),
  },
  {
    name: "claim_paid, replacement sent",
    template: claimPaid,
    plan: (text) => plan(text),
    claim: (text) =>
      decided(text, {
        status: "paid",
        remedy: "replacement",
        resolution: { channel: "merchant", reference: text, note: text },
        resolvedAt: NOW,
      }),
  },
];

const contextOf = (entry: (typeof CASES)[number], text: string): EmailContext => {
  const portalUrl = `https://portal.example.test/${text}`;
  return {
    plan: entry.plan(text),
    claim: entry.claim?.(text),
    settings: { companyName: text, portalUrl },
    coverageLink: `${portalUrl}/coverage/x?token=${text}&claim=2`,
  };
};

describe("buyer e-mails from compiled skeletons", () => {
  it("write the same subject, text and HTML, byte for byte, as compiling each whole document", async () => {
    for (const entry of CASES)
      for (const [kind, text] of Object.entries(TEXTS)) {
        const context = contextOf(entry, text);
        const content = entry.template(context);
        assert.ok(content, `${entry.name} renders`);
        const email = await renderEmail(content, context);
        const oracle = await mjml2html(
          mjmlDocument(content, context, (escapedHtml) => escapedHtml),
          MJML_OPTIONS,
        );
        assert.equal(email.html, oracle.html, `${entry.name} with ${kind} text: the HTML`);
        assert.equal(email.subject, content.subject);
        assert.ok(email.text.includes(content.heading) && email.text.includes(context.coverageLink));
        // No caller text comes through unescaped, and no slot is left.
        if (kind === "markup") assert.ok(!email.html.includes("<script>") && !email.html.includes("<b onclick"));
        if (kind !== "slots") assert.doesNotMatch(email.html, /[\uE000\uE001]/, `${entry.name}: no slot left`);
      }
  });

  it("messages of one shape rendered at once (the first compiling its skeleton) are the same HTML", async () => {
    const context = contextOf(CASES[0], "Batch & Co.");
    const content = welcomeProtected(context)!;
    const emails = await Promise.all(Array.from({ length: 20 }, () => renderEmail(content, context)));
    assert.equal(new Set(emails.map((email) => email.html)).size, 1);
  });
});
