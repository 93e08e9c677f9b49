// What an automatic decision rested on: the facts the claim rules used, kept with the decision (claims.decision_basis,
// JSON) and read back as sentences in the buyer's words. The portal shows them under the decision in the buyer's
// language, amounts and days written as their locale writes them; the API, the webhooks and the claims team's console
// read the service's own English. A person's decision has none: its note and sentence say why.
import { DEFAULT_BUYER_LOCALE, formatMoney, formatMoneyEnUs } from "@purchase-protection/contract";
import { defineMessages } from "@purchase-protection/contract/messages";
import type { OrderDeliveryState } from "../vocabulary/deliveries.ts";
import { OVERDUE_AFTER_PROMISED_DAYS } from "./delivery-states.ts";
import { CLAIM_WINDOW_DAYS } from "./disclosure.ts";

export type DecisionFact =
  | { fact: "within_cover"; amountCents: number; remainingCents: number }
  | { fact: "no_delivery_recorded" }
  | { fact: "delivered"; at: number }
  | { fact: "delivery"; state: OrderDeliveryState; overdue: boolean }
  | { fact: "filed_after_window"; occurredAt: number; filedAt: number }
  /** The window counted from the carrier's recorded delivery (claim-rules.ts claimWindowOf). */
  | { fact: "filed_after_window"; deliveredAt: number; filedAt: number }
  | { fact: "plan_ended"; endedAt: number }
  | { fact: "amount_above_remaining"; amountCents: number; remainingCents: number };

// Amounts ({amount}, {remaining}) and days ({…On}) come in written for the reader's locale; {days} is a number.
const english = {
  within_cover: "You asked for {amount}, within the {remaining} your plan still covers.",
  amount_above_remaining: "You asked for {amount}; your plan covers {remaining} more.",
  no_delivery_recorded: "No delivery of your order has been recorded.",
  delivered: "The carrier recorded your parcel delivered on {deliveredOn}.",
  "delivery.overdue":
    "Your parcel was not delivered within {days, plural, one {# day} other {# days}} of the promised delivery date.",
  "delivery.not_shipped": "No shipment of your order has been reported.",
  "delivery.pending": "The carrier has not scanned your parcel yet.",
  "delivery.in_transit": "The carrier reports your parcel on its way.",
  "delivery.stalled": "The carrier has reported no movement of your parcel for too long: it is presumed lost.",
  "delivery.delivered": "The carrier reported your parcel delivered.",
  "delivery.failed": "The carrier reported that it could not deliver your parcel.",
  "delivery.returned_to_sender": "The carrier reported your parcel returned to the sender.",
  "filed_after_window.delivery":
    "The carrier recorded your parcel delivered on {deliveredOn}, more than {days, plural, one {# day} other {# days}} before the claim was filed on {filedOn}.",
  "filed_after_window.occurrence":
    "You told us it happened on {occurredOn}, more than {days, plural, one {# day} other {# days}} before the claim was filed on {filedOn}.",
  plan_ended: "Your protection ended on {endedOn}, before the claim was filed.",
} satisfies Record<`delivery.${OrderDeliveryState}`, string> & Record<string, string>;

