// docs/api.md "The buyer's language": every buyer e-mail rendered (text and HTML, through the one layout) in each of
// the five languages from the plan's recorded locale: subject, heading, sentences, button and footer translated, the
// rulebook's reason names, decision sentences and disclosure in that language, plural forms chosen by number, money
// written as the locale writes it ("12,34 €" in fr and de) and times in the plan's time zone, else in UTC, named.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { renderEmail, type EmailContext, type EmailTemplateRenderer } from "../../server/email/layout.ts";
import { welcomeProtected } from "../../server/email/welcome-protected.ts";
import { freeLookCancelled } from "../../server/email/free-look-cancelled.ts";
import { claimReceived } from "../../server/email/claim-received.ts";
import { claimInformationNeeded } from "../../server/email/claim-information-needed.ts";
import { claimReopened } from "../../server/email/claim-reopened.ts";
import { claimDecided } from "../../server/email/claim-decided.ts";
import { claimPaid } from "../../server/email/claim-paid.ts";
import { DENIAL_REASONS, APPROVAL_DECISION as APPROVAL } from "../../server/domain/claim-decisions.ts";
import { rulebookText } from "../../server/domain/rulebook-text.ts";
import { NOW, DAY, SAMPLE_REFERENCE, sampleClaim, samplePlan } from "./samples.ts";
import type { EmailClaim, EmailPlan } from "../../server/store/emails.ts";

const SETTINGS = {
  portalUrl: "https://portal.example.test",
  companyName: "Acme Guarantee Ltd.",
} as EmailContext["settings"];

async function render(template: EmailTemplateRenderer, plan: EmailPlan, claim?: EmailClaim) {
  const context: EmailContext = { plan, claim, settings: SETTINGS, coverageLink: "https://portal.example.test/c" };
  const content = template(context);
  assert.ok(content, "rendered");
  return renderEmail(content, context);
}

/** A plan in `locale` paying in EUR: a fee of 12,34 € on 1 234,56 € of goods. */
const euroPlan = (locale: string | null, overrides: Partial<EmailPlan> = {}) =>
  samplePlan({ locale, currency: "EUR", buyerFeeCents: 1_234, coveredAmountCents: 123_456, ...overrides });

const denial = DENIAL_REASONS.find((reason) => reason.code === "insufficient_evidence")!;

