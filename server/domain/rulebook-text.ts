// The public rulebook's words in every buyer language: the 12 covered reasons' names and descriptions, the denial and
// approval sentences, the claim windows, the free look and the visible not-insurance disclosure. The portal pages,
// GET /portal/reasons, the decisions stored on claims (in English) and the buyer's e-mails take them from here, in
// the buyer's locale (packages/contract/src/locales.ts negotiateLocale). The legal sentences say the same thing in
// every language; change one only with the legal text, and every translation with it. The byte-exact
// `disclosure_text` of headless quote is not one of these: it is DISCLOSURE_PHRASE (disclosure.ts), English always.
import { defineMessages } from "@purchase-protection/contract/messages";
import { DEFAULT_BUYER_LOCALE } from "@purchase-protection/contract";
import type { CoveredReason, DenialReasonCode } from "../vocabulary/claims.ts";

/** A claim is filed within 30 days of what it is about (docs/api.md "Buyer portal API"). */
export const CLAIM_WINDOW_DAYS = 30;
/** A buyer may cancel within 48 hours of the purchase and get back what they paid (docs/api.md "Buyer portal API"). */
export const FREE_LOOK_HOURS = 48;

const english = {
  "reason.lost_in_transit.name": "Lost in transit",
  "reason.lost_in_transit.description": "The carrier lost the parcel before it reached you.",
  "reason.stolen_after_delivery.name": "Stolen after delivery",
  "reason.stolen_after_delivery.description":
    "The parcel was marked delivered but was taken before you could collect it.",
  "reason.damaged_in_transit.name": "Damaged in transit",
  "reason.damaged_in_transit.description": "The item arrived broken or damaged by its journey.",
  "reason.arrived_defective.name": "Arrived defective",
  "reason.arrived_defective.description": "The item arrived and does not work as it should.",
  "reason.wrong_item_delivered.name": "Wrong item delivered",
  "reason.wrong_item_delivered.description": "You received something other than what you ordered.",
  "reason.missing_items.name": "Missing items",
  "reason.missing_items.description": "The parcel arrived without some of the items you ordered.",
  "reason.not_delivered_by_promised_date_plus_14_days.name": "Not delivered within 14 days of the promised date",
  "reason.not_delivered_by_promised_date_plus_14_days.description":
    "The order had not arrived 14 days after the delivery date the merchant promised.",
  "reason.merchant_closed_before_fulfilment.name": "Merchant closed before fulfilment",
  "reason.merchant_closed_before_fulfilment.description": "The merchant stopped trading before sending your order.",
  "reason.item_recalled.name": "Item recalled",
  "reason.item_recalled.description": "The item was recalled by its maker or a safety authority.",
  "reason.fraudulent_charge_dispute_resolved_against_buyer.name": "Fraudulent charge dispute lost",
  "reason.fraudulent_charge_dispute_resolved_against_buyer.description":
    "Your dispute of a fraudulent charge for this order was resolved against you.",
  "reason.return_refused_within_merchant_policy.name": "Return refused within the merchant's policy",
  "reason.return_refused_within_merchant_policy.description":
    "The merchant refused a return that its own return policy allowed.",
  "reason.carrier_returned_to_sender.name": "Returned to sender",
  "reason.carrier_returned_to_sender.description":
    "The carrier sent the parcel back to the merchant instead of delivering it to you.",

  "denial.outside_claim_window":
    "The request was filed more than {days, plural, one {# day} other {# days}} after what it is about happened, and plans cover requests filed within {days, plural, one {# day} other {# days}}.",
  "denial.plan_not_active":
    "Your protection plan was cancelled or voided (for example because the order was cancelled or refunded), so it no longer covers this request.",
  "denial.amount_exceeds_coverage":
    "The amount asked for is more than what is left of your plan's coverage after the requests already approved or paid on it.",
  "denial.delivery_confirmed":
    "The carrier confirmed that the order was delivered to the shipping address, so it is not covered as lost or undelivered.",
  "denial.insufficient_evidence":
    "The information and files provided do not show what happened, and the claims team could not confirm it in another way.",
  "denial.duplicate_claim": "What this request is about is already covered by another request on your plan.",
  "denial.excluded_by_terms": "What happened is not one of the situations your plan covers under its published terms.",
  approval: "What happened is covered by your plan, and the amount is within what is left of its coverage.",

  "window.title": "Report within {days, plural, one {# day} other {# days}}",
  "window.rule":
    "Ask for a refund within {days, plural, one {# day} other {# days}} of the day the problem happened, and not before the purchase. You can have one open request per reason at a time. The amount is at most the covered amount, less what earlier requests on the same order were paid.",
  "window.summary":
    "Report a problem within {days, plural, one {# day} other {# days}} of the day it happened. One open request per reason at a time.",
  "window.delivery":
    "For a problem with the parcel as it arrived ({reasons}), what happened is its delivery: once the carrier recorded the delivery, the {days, plural, one {# day counts} other {# days count}} from it, whatever day you noticed the problem. Your coverage page says until when.",

  "freeLook.title": "Cancel within {hours, plural, one {# hour} other {# hours}}",
  "freeLook.rule":
    "You can cancel the protection within {hours, plural, one {# hour} other {# hours}} of your purchase and get back what you paid for it, no questions asked. Protection your store paid for cost you nothing, so there is no fee to cancel it for.",

  disclosure: "This is not insurance. This is a contractual refund guarantee provided by {company}.",
};