export const decisionBasisMessages = defineMessages(english, {
  fr: {
    within_cover: "Vous avez demandé {amount}, dans la limite de ce que votre protection couvre encore : {remaining}.",
    amount_above_remaining: "Vous avez demandé {amount}, alors que votre protection ne couvre plus que {remaining}.",
    no_delivery_recorded: "Aucune livraison de votre commande n’a été enregistrée.",
    delivered: "Le transporteur a enregistré la livraison de votre colis le {deliveredOn}.",
    "delivery.overdue":
      "Votre colis n’a pas été livré dans un délai de {days, plural, one {# jour} other {# jours}} après la date de livraison promise.",
    "delivery.not_shipped": "Aucune expédition de votre commande n’a été signalée.",
    "delivery.pending": "Le transporteur n’a pas encore scanné votre colis.",
    "delivery.in_transit": "Selon le transporteur, votre colis est en route.",
    "delivery.stalled":
      "Le transporteur n’a signalé aucun mouvement de votre colis depuis trop longtemps : il est présumé perdu.",
    "delivery.delivered": "Le transporteur a indiqué que votre colis a été livré.",
    "delivery.failed": "Le transporteur a indiqué qu’il n’a pas pu livrer votre colis.",
    "delivery.returned_to_sender": "Le transporteur a indiqué que votre colis a été renvoyé à l’expéditeur.",
    "filed_after_window.delivery":
      "Le transporteur a enregistré la livraison de votre colis le {deliveredOn}, soit plus de {days, plural, one {# jour} other {# jours}} avant le dépôt de la demande, le {filedOn}.",
    "filed_after_window.occurrence":
      "Vous nous avez indiqué que les faits ont eu lieu le {occurredOn}, soit plus de {days, plural, one {# jour} other {# jours}} avant le dépôt de la demande, le {filedOn}.",
    plan_ended: "Votre protection a pris fin le {endedOn}, avant le dépôt de la demande.",
  },
  de: {
    within_cover:
      "Sie haben {amount} beantragt; das liegt im Rahmen der Deckung, die Ihr Schutz noch bietet: {remaining}.",
    amount_above_remaining: "Sie haben {amount} beantragt; Ihr Schutz deckt nur noch {remaining} ab.",
    no_delivery_recorded: "Für Ihre Bestellung wurde keine Zustellung erfasst.",
    delivered: "Der Versanddienstleister hat die Zustellung Ihres Pakets am {deliveredOn} erfasst.",
    "delivery.overdue":
      "Ihr Paket wurde nicht innerhalb von {days, plural, one {# Tag} other {# Tagen}} nach dem zugesagten Liefertermin zugestellt.",
    "delivery.not_shipped": "Für Ihre Bestellung wurde noch kein Versand gemeldet.",
    "delivery.pending": "Der Versanddienstleister hat Ihr Paket noch nicht gescannt.",
    "delivery.in_transit": "Laut Versanddienstleister ist Ihr Paket unterwegs.",
    "delivery.stalled":
      "Der Versanddienstleister meldet schon zu lange keine Bewegung Ihres Pakets: Es gilt als verloren.",
    "delivery.delivered": "Der Versanddienstleister hat Ihr Paket als zugestellt gemeldet.",
    "delivery.failed": "Der Versanddienstleister hat gemeldet, dass er Ihr Paket nicht zustellen konnte.",
    "delivery.returned_to_sender":
      "Der Versanddienstleister hat gemeldet, dass Ihr Paket an den Absender zurückgeschickt wurde.",
    "filed_after_window.delivery":
      "Der Versanddienstleister hat die Zustellung Ihres Pakets am {deliveredOn} erfasst, mehr als {days, plural, one {# Tag} other {# Tage}} bevor der Antrag am {filedOn} gestellt wurde.",
    "filed_after_window.occurrence":
      "Sie haben angegeben, dass es am {occurredOn} geschehen ist, mehr als {days, plural, one {# Tag} other {# Tage}} bevor der Antrag am {filedOn} gestellt wurde.",
    plan_ended: "Ihr Schutz endete am {endedOn}, bevor der Antrag gestellt wurde.",
  },
  es: {
    within_cover: "Solicitó {amount}, dentro del límite de {remaining} que aún cubre su protección.",
    amount_above_remaining: "Solicitó {amount}, pero su protección solo cubre {remaining} más.",
    no_delivery_recorded: "No consta ninguna entrega de su pedido.",
    delivered: "El transportista registró la entrega de su paquete el {deliveredOn}.",
    "delivery.overdue":
      "Su paquete no se entregó en un plazo de {days, plural, one {# día} other {# días}} desde la fecha de entrega prometida.",
    "delivery.not_shipped": "No se ha informado de ningún envío de su pedido.",
    "delivery.pending": "El transportista aún no ha escaneado su paquete.",
    "delivery.in_transit": "Según el transportista, su paquete está en camino.",
    "delivery.stalled":
      "El transportista no ha informado de ningún movimiento de su paquete desde hace demasiado tiempo: se da por perdido.",
    "delivery.delivered": "El transportista informó de que su paquete se entregó.",
    "delivery.failed": "El transportista informó de que no pudo entregar su paquete.",
    "delivery.returned_to_sender": "El transportista informó de que su paquete se devolvió al remitente.",
    "filed_after_window.delivery":
      "El transportista registró la entrega de su paquete el {deliveredOn}, más de {days, plural, one {# día} other {# días}} antes de que se presentara la solicitud, el {filedOn}.",
    "filed_after_window.occurrence":
      "Nos indicó que ocurrió el {occurredOn}, más de {days, plural, one {# día} other {# días}} antes de que se presentara la solicitud, el {filedOn}.",
    plan_ended: "Su protección terminó el {endedOn}, antes de que se presentara la solicitud.",
  },
  nl: {
    within_cover: "U hebt {amount} gevraagd; dat valt binnen de {remaining} die uw bescherming nog dekt.",
    amount_above_remaining: "U hebt {amount} gevraagd; uw bescherming dekt nog maar {remaining}.",
    no_delivery_recorded: "Er is geen bezorging van uw bestelling geregistreerd.",
    delivered: "De vervoerder heeft uw pakket op {deliveredOn} als bezorgd geregistreerd.",
    "delivery.overdue":
      "Uw pakket is niet binnen {days, plural, one {# dag} other {# dagen}} na de beloofde leverdatum bezorgd.",
    "delivery.not_shipped": "Er is nog geen verzending van uw bestelling gemeld.",
    "delivery.pending": "De vervoerder heeft uw pakket nog niet gescand.",
    "delivery.in_transit": "Volgens de vervoerder is uw pakket onderweg.",
    "delivery.stalled": "De vervoerder meldt al te lang geen beweging van uw pakket: het wordt als verloren beschouwd.",
    "delivery.delivered": "De vervoerder heeft gemeld dat uw pakket is bezorgd.",
    "delivery.failed": "De vervoerder heeft gemeld dat hij uw pakket niet kon bezorgen.",
    "delivery.returned_to_sender": "De vervoerder heeft gemeld dat uw pakket is teruggestuurd naar de afzender.",
    "filed_after_window.delivery":
      "De vervoerder heeft uw pakket op {deliveredOn} als bezorgd geregistreerd, meer dan {days, plural, one {# dag} other {# dagen}} voordat het verzoek op {filedOn} werd ingediend.",
    "filed_after_window.occurrence":
      "U hebt ons laten weten dat het op {occurredOn} is gebeurd, meer dan {days, plural, one {# dag} other {# dagen}} voordat het verzoek op {filedOn} werd ingediend.",
    plan_ended: "Uw bescherming is op {endedOn} geëindigd, voordat het verzoek werd ingediend.",
  },
});