/** What each language must say, by e-mail. */
const EXPECTED = {
  en: {
    welcome: [
      "Your purchase protection is active: ",
      "Your order is protected",
      "Protection fee: €12.34",
      "within 48 hours of purchase",
      "within 30 days of what happened",
      "Lost in transit",
      "See your coverage",
      "This is not insurance. This is a contractual refund guarantee provided by Acme Guarantee Ltd.",
    ],
    cancelled: ["Your purchase protection is cancelled: ", "The protection fee of €12.34 is refunded in full."],
    received: [
      "We received your refund request: ",
      "claim 2 on CLM-2026-7K3M9Q2X",
      "within 5 business days",
      "Damaged in transit",
    ],
    information: ["More information needed for your refund request: ", "Answer the claims team"],
    reopened: ["Your refund request is back under review: ", "Your parcel is moving again"],
    denied: ["Decision on your refund request: ", "was not approved"],
    approved: ["Your refund request has been approved", "(within 1 business day of the approval)"],
    paid: ["Your refund has been paid: ", "Your refund of €99.00 for claim 2"],
  },
  fr: {
    welcome: [
      "Votre protection d’achat est active : ",
      "Votre commande est protégée",
      "Frais de protection: 12,34\u00a0€",
      "Montant couvert: 1\u202f234,56\u00a0€",
      "dans les 48 heures qui suivent l’achat",
      "dans les 30 jours qui suivent les faits",
      "Perdu pendant le transport",
      "Voir votre couverture",
      "Ceci n’est pas une assurance. Il s’agit d’une garantie de remboursement contractuelle fournie par Acme Guarantee Ltd.",
      "Vous recevez cet e-mail parce que vous avez ajouté une protection d’achat à la commande #1001 chez",
    ],
    cancelled: [
      "Votre protection d’achat est résiliée : ",
      "Les frais de protection de 12,34\u00a0€ vous sont intégralement remboursés.",
    ],
    received: [
      "Nous avons reçu votre demande de remboursement : ",
      "demande 2 du dossier CLM-2026-7K3M9Q2X",
      "sous 5 jours ouvrés",
      "Endommagé pendant le transport",
    ],
    information: [
      "Informations complémentaires requises pour votre demande de remboursement : ",
      "Répondre à l’équipe des demandes",
    ],
    reopened: [
      "Votre demande de remboursement est de nouveau en cours d’examen : ",
      "Votre colis est de nouveau en route",
    ],
    denied: ["Décision concernant votre demande de remboursement : ", "n’a pas été acceptée"],
    approved: ["Votre demande de remboursement a été acceptée", "(dans le jour ouvré suivant l’acceptation)"],
    paid: ["Votre remboursement a été versé : ", "Votre remboursement de 99,00\u00a0€ pour la demande 2"],
  },
  de: {
    welcome: [
      "Ihr Käuferschutz ist aktiv: ",
      "Ihre Bestellung ist geschützt",
      "Schutzgebühr: 12,34\u00a0€",
      "Gedeckter Betrag: 1.234,56\u00a0€",
      "innerhalb von 48 Stunden nach dem Kauf",
      "innerhalb von 30 Tagen nach dem Ereignis",
      "Beim Versand verloren",
      "Ihren Schutz ansehen",
      "Dies ist keine Versicherung. Es handelt sich um eine vertragliche Rückerstattungsgarantie von Acme Guarantee Ltd.",
    ],
    cancelled: [
      "Ihr Käuferschutz ist gekündigt: ",
      "Die Schutzgebühr von 12,34\u00a0€ wird Ihnen vollständig erstattet.",
    ],
    received: [
      "Wir haben Ihren Erstattungsantrag erhalten: ",
      "Antrag 2 zu CLM-2026-7K3M9Q2X",
      "innerhalb von 5 Werktagen",
      "Beim Versand beschädigt",
    ],
    information: ["Weitere Informationen zu Ihrem Erstattungsantrag benötigt: ", "Dem Antragsteam antworten"],
    reopened: ["Ihr Erstattungsantrag wird erneut geprüft: ", "Ihr Paket ist wieder unterwegs"],
    denied: ["Entscheidung über Ihren Erstattungsantrag: ", "wurde nicht genehmigt"],
    approved: ["Ihr Erstattungsantrag wurde genehmigt", "(innerhalb von 1 Werktag nach der Genehmigung)"],
    paid: ["Ihre Erstattung wurde ausgezahlt: ", "Ihre Erstattung von 99,00\u00a0€ für Ihren Antrag 2"],
  },
  es: {
    welcome: [
      "Su protección de compra está activa: ",
      "Su pedido está protegido",
      "Tarifa de protección: 12,34\u00a0€",
      "en un plazo de 48 horas desde la compra",
      "en un plazo de 30 días desde lo ocurrido",
      "Perdido durante el transporte",
      "Ver su cobertura",
      "Esto no es un seguro. Se trata de una garantía contractual de reembolso prestada por Acme Guarantee Ltd.",
    ],
    cancelled: [
      "Su protección de compra está cancelada: ",
      "La tarifa de protección de 12,34\u00a0€ se le reembolsa íntegramente.",
    ],
    received: [
      "Hemos recibido su solicitud de reembolso: ",
      "solicitud 2 del expediente CLM-2026-7K3M9Q2X",
      "en un plazo de 5 días hábiles",
      "Dañado durante el transporte",
    ],
    information: [
      "Se necesita más información sobre su solicitud de reembolso: ",
      "Responder al equipo de reclamaciones",
    ],
    reopened: ["Su solicitud de reembolso vuelve a estar en revisión: ", "Su paquete vuelve a estar en camino"],
    denied: ["Decisión sobre su solicitud de reembolso: ", "no ha sido aprobada"],
    approved: ["Su solicitud de reembolso ha sido aprobada", "(en un plazo de 1 día hábil desde la aprobación)"],
    paid: ["Se ha pagado su reembolso: ", "Se ha pagado su reembolso de 99,00\u00a0€ por la solicitud 2"],
  },
  nl: {
    welcome: [
      "Uw aankoopbescherming is actief: ",
      "Uw bestelling is beschermd",
      "Beschermingsvergoeding: €\u00a012,34",
      "binnen 48 uur na de aankoop",
      "binnen 30 dagen na de gebeurtenis",
      "Zoekgeraakt tijdens verzending",
      "Uw dekking bekijken",
      "Dit is geen verzekering. Het is een contractuele terugbetalingsgarantie van Acme Guarantee Ltd.",
    ],
    cancelled: [
      "Uw aankoopbescherming is opgezegd: ",
      "De beschermingsvergoeding van €\u00a012,34 wordt volledig terugbetaald.",
    ],
    received: [
      "We hebben uw terugbetalingsverzoek ontvangen: ",
      "verzoek 2 bij CLM-2026-7K3M9Q2X",
      "binnen 5 werkdagen",
      "Beschadigd tijdens verzending",
    ],
    information: ["Meer informatie nodig voor uw terugbetalingsverzoek: ", "Het claimteam antwoorden"],
    reopened: ["Uw terugbetalingsverzoek wordt opnieuw beoordeeld: ", "Uw pakket is weer onderweg"],
    denied: ["Besluit over uw terugbetalingsverzoek: ", "is niet goedgekeurd"],
    approved: ["Uw terugbetalingsverzoek is goedgekeurd", "(binnen 1 werkdag na de goedkeuring)"],
    paid: ["Uw terugbetaling is uitbetaald: ", "Uw terugbetaling van €\u00a099,00 voor uw verzoek 2"],
  },
} as const;