export const rulebookMessages = defineMessages(english, {
  fr: {
    "reason.lost_in_transit.name": "Perdu pendant le transport",
    "reason.lost_in_transit.description": "Le transporteur a perdu le colis avant qu’il ne vous parvienne.",
    "reason.stolen_after_delivery.name": "Volé après la livraison",
    "reason.stolen_after_delivery.description":
      "Le colis a été indiqué comme livré, mais il a été dérobé avant que vous ne puissiez le récupérer.",
    "reason.damaged_in_transit.name": "Endommagé pendant le transport",
    "reason.damaged_in_transit.description": "L’article est arrivé cassé ou abîmé par le transport.",
    "reason.arrived_defective.name": "Arrivé défectueux",
    "reason.arrived_defective.description": "L’article est arrivé et ne fonctionne pas comme il le devrait.",
    "reason.wrong_item_delivered.name": "Mauvais article livré",
    "reason.wrong_item_delivered.description": "Vous avez reçu autre chose que ce que vous aviez commandé.",
    "reason.missing_items.name": "Articles manquants",
    "reason.missing_items.description": "Le colis est arrivé sans certains des articles que vous aviez commandés.",
    "reason.not_delivered_by_promised_date_plus_14_days.name": "Non livré dans les 14 jours suivant la date promise",
    "reason.not_delivered_by_promised_date_plus_14_days.description":
      "La commande n’était toujours pas arrivée 14 jours après la date de livraison promise par le marchand.",
    "reason.merchant_closed_before_fulfilment.name": "Marchand fermé avant l’expédition",
    "reason.merchant_closed_before_fulfilment.description":
      "Le marchand a cessé son activité avant d’expédier votre commande.",
    "reason.item_recalled.name": "Article rappelé",
    "reason.item_recalled.description":
      "L’article a fait l’objet d’un rappel de son fabricant ou d’une autorité de sécurité.",
    "reason.fraudulent_charge_dispute_resolved_against_buyer.name": "Contestation d’un paiement frauduleux perdue",
    "reason.fraudulent_charge_dispute_resolved_against_buyer.description":
      "Votre contestation d’un paiement frauduleux pour cette commande a été tranchée en votre défaveur.",
    "reason.return_refused_within_merchant_policy.name": "Retour refusé malgré la politique du marchand",
    "reason.return_refused_within_merchant_policy.description":
      "Le marchand a refusé un retour que sa propre politique de retour autorisait.",
    "reason.carrier_returned_to_sender.name": "Retourné à l’expéditeur",
    "reason.carrier_returned_to_sender.description":
      "Le transporteur a renvoyé le colis au marchand au lieu de vous le livrer.",

    "denial.outside_claim_window":
      "La demande a été déposée plus de {days, plural, one {# jour} other {# jours}} après les faits qu’elle concerne, alors que la protection couvre les demandes déposées dans un délai de {days, plural, one {# jour} other {# jours}}.",
    "denial.plan_not_active":
      "Votre protection a été résiliée ou annulée (par exemple parce que la commande a été annulée ou remboursée) ; elle ne couvre donc plus cette demande.",
    "denial.amount_exceeds_coverage":
      "Le montant demandé dépasse ce qui reste de la couverture de votre protection après les demandes déjà acceptées ou payées à ce titre.",
    "denial.delivery_confirmed":
      "Le transporteur a confirmé que la commande a été livrée à l’adresse de livraison ; elle n’est donc pas couverte comme perdue ou non livrée.",
    "denial.insufficient_evidence":
      "Les informations et les fichiers fournis ne montrent pas ce qui s’est passé, et l’équipe chargée des demandes n’a pas pu le confirmer autrement.",
    "denial.duplicate_claim":
      "Ce sur quoi porte cette demande est déjà couvert par une autre demande au titre de votre protection.",
    "denial.excluded_by_terms":
      "Ce qui s’est passé ne fait pas partie des situations que votre protection couvre selon ses conditions publiées.",
    approval:
      "Ce qui s’est passé est couvert par votre protection, et le montant ne dépasse pas ce qui reste de sa couverture.",

    "window.title": "Signaler dans les {days, plural, one {# jour} other {# jours}}",
    "window.rule":
      "Demandez un remboursement dans les {days, plural, one {# jour} other {# jours}} qui suivent le jour où le problème est survenu, et pas pour un problème antérieur à l’achat. Vous pouvez avoir une seule demande en cours par motif à la fois. Le montant est au plus le montant couvert, diminué de ce qui a été versé pour les demandes précédentes sur la même commande.",
    "window.summary":
      "Signalez un problème dans les {days, plural, one {# jour} other {# jours}} qui suivent le jour où il est survenu. Une seule demande en cours par motif à la fois.",
    "window.delivery":
      "Pour un problème lié au colis tel qu’il est arrivé ({reasons}), les faits sont sa livraison : dès que le transporteur a enregistré la livraison, {days, plural, one {le # jour court} other {les # jours courent}} à partir de celle-ci, quel que soit le jour où vous avez constaté le problème. Votre page de couverture indique jusqu’à quand.",

    "freeLook.title": "Résilier dans les {hours, plural, one {# heure} other {# heures}}",
    "freeLook.rule":
      "Vous pouvez résilier la protection dans les {hours, plural, one {# heure} other {# heures}} qui suivent votre achat et récupérer ce que vous avez payé pour elle, sans avoir à vous justifier. Une protection payée par votre boutique ne vous a rien coûté : il n’y a donc pas de frais à vous rembourser en la résiliant.",

    disclosure:
      "Ceci n’est pas une assurance. Il s’agit d’une garantie de remboursement contractuelle fournie par {company}.",
  },
  de: {
    "reason.lost_in_transit.name": "Beim Versand verloren",
    "reason.lost_in_transit.description": "Der Versanddienstleister hat das Paket verloren, bevor es Sie erreicht hat.",
    "reason.stolen_after_delivery.name": "Nach der Zustellung gestohlen",
    "reason.stolen_after_delivery.description":
      "Das Paket wurde als zugestellt gemeldet, aber entwendet, bevor Sie es an sich nehmen konnten.",
    "reason.damaged_in_transit.name": "Beim Versand beschädigt",
    "reason.damaged_in_transit.description": "Der Artikel kam zerbrochen oder durch den Transport beschädigt an.",
    "reason.arrived_defective.name": "Defekt angekommen",
    "reason.arrived_defective.description": "Der Artikel ist angekommen, funktioniert aber nicht, wie er sollte.",
    "reason.wrong_item_delivered.name": "Falscher Artikel geliefert",
    "reason.wrong_item_delivered.description": "Sie haben etwas anderes erhalten, als Sie bestellt haben.",
    "reason.missing_items.name": "Fehlende Artikel",
    "reason.missing_items.description": "Im Paket fehlten einige der Artikel, die Sie bestellt haben.",
    "reason.not_delivered_by_promised_date_plus_14_days.name":
      "Nicht innerhalb von 14 Tagen nach dem zugesagten Termin geliefert",
    "reason.not_delivered_by_promised_date_plus_14_days.description":
      "Die Bestellung war 14 Tage nach dem vom Händler zugesagten Liefertermin noch nicht angekommen.",
    "reason.merchant_closed_before_fulfilment.name": "Händler vor dem Versand geschlossen",
    "reason.merchant_closed_before_fulfilment.description":
      "Der Händler hat sein Geschäft aufgegeben, bevor er Ihre Bestellung verschickt hat.",
    "reason.item_recalled.name": "Artikel zurückgerufen",
    "reason.item_recalled.description":
      "Der Artikel wurde von seinem Hersteller oder einer Sicherheitsbehörde zurückgerufen.",
    "reason.fraudulent_charge_dispute_resolved_against_buyer.name":
      "Widerspruch gegen betrügerische Abbuchung verloren",
    "reason.fraudulent_charge_dispute_resolved_against_buyer.description":
      "Ihr Widerspruch gegen eine betrügerische Abbuchung für diese Bestellung wurde zu Ihren Ungunsten entschieden.",
    "reason.return_refused_within_merchant_policy.name": "Rücksendung trotz Rückgaberichtlinie abgelehnt",
    "reason.return_refused_within_merchant_policy.description":
      "Der Händler hat eine Rücksendung abgelehnt, die seine eigene Rückgaberichtlinie erlaubt.",
    "reason.carrier_returned_to_sender.name": "An den Absender zurückgeschickt",
    "reason.carrier_returned_to_sender.description":
      "Der Versanddienstleister hat das Paket an den Händler zurückgeschickt, statt es Ihnen zuzustellen.",

    "denial.outside_claim_window":
      "Der Antrag wurde mehr als {days, plural, one {# Tag} other {# Tage}} nach dem Ereignis gestellt, um das es geht; der Schutz umfasst Anträge, die innerhalb von {days, plural, one {# Tag} other {# Tagen}} gestellt werden.",
    "denial.plan_not_active":
      "Ihr Schutz wurde gekündigt oder aufgehoben (zum Beispiel, weil die Bestellung storniert oder erstattet wurde) und deckt diesen Antrag daher nicht mehr ab.",
    "denial.amount_exceeds_coverage":
      "Der beantragte Betrag ist höher als das, was von der Deckung Ihres Schutzes nach den bereits genehmigten oder ausgezahlten Anträgen noch übrig ist.",
    "denial.delivery_confirmed":
      "Der Versanddienstleister hat bestätigt, dass die Bestellung an die Lieferadresse zugestellt wurde; sie ist daher nicht als verloren oder nicht zugestellt abgedeckt.",
    "denial.insufficient_evidence":
      "Die übermittelten Angaben und Dateien belegen nicht, was geschehen ist, und das Schadenteam konnte es auch nicht auf anderem Weg bestätigen.",
    "denial.duplicate_claim":
      "Worum es in diesem Antrag geht, ist bereits Gegenstand eines anderen Antrags zu Ihrem Schutz.",
    "denial.excluded_by_terms":
      "Was geschehen ist, gehört nicht zu den Fällen, die Ihr Schutz nach seinen veröffentlichten Bedingungen abdeckt.",
    approval:
      "Was geschehen ist, ist durch Ihren Schutz abgedeckt, und der Betrag liegt innerhalb dessen, was von seiner Deckung noch übrig ist.",

    "window.title": "Melden innerhalb von {days, plural, one {# Tag} other {# Tagen}}",
    "window.rule":
      "Beantragen Sie eine Erstattung innerhalb von {days, plural, one {# Tag} other {# Tagen}} nach dem Tag, an dem das Problem aufgetreten ist, und nicht für ein Problem vor dem Kauf. Pro Grund können Sie jeweils einen offenen Antrag haben. Der Betrag ist höchstens der gedeckte Betrag abzüglich dessen, was für frühere Anträge zur selben Bestellung ausgezahlt wurde.",
    "window.summary":
      "Melden Sie ein Problem innerhalb von {days, plural, one {# Tag} other {# Tagen}} nach dem Tag, an dem es aufgetreten ist. Pro Grund jeweils ein offener Antrag.",
    "window.delivery":
      "Bei einem Problem mit dem Paket, so wie es angekommen ist ({reasons}), ist das Ereignis seine Zustellung: Sobald der Versanddienstleister die Zustellung erfasst hat, {days, plural, one {zählt der # Tag} other {zählen die # Tage}} ab diesem Zeitpunkt, ganz gleich, an welchem Tag Sie das Problem bemerkt haben. Auf Ihrer Schutzseite steht, bis wann.",

    "freeLook.title": "Kündigen innerhalb von {hours, plural, one {# Stunde} other {# Stunden}}",
    "freeLook.rule":
      "Sie können den Schutz innerhalb von {hours, plural, one {# Stunde} other {# Stunden}} nach Ihrem Kauf kündigen und erhalten zurück, was Sie dafür bezahlt haben, ohne Angabe von Gründen. Ein Schutz, den Ihr Shop bezahlt hat, hat Sie nichts gekostet; daher gibt es keine Gebühr, die Ihnen bei einer Kündigung erstattet würde.",

    disclosure:
      "Dies ist keine Versicherung. Es handelt sich um eine vertragliche Rückerstattungsgarantie von {company}.",
  },
  es: {
    "reason.lost_in_transit.name": "Perdido durante el transporte",
    "reason.lost_in_transit.description": "El transportista perdió el paquete antes de que le llegara.",
    "reason.stolen_after_delivery.name": "Robado después de la entrega",
    "reason.stolen_after_delivery.description":
      "El paquete figuraba como entregado, pero se lo llevaron antes de que usted pudiera recogerlo.",
    "reason.damaged_in_transit.name": "Dañado durante el transporte",
    "reason.damaged_in_transit.description": "El artículo llegó roto o dañado por el transporte.",
    "reason.arrived_defective.name": "Llegó defectuoso",
    "reason.arrived_defective.description": "El artículo llegó y no funciona como debería.",
    "reason.wrong_item_delivered.name": "Artículo equivocado",
    "reason.wrong_item_delivered.description": "Recibió algo distinto de lo que había pedido.",
    "reason.missing_items.name": "Faltan artículos",
    "reason.missing_items.description": "El paquete llegó sin algunos de los artículos que había pedido.",
    "reason.not_delivered_by_promised_date_plus_14_days.name":
      "No entregado en los 14 días siguientes a la fecha prometida",
    "reason.not_delivered_by_promised_date_plus_14_days.description":
      "El pedido no había llegado 14 días después de la fecha de entrega que prometió el comercio.",
    "reason.merchant_closed_before_fulfilment.name": "El comercio cerró antes del envío",
    "reason.merchant_closed_before_fulfilment.description": "El comercio cesó su actividad antes de enviar su pedido.",
    "reason.item_recalled.name": "Artículo retirado del mercado",
    "reason.item_recalled.description": "El fabricante o una autoridad de seguridad retiró el artículo del mercado.",
    "reason.fraudulent_charge_dispute_resolved_against_buyer.name": "Reclamación por cargo fraudulento perdida",
    "reason.fraudulent_charge_dispute_resolved_against_buyer.description":
      "Su reclamación por un cargo fraudulento de este pedido se resolvió en su contra.",
    "reason.return_refused_within_merchant_policy.name": "Devolución rechazada pese a la política del comercio",
    "reason.return_refused_within_merchant_policy.description":
      "El comercio rechazó una devolución que su propia política de devoluciones permitía.",
    "reason.carrier_returned_to_sender.name": "Devuelto al remitente",
    "reason.carrier_returned_to_sender.description":
      "El transportista devolvió el paquete al comercio en lugar de entregárselo a usted.",

    "denial.outside_claim_window":
      "La solicitud se presentó más de {days, plural, one {# día} other {# días}} después de los hechos a los que se refiere, y la protección cubre las solicitudes presentadas en un plazo de {days, plural, one {# día} other {# días}}.",
    "denial.plan_not_active":
      "Su protección se canceló o se anuló (por ejemplo, porque el pedido se canceló o se reembolsó), por lo que ya no cubre esta solicitud.",
    "denial.amount_exceeds_coverage":
      "El importe solicitado supera lo que queda de la cobertura de su protección tras las solicitudes ya aprobadas o pagadas con cargo a ella.",
    "denial.delivery_confirmed":
      "El transportista confirmó que el pedido se entregó en la dirección de envío, por lo que no está cubierto como perdido o no entregado.",
    "denial.insufficient_evidence":
      "La información y los archivos aportados no demuestran lo que ocurrió, y el equipo de reclamaciones no pudo confirmarlo de otro modo.",
    "denial.duplicate_claim": "Lo que plantea esta solicitud ya está cubierto por otra solicitud de su protección.",
    "denial.excluded_by_terms":
      "Lo ocurrido no es ninguna de las situaciones que cubre su protección según sus condiciones publicadas.",
    approval: "Lo ocurrido está cubierto por su protección y el importe no supera lo que queda de su cobertura.",

    "window.title": "Comunicar en un plazo de {days, plural, one {# día} other {# días}}",
    "window.rule":
      "Solicite el reembolso en un plazo de {days, plural, one {# día} other {# días}} desde el día en que ocurrió el problema, que no puede ser anterior a la compra. Puede tener una sola solicitud abierta por motivo a la vez. El importe es, como máximo, el importe cubierto menos lo que se haya pagado por solicitudes anteriores del mismo pedido.",
    "window.summary":
      "Comunique un problema en un plazo de {days, plural, one {# día} other {# días}} desde el día en que ocurrió. Una sola solicitud abierta por motivo a la vez.",
    "window.delivery":
      "Para un problema con el paquete tal como llegó ({reasons}), lo ocurrido es su entrega: una vez que el transportista registró la entrega, {days, plural, one {el # día se cuenta} other {los # días se cuentan}} desde ella, sea cual sea el día en que usted notó el problema. Su página de cobertura indica hasta cuándo.",

    "freeLook.title": "Cancelar en un plazo de {hours, plural, one {# hora} other {# horas}}",
    "freeLook.rule":
      "Puede cancelar la protección en un plazo de {hours, plural, one {# hora} other {# horas}} desde su compra y recuperar lo que pagó por ella, sin dar explicaciones. Una protección que pagó su tienda no le costó nada, así que no hay ningún importe que recuperar al cancelarla.",

    disclosure: "Esto no es un seguro. Se trata de una garantía contractual de reembolso prestada por {company}.",
  },
  nl: {
    "reason.lost_in_transit.name": "Zoekgeraakt tijdens verzending",
    "reason.lost_in_transit.description": "De vervoerder is het pakket kwijtgeraakt voordat het u bereikte.",
    "reason.stolen_after_delivery.name": "Gestolen na bezorging",
    "reason.stolen_after_delivery.description":
      "Het pakket stond als bezorgd geregistreerd, maar werd meegenomen voordat u het kon ophalen.",
    "reason.damaged_in_transit.name": "Beschadigd tijdens verzending",
    "reason.damaged_in_transit.description": "Het artikel kwam kapot of door het transport beschadigd aan.",
    "reason.arrived_defective.name": "Defect aangekomen",
    "reason.arrived_defective.description": "Het artikel is aangekomen en werkt niet zoals het hoort.",
    "reason.wrong_item_delivered.name": "Verkeerd artikel geleverd",
    "reason.wrong_item_delivered.description": "U hebt iets anders ontvangen dan u had besteld.",
    "reason.missing_items.name": "Ontbrekende artikelen",
    "reason.missing_items.description": "Het pakket kwam aan zonder een deel van de artikelen die u had besteld.",
    "reason.not_delivered_by_promised_date_plus_14_days.name": "Niet geleverd binnen 14 dagen na de beloofde datum",
    "reason.not_delivered_by_promised_date_plus_14_days.description":
      "De bestelling was 14 dagen na de door de verkoper beloofde leverdatum nog niet aangekomen.",
    "reason.merchant_closed_before_fulfilment.name": "Verkoper gestopt vóór verzending",
    "reason.merchant_closed_before_fulfilment.description":
      "De verkoper is met zijn zaak gestopt voordat uw bestelling werd verzonden.",
    "reason.item_recalled.name": "Artikel teruggeroepen",
    "reason.item_recalled.description":
      "Het artikel is teruggeroepen door de fabrikant of door een veiligheidsinstantie.",
    "reason.fraudulent_charge_dispute_resolved_against_buyer.name": "Betwisting van frauduleuze betaling verloren",
    "reason.fraudulent_charge_dispute_resolved_against_buyer.description":
      "Uw betwisting van een frauduleuze betaling voor deze bestelling is in uw nadeel beslist.",
    "reason.return_refused_within_merchant_policy.name": "Retour geweigerd ondanks het retourbeleid",
    "reason.return_refused_within_merchant_policy.description":
      "De verkoper heeft een retour geweigerd die zijn eigen retourbeleid toestond.",
    "reason.carrier_returned_to_sender.name": "Teruggestuurd naar afzender",
    "reason.carrier_returned_to_sender.description":
      "De vervoerder heeft het pakket teruggestuurd naar de verkoper in plaats van het bij u te bezorgen.",

    "denial.outside_claim_window":
      "Het verzoek is meer dan {days, plural, one {# dag} other {# dagen}} na de gebeurtenis waarover het gaat ingediend, en de bescherming dekt verzoeken die binnen {days, plural, one {# dag} other {# dagen}} worden ingediend.",
    "denial.plan_not_active":
      "Uw bescherming is opgezegd of vervallen verklaard (bijvoorbeeld omdat de bestelling is geannuleerd of terugbetaald), dus dekt die dit verzoek niet meer.",
    "denial.amount_exceeds_coverage":
      "Het gevraagde bedrag is hoger dan wat er van de dekking van uw bescherming over is na de verzoeken die al zijn goedgekeurd of uitbetaald.",
    "denial.delivery_confirmed":
      "De vervoerder heeft bevestigd dat de bestelling op het verzendadres is bezorgd, dus is die niet gedekt als zoekgeraakt of niet geleverd.",
    "denial.insufficient_evidence":
      "De verstrekte informatie en bestanden tonen niet aan wat er is gebeurd, en het claimteam kon het ook niet op een andere manier bevestigen.",
    "denial.duplicate_claim": "Waar dit verzoek over gaat, valt al onder een ander verzoek binnen uw bescherming.",
    "denial.excluded_by_terms":
      "Wat er is gebeurd, is geen van de situaties die uw bescherming volgens de gepubliceerde voorwaarden dekt.",
    approval:
      "Wat er is gebeurd, valt onder uw bescherming, en het bedrag blijft binnen wat er van de dekking over is.",

    "window.title": "Melden binnen {days, plural, one {# dag} other {# dagen}}",
    "window.rule":
      "Vraag een terugbetaling aan binnen {days, plural, one {# dag} other {# dagen}} na de dag waarop het probleem zich voordeed; dat mag niet vóór de aankoop zijn. U kunt per reden één openstaand verzoek tegelijk hebben. Het bedrag is ten hoogste het gedekte bedrag, min wat er voor eerdere verzoeken op dezelfde bestelling is uitbetaald.",
    "window.summary":
      "Meld een probleem binnen {days, plural, one {# dag} other {# dagen}} na de dag waarop het zich voordeed. Eén openstaand verzoek per reden tegelijk.",
    "window.delivery":
      "Bij een probleem met het pakket zoals het aankwam ({reasons}) geldt de bezorging als de gebeurtenis: zodra de vervoerder de bezorging heeft geregistreerd, {days, plural, one {telt de # dag} other {tellen de # dagen}} vanaf dat moment, op welke dag u het probleem ook opmerkte. Op uw dekkingspagina staat tot wanneer.",

    "freeLook.title": "Opzeggen binnen {hours, plural, one {# uur} other {# uur}}",
    "freeLook.rule":
      "U kunt de bescherming binnen {hours, plural, one {# uur} other {# uur}} na uw aankoop opzeggen en krijgt terug wat u ervoor hebt betaald, zonder opgave van redenen. Bescherming die uw winkel heeft betaald, heeft u niets gekost, dus er is geen vergoeding die u bij opzegging terugkrijgt.",

    disclosure: "Dit is geen verzekering. Het is een contractuele terugbetalingsgarantie van {company}.",
  },
});

