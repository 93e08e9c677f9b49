// A rule's decision basis in each buyer language: the sentences from the catalogue of the buyer's language, amounts and
// days written as the buyer's locale writes them, the days' plurals; and, without a locale, the service's own English
// that the API, the webhooks and the claims console read.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import {
  decisionBasisMessages,
  decisionBasisSentences,
  describeDecisionFact,
  type DecisionFact,
} from "./decision-basis.ts";

const DAY = 86_400_000;
const JANUARY_10 = Date.UTC(2026, 0, 10);
/** The narrow no-break space French groups thousands with, and the no-break space before a currency's symbol. */
const NNBSP = "\u202f";
const NBSP = "\u00a0";

const FACTS: DecisionFact[] = [
  { fact: "within_cover", amountCents: 2_050, remainingCents: 150_000 },
  { fact: "delivered", at: JANUARY_10 + DAY },
  { fact: "delivery", state: "in_transit", overdue: true },
  { fact: "filed_after_window", occurredAt: JANUARY_10, filedAt: JANUARY_10 + 31 * DAY },
  { fact: "amount_above_remaining", amountCents: 2_000, remainingCents: -5 },
];
const sentencesIn = (locale: string | undefined, currency = "EUR") =>
  FACTS.map((fact) => describeDecisionFact(fact, currency, locale));

describe("a decision's basis", () => {
  it("reads in the service's own English without a locale: what the API, the webhooks and the console show", () => {
    assert.deepEqual(sentencesIn(undefined, "USD"), [
      "You asked for $20.50, within the $1,500.00 your plan still covers.",
      "The carrier recorded your parcel delivered on 11 January 2026.",
      "Your parcel was not delivered within 14 days of the promised delivery date.",
      "You told us it happened on 10 January 2026, more than 30 days before the claim was filed on 10 February 2026.",
      "You asked for $20.00; your plan covers $0.00 more.",
    ]);
  });

  it("reads in French, amounts and days as France writes them", () => {
    assert.deepEqual(sentencesIn("fr-FR"), [
      `Vous avez demandé 20,50${NBSP}€, dans la limite de ce que votre protection couvre encore : 1${NNBSP}500,00${NBSP}€.`,
      "Le transporteur a enregistré la livraison de votre colis le 11 janvier 2026.",
      "Votre colis n’a pas été livré dans un délai de 14 jours après la date de livraison promise.",
      "Vous nous avez indiqué que les faits ont eu lieu le 10 janvier 2026, soit plus de 30 jours avant le dépôt de la demande, le 10 février 2026.",
      `Vous avez demandé 20,00${NBSP}€, alors que votre protection ne couvre plus que 0,00${NBSP}€.`,
    ]);
  });

  it("reads in German, amounts and days as Germany writes them", () => {
    assert.deepEqual(sentencesIn("de-DE"), [
      `Sie haben 20,50${NBSP}€ beantragt; das liegt im Rahmen der Deckung, die Ihr Schutz noch bietet: 1.500,00${NBSP}€.`,
      "Der Versanddienstleister hat die Zustellung Ihres Pakets am 11. Januar 2026 erfasst.",
      "Ihr Paket wurde nicht innerhalb von 14 Tagen nach dem zugesagten Liefertermin zugestellt.",
      "Sie haben angegeben, dass es am 10. Januar 2026 geschehen ist, mehr als 30 Tage bevor der Antrag am 10. Februar 2026 gestellt wurde.",
      `Sie haben 20,00${NBSP}€ beantragt; Ihr Schutz deckt nur noch 0,00${NBSP}€ ab.`,
    ]);
  });

  it("reads in Spanish and Dutch, each with its own figures", () => {
    assert.deepEqual(sentencesIn("es-ES").slice(0, 2), [
      "Solicitó 20,50 €, dentro del límite de 1500,00 € que aún cubre su protección.".replaceAll(" €", `${NBSP}€`),
      "El transportista registró la entrega de su paquete el 11 de enero de 2026.",
    ]);
    assert.deepEqual(sentencesIn("nl-NL").slice(0, 2), [
      `U hebt €${NBSP}20,50 gevraagd; dat valt binnen de €${NBSP}1.500,00 die uw bescherming nog dekt.`,
      "De vervoerder heeft uw pakket op 11 januari 2026 als bezorgd geregistreerd.",
    ]);
  });

  it("keeps the region of the locale for the figures: the claim's US dollars in Canadian French", () => {
    assert.equal(
      describeDecisionFact({ fact: "within_cover", amountCents: 2_550, remainingCents: 50_000 }, "USD", "fr-CA"),
      `Vous avez demandé 25,50${NBSP}$${NBSP}US, dans la limite de ce que votre protection couvre encore : 500,00${NBSP}$${NBSP}US.`,
    );
  });

  it("counts the days with each language's plural", () => {
    const overdue = (locale: string, days: number) =>
      decisionBasisMessages.format(locale, "delivery.overdue", { days });
    assert.match(overdue("de", 1), /innerhalb von 1 Tag nach/);
    assert.match(overdue("de", 14), /innerhalb von 14 Tagen nach/);
    assert.match(overdue("fr", 1), /livré dans un délai de 1 jour après/);
    assert.match(overdue("es", 1), /en un plazo de 1 día desde/);
    assert.match(overdue("nl", 1), /binnen 1 dag na/);
    assert.match(overdue("en", 1), /within 1 day of/);
  });

  it("reads a stored basis in the locale given, and a decision without one as nothing", () => {
    const stored = JSON.stringify([{ fact: "plan_ended", endedAt: JANUARY_10 }, { fact: "no_delivery_recorded" }]);
    assert.deepEqual(decisionBasisSentences(stored, "EUR", "de-DE"), [
      "Ihr Schutz endete am 10. Januar 2026, bevor der Antrag gestellt wurde.",
      "Für Ihre Bestellung wurde keine Zustellung erfasst.",
    ]);
    assert.deepEqual(decisionBasisSentences(stored, "EUR"), [
      "Your protection ended on 10 January 2026, before the claim was filed.",
      "No delivery of your order has been recorded.",
    ]);
    assert.deepEqual(decisionBasisSentences(null, "EUR", "fr-FR"), []);
  });
});