const LOCALES = { en: null, fr: "fr-FR", de: "de-DE", es: "es-ES", nl: "nl-NL" } as const;
/** How each language introduces a decision's sentence. */
const WHY = { en: "Why: ", fr: "Motif : ", de: "Begründung: ", es: "Motivo: ", nl: "Reden: " } as const;

describe.each(Object.entries(LOCALES))("buyer e-mails in %s (plan locale %s)", (language, locale) => {
  const expected = EXPECTED[language as keyof typeof EXPECTED];
  const plan = euroPlan(locale);
  const claim = (overrides: Partial<EmailClaim> = {}) =>
    sampleClaim({ currency: "EUR", amountCents: 9_900, ...overrides });
  const decided = { decidedAt: NOW - DAY, remedy: "refund" as const };
  const rulebook = rulebookText(locale ?? "en");
  const why = WHY[language as keyof typeof WHY];

  /** The subject starts with the template's words and ends with the reference; the text holds every expected sentence. */
  async function assertSays(email: { subject: string; text: string; html: string }, sentences: readonly string[]) {
    assert.ok(email.subject.startsWith(sentences[0]) && email.subject.endsWith(SAMPLE_REFERENCE), email.subject);
    for (const sentence of sentences.slice(1))
      assert.ok(email.text.includes(sentence), `${sentence}\n---\n${email.text}`);
    assert.match(email.html, new RegExp(`<html[^>]* lang="${language}"`), "the document says its language");
  }

  it("welcome_protected: subject, sentences, facts, reasons, button, footer and disclosure; plurals; money as the locale writes it", async () => {
    await assertSays(await render(welcomeProtected, plan), expected.welcome);
  });
  it("free_look_cancelled", async () => {
    await assertSays(
      await render(freeLookCancelled, euroPlan(locale, { status: "cancelled", cancelledAt: NOW })),
      expected.cancelled,
    );
  });
  it("claim_received", async () => {
    await assertSays(await render(claimReceived, plan, claim()), expected.received);
  });
  it("claim_information_needed", async () => {
    await assertSays(
      await render(claimInformationNeeded, plan, claim({ status: "needs_information" })),
      expected.information,
    );
  });
  it("claim_reopened", async () => {
    await assertSays(await render(claimReopened, plan, claim({ status: "under_review" })), expected.reopened);
  });
  it("claim_decided, denied: the rulebook's sentence in this language", async () => {
    const email = await render(
      claimDecided,
      plan,
      claim({ status: "denied", decisionCode: denial.code, decisionMessage: denial.message, ...decided }),
    );
    await assertSays(email, [...expected.denied, `${why}${rulebook.denial("insufficient_evidence")}`]);
  });
  it("claim_decided, approved on Shopify: one business day, in the singular", async () => {
    const email = await render(
      claimDecided,
      euroPlan(locale, { refundChannel: "shopify" }),
      claim({ status: "approved", decisionCode: APPROVAL.code, decisionMessage: APPROVAL.message, ...decided }),
    );
    assert.ok(email.subject.endsWith(SAMPLE_REFERENCE));
    for (const sentence of expected.approved)
      assert.ok(email.text.includes(sentence), `${sentence}\n---\n${email.text}`);
  });
  it("claim_paid", async () => {
    const email = await render(
      claimPaid,
      plan,
      claim({ status: "paid", paidAmountCents: 9_900, resolvedAt: NOW, ...decided }),
    );
    await assertSays(email, expected.paid);
  });
});

describe("times in the buyer e-mails", () => {
  it("are in the plan's time zone when it recorded one, named; else in UTC, said so", async () => {
    const inParis = await render(welcomeProtected, euroPlan("fr-FR", { timeZone: "Europe/Paris" }));
    // NOW is 14:05 UTC; the free look ends then: 15:05 in Paris in November.
    assert.ok(inParis.text.includes("jusqu’au 27 nov. 2026, 15:05 UTC+1"), inParis.text);
    const inUtc = await render(welcomeProtected, euroPlan("fr-FR"));
    assert.ok(inUtc.text.includes("jusqu’au 27 nov. 2026, 14:05 UTC"), inUtc.text);
    const english = await render(welcomeProtected, samplePlan());
    assert.ok(english.text.includes("(until 27 Nov 2026, 14:05 UTC)"), english.text);
  });

  it("a locale's region writes money its way (fr-CA), and a served language without a region reads as its language", async () => {
    const canadian = await render(
      welcomeProtected,
      samplePlan({ locale: "fr-CA", currency: "CAD", buyerFeeCents: 1_234 }),
    );
    assert.ok(canadian.text.includes("Frais de protection: 12,34\u00a0$"), canadian.text);
    const german = await render(welcomeProtected, samplePlan({ locale: "de", currency: "EUR", buyerFeeCents: 1_234 }));
    assert.ok(german.subject.startsWith("Ihr Käuferschutz ist aktiv: "));
    assert.ok(german.text.includes("Schutzgebühr: 12,34\u00a0€"), german.text);
  });
});
