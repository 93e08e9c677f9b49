// The words of the storefront offer (the widget) in every buyer language, sent with each quote already in the buyer's
// language, so the widget bundles no catalogue and stays within its 10,000-byte budget (packages/widget/README.md
// "Languages"). Two values are filled in by the widget, which alone knows them: the price it shows (a Shopify cart's
// tier may cost more than the fee) and the plan's reference number; they stay as the markers {price} and {reference}.
// The disclosure is the rulebook's (rulebook-text.ts), never translated twice.
import { boundedCache, OFFER_WORDINGS, type OfferTexts } from "@purchase-protection/contract";
import { defineMessages } from "@purchase-protection/contract/messages";
import { rulebookText } from "./rulebook-text.ts";

const english = {
  // The offer's label, one per approved wording, in English as the contract writes them: what the buyer ticks.
  "offer.standard": OFFER_WORDINGS.standard,
  "offer.protect_order": OFFER_WORDINGS.protect_order,
  "offer.cover_transit": OFFER_WORDINGS.cover_transit,
  covers: "Loss, theft and damage in transit, and more.",
  termsLink: "See what is covered",
  groupLabel: "Purchase protection",
  decline: "No thanks",
  adding: "Adding protection…",
  confirmed: "Protected. Your reference number is {reference}.",
  declined: "No protection added.",
  cartError: "Your cart could not be updated.",
  // A merchant-paid program's notice, in place of the offer's label: the buyer is told, not asked.
  protectedBy: "Protected by {store}",
};

export const offerMessages = defineMessages(english, {
  fr: {
    "offer.standard": "Ajouter une protection d’achat pour {price}",
    "offer.protect_order": "Protéger cette commande pour {price}",
    "offer.cover_transit": "Couvrir la perte, le vol et les dommages pendant le transport pour {price}",
    covers: "Perte, vol et dommages pendant le transport, et plus encore.",
    termsLink: "Voir ce qui est couvert",
    groupLabel: "Protection d’achat",
    decline: "Non merci",
    adding: "Ajout de la protection…",
    confirmed: "Protégé. Votre numéro de référence est {reference}.",
    declined: "Aucune protection ajoutée.",
    cartError: "Votre panier n’a pas pu être mis à jour.",
    protectedBy: "Protégé par {store}",
  },
  de: {
    "offer.standard": "Käuferschutz für {price} hinzufügen",
    "offer.protect_order": "Diese Bestellung für {price} schützen",
    "offer.cover_transit": "Verlust, Diebstahl und Transportschäden für {price} absichern",
    covers: "Verlust, Diebstahl und Transportschäden und mehr.",
    termsLink: "Was ist abgedeckt?",
    groupLabel: "Käuferschutz",
    decline: "Nein danke",
    adding: "Schutz wird hinzugefügt…",
    confirmed: "Geschützt. Ihre Referenznummer ist {reference}.",
    declined: "Kein Schutz hinzugefügt.",
    cartError: "Ihr Warenkorb konnte nicht aktualisiert werden.",
    protectedBy: "Geschützt durch {store}",
  },
  es: {
    "offer.standard": "Añadir protección de compra por {price}",
    "offer.protect_order": "Proteger este pedido por {price}",
    "offer.cover_transit": "Cubrir pérdida, robo y daños durante el transporte por {price}",
    covers: "Pérdida, robo y daños durante el transporte, y más.",
    termsLink: "Ver qué está cubierto",
    groupLabel: "Protección de compra",
    decline: "No, gracias",
    adding: "Añadiendo la protección…",
    confirmed: "Protegido. Tu número de referencia es {reference}.",
    declined: "No se ha añadido protección.",
    cartError: "No se ha podido actualizar tu carrito.",
    protectedBy: "Protegido por {store}",
  },
  nl: {
    "offer.standard": "Aankoopbescherming toevoegen voor {price}",
    "offer.protect_order": "Deze bestelling beschermen voor {price}",
    "offer.cover_transit": "Verlies, diefstal en schade tijdens transport dekken voor {price}",
    covers: "Verlies, diefstal en schade tijdens transport, en meer.",
    termsLink: "Bekijk wat gedekt is",
    groupLabel: "Aankoopbescherming",
    decline: "Nee, bedankt",
    adding: "Bescherming wordt toegevoegd…",
    confirmed: "Beschermd. Je referentienummer is {reference}.",
    declined: "Geen bescherming toegevoegd.",
    cartError: "Je winkelwagen kon niet worden bijgewerkt.",
    protectedBy: "Beschermd door {store}",
  },
});

type OfferKey = keyof typeof english;
const isWordingKey = (key: string): key is OfferKey => Object.hasOwn(english, key) && key.startsWith("offer.");

// The texts depend only on the locale, the company name and the wording (the store's name replaces the label of a
// merchant-paid offer), so each combination is formatted once per process: formatting them was a measurable part of
// a quote's CPU. The locale is whatever tag the storefront sent (within the served languages), so the cache is
// emptied when it grows past what any real set of buyers needs.
const formattedTexts = boundedCache<Readonly<OfferTexts>>(1_000);

/**
 * What the widget shows, in `locale` (a negotiated buyer locale), for the quote's approved wording; for a
 * merchant-paid program (`store` given: the merchant's name) the label is its notice, with no price to fill in.
 */
export function offerTexts(locale: string, companyName: string, wording = "standard", store?: string): OfferTexts {
  const texts = formattedTexts(`${locale}\u0000${companyName}\u0000${wording}`, () =>
    Object.freeze(formatOfferTexts(locale, companyName, wording)),
  );
  // The label keeps its place among the keys: the quote's JSON reads the same either way.
  return store === undefined ? texts : { ...texts, label: offerMessages.format(locale, "protectedBy", { store }) };
}

function formatOfferTexts(locale: string, companyName: string, wording: string): OfferTexts {
  const text = offerMessages.in(locale);
  const wordingKey = `offer.${wording}`;
  return {
    locale,
    label: text(isWordingKey(wordingKey) ? wordingKey : "offer.standard", { price: "{price}" }),
    covers: text("covers"),
    termsLink: text("termsLink"),
    groupLabel: text("groupLabel"),
    disclosure: rulebookText(locale).disclosure(companyName),
    decline: text("decline"),
    adding: text("adding"),
    confirmed: text("confirmed", { reference: "{reference}" }),
    declined: text("declined"),
    cartError: text("cartError"),
  };
}