/** Whether `code` is one of the 12 covered reasons (the catalogue names each of them). */
const isCoveredReason = (code: string): code is CoveredReason => `reason.${code}.name` in english;

const isDenialCode = (code: string): code is DenialReasonCode => `denial.${code}` in english;

/** The sentence of a decision's code (an approval's is `covered`), or undefined for a code the rulebook does not publish. */
function decisionSentence(locale: string, code: string): string | undefined {
  if (code === "covered") return rulebookMessages.format(locale, "approval");
  return isDenialCode(code)
    ? rulebookMessages.format(locale, `denial.${code}`, { days: CLAIM_WINDOW_DAYS })
    : undefined;
}

/** The rulebook's texts in `locale` (a buyer locale: English when its language is not served). */
export function rulebookText(locale: string) {
  const text = rulebookMessages.in(locale);
  const days = CLAIM_WINDOW_DAYS;
  const hours = FREE_LOOK_HOURS;
  return {
    /**
     * A decision as stored (its English sentence, then the decider's note if any) with the sentence of its code in
     * this language; the note stays as written. A text that does not start with its code's sentence is kept whole.
     */
    decision: (code: string, stored: string) => {
      const english = decisionSentence(DEFAULT_BUYER_LOCALE, code);
      if (english === undefined || !stored.startsWith(english)) return stored;
      return `${decisionSentence(locale, code)}${stored.slice(english.length)}`;
    },
    /** A covered reason's name (the code itself for anything else). */
    reasonName: (code: string) => (isCoveredReason(code) ? text(`reason.${code}.name`) : code),
    reasonDescription: (code: CoveredReason) => text(`reason.${code}.description`),
    /** The sentence a buyer reads for a denial of this code. */
    denial: (code: DenialReasonCode) => text(`denial.${code}`, { days }),
    /** The sentence a buyer reads for an approval. */
    approval: () => text("approval"),
    claimWindowTitle: () => text("window.title", { days }),
    /** The claim window's rule in full (the terms page). */
    claimWindow: () => text("window.rule", { days }),
    /** The claim window in two short sentences (the coverage page). */
    claimWindowSummary: () => text("window.summary", { days }),
    /** The window of the reasons about the parcel as it arrived, `reasons` naming them. */
    deliveryWindow: (reasons: string) => text("window.delivery", { days, reasons }),
    freeLookTitle: () => text("freeLook.title", { hours }),
    freeLook: () => text("freeLook.rule", { hours }),
    /** The visible disclosure: both sentences, always. A legal name may end in a period ("Inc."); the sentence
     * must not end in two. */
    disclosure: (companyName: string) => text("disclosure", { company: companyName.replace(/\.$/, "") }),
  };
}

/** A covered reason's English name, as merchants and staff read it (the code itself for anything else). */
export const reasonName = (code: string): string => rulebookText(DEFAULT_BUYER_LOCALE).reasonName(code);