/** How one reader's sentences are written: in their language, with amounts and (UTC) days as they write them. */
interface Reader {
  t: ReturnType<typeof decisionBasisMessages.in>;
  money(minor: number, currency: string): string;
  day(ms: number): string;
}

const englishDay = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/**
 * A buyer's `locale` ("12,34 €" and "27 novembre 2026" in fr-FR; English words when its language is not served), or
 * without one the service's own English: "$12.34" and "27 November 2026", as the e-mails and the API write them.
 */
function readerOf(locale?: string): Reader {
  if (locale === undefined)
    return {
      t: decisionBasisMessages.in(DEFAULT_BUYER_LOCALE),
      money: formatMoneyEnUs,
      day: (ms) => englishDay.format(new Date(ms)),
    };
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  return {
    t: decisionBasisMessages.in(locale),
    money: (minor, currency) => formatMoney(minor, currency, locale),
    day: (ms) => day.format(new Date(ms)),
  };
}

/** One fact as `reader` reads it; its amounts are in the claim's `currency`. */
function sentenceOf(fact: DecisionFact, currency: string, { t, money, day }: Reader): string {
  const days = CLAIM_WINDOW_DAYS;
  switch (fact.fact) {
    case "within_cover":
      return t("within_cover", {
        amount: money(fact.amountCents, currency),
        remaining: money(fact.remainingCents, currency),
      });
    case "amount_above_remaining":
      return t("amount_above_remaining", {
        amount: money(fact.amountCents, currency),
        remaining: money(Math.max(fact.remainingCents, 0), currency),
      });
    case "no_delivery_recorded":
      return t("no_delivery_recorded");
    case "delivered":
      return t("delivered", { deliveredOn: day(fact.at) });
    case "delivery":
      return fact.overdue ? t("delivery.overdue", { days: OVERDUE_AFTER_PROMISED_DAYS }) : t(`delivery.${fact.state}`);
    case "filed_after_window":
      return "deliveredAt" in fact
        ? t("filed_after_window.delivery", { deliveredOn: day(fact.deliveredAt), filedOn: day(fact.filedAt), days })
        : t("filed_after_window.occurrence", { occurredOn: day(fact.occurredAt), filedOn: day(fact.filedAt), days });
    case "plan_ended":
      return t("plan_ended", { endedOn: day(fact.endedAt) });
  }
}

/**
 * One fact as the buyer reads it, `currency` being the claim's: in the buyer's `locale`, or without one in the
 * service's own English (readerOf).
 */
export const describeDecisionFact = (fact: DecisionFact, currency: string, locale?: string): string =>
  sentenceOf(fact, currency, readerOf(locale));

/** The stored basis (JSON) read back as sentences, as describeDecisionFact writes them; none for a decision without one. */
export function decisionBasisSentences(stored: string | null, currency: string, locale?: string): string[] {
  if (!stored) return [];
  const reader = readerOf(locale);
  return (JSON.parse(stored) as DecisionFact[]).map((fact) => sentenceOf(fact, currency, reader));
}
