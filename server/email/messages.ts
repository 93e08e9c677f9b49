// The buyer e-mails' own words in every buyer language (docs/api.md "The buyer's language"): subjects, headings,
// sentences, buttons, labels and the footer, as ICU messages. The rulebook's texts (the reasons' names, the decisions'
// sentences, the disclosure) are the rulebook's (server/domain/rulebook-text.ts), not repeated here. The English is
// what the e-mails said before they were translated, word for word: change it only with the templates' tests. Formal
// register in every language (vous, Sie, usted, u).
import { defineMessages } from "@purchase-protection/contract/messages";

const english = {
  // The layout: the header under the merchant's name, how the order and a claim are named, the footer.
  brand: "Purchase protection",
  "order.named": "order {name}",
  "order.dated": "order of {date}",
  "claim.name": "claim {number} on {reference}",
  "claim.title": "Claim {number} on {reference}",
  "facts.claim": "Claim",
  "facts.reason": "Reason",
  "facts.order": "Order",
  "facts.orderFrom": "{order} from {merchant}",
  "facts.orderDated": "Your order of {date}",
  "facts.filed": "Filed",
  "footer.whyMerchantPaid": "You receive this e-mail because {merchant} added purchase protection to your {order}.",
  "footer.whyBuyer": "You receive this e-mail because you added purchase protection to {order} from {merchant}.",
  "footer.signIn": "You can also sign in at {portal} with your e-mail address and your reference number {reference}.",

  // Buttons.
  "button.coverage": "See your coverage",
  "button.follow": "Follow your request",
  "button.answer": "Answer the claims team",
  "button.request": "See your request",
  "button.refundRequest": "See your refund request",

  // welcome_protected
  "welcome.subject": "Your purchase protection is active: {reference}",
  "welcome.heading": "Your order is protected",
  "welcome.lead": "Your {order} from {merchant} is protected. Your reference number is {reference}.",
  "welcome.paidByStore": "{merchant} protected this order for you at no cost.",
  "welcome.reference": "Reference number",
  "welcome.covered": "Covered amount",
  "welcome.fee": "Protection fee",
  "welcome.freeLookUntil": "Free cancellation until",
  "welcome.freeLook":
    "Changed your mind? You may cancel within {hours, plural, one {# hour} other {# hours}} of purchase (until {until}) for a full refund of the protection fee, in the portal with your reference number.",
  "welcome.claimWindow":
    "If something goes wrong for one of the covered reasons below, file a claim in the portal within {days, plural, one {# day} other {# days}} of what happened.",
  "welcome.reasons": "Covered reasons:",
  "welcome.terms": "Read the full terms",

  // free_look_cancelled
  "cancelled.subject": "Your purchase protection is cancelled: {reference}",
  "cancelled.heading": "Your protection is cancelled",
  "cancelled.lead":
    "You cancelled the purchase protection of your {order} from {merchant}. Your reference number is {reference}.",
  "cancelled.leadOn":
    "You cancelled the purchase protection of your {order} from {merchant} on {when}. Your reference number is {reference}.",
  "cancelled.refund": "The protection fee of {fee} is refunded in full.",
  "cancelled.byShopify": "It is refunded automatically to the payment method you used for the order.",
  "cancelled.byMerchant": "{merchant} refunds it to you directly and confirms the refund to us.",
  "cancelled.body": "The order is no longer protected: no claim can be filed for it.",

  // claim_received
  "received.subject": "We received your refund request: {reference}",
  "received.heading": "We received your refund request",
  "received.lead":
    "We received your refund request, {claim}, for {amount}. The claims team reviews it within {days, plural, one {# business day} other {# business days}}.",
  "received.occurred": "You told us it happened on {date}.",
  "received.told": "What you told us:",
  "received.next":
    "What happens next: if the claims team needs more information, we e-mail you and you answer in the portal. Every decision, approved or not, comes with its reason.",

  // claim_information_needed
  "information.subject": "More information needed for your refund request: {reference}",
  "information.heading": "The claims team needs more information",
  "information.lead":
    "The claims team has a question about your refund request, {claim}. Answer it in the portal (you can add files there).",
  "information.asks": "The claims team asks:",
  "information.tellMore": "Please tell us more about what happened, and add photos or documents if you have them.",
  "information.continues":
    "Once you answer, the review continues, within {days, plural, one {# business day} other {# business days}}.",

  // claim_reopened
  "reopened.subject": "Your refund request is back under review: {reference}",
  "reopened.heading": "Your parcel is moving again",
  "reopened.lead":
    "The carrier scanned your parcel again after your refund request, {claim}, was approved as lost in transit. The approval is withdrawn before any refund was made, and the claims team will look at your request again.",
  "reopened.changed": "What changed:",
  "reopened.decides":
    "The claims team decides within {days, plural, one {# business day} other {# business days}}. If the parcel still does not reach you, tell them in the portal.",

  // claim_decided
  "decided.subject": "Decision on your refund request: {reference}",
  "decided.approvedHeading": "Your refund request has been approved",
  "decided.deniedHeading": "Your refund request was not approved",
  "decided.approved": "Your refund request, {claim}, has been approved.",
  "decided.denied": "Your refund request, {claim}, was not approved.",
  "decided.youGet":
    "{remedy, select, replacement {You get a replacement worth {amount}.} other {You get {amount} back.}}",
  "decided.amount": "Amount",
  "decided.remedy": "Remedy",
  "decided.remedyValue": "{remedy, select, replacement {A replacement} other {A refund}}",
  "decided.whoSends": "Who sends it",
  "decided.whoPays": "Who pays",
  "decided.sentAutomatically": "{merchant}, as a free order placed for you automatically",
  "decided.paidAutomatically": "{merchant}, automatically to the payment method you used",
  "decided.dueBy": "Due by",
  "decided.why": "Why: {reason}",
  "decided.note": "Note from the claims team:",
  "decided.again":
    "{remedy, select, replacement {We e-mail you again once it is sent.} other {We e-mail you again once it is paid.}}",
  "decided.newRequest":
    "If you have information the claims team did not see, you can file a new refund request with it in the portal.",
  // Who pays an approved claim and by when (server/domain/payout-terms.ts decides; the portal says the same).
  "payout.shopifyReplacement":
    "{merchant} places a free replacement order for you automatically by {by} (within {days, plural, one {# business day} other {# business days}} of the approval) and ships it like any order.",
  "payout.shopifyRefund":
    "The refund goes back automatically to the payment method you used for the order, by {by} (within {days, plural, one {# business day} other {# business days}} of the approval). Your bank can take {bankDays} business days to show it.",
  "payout.merchantReplacement":
    "{merchant} sends you the replacement by {by} (within {days, plural, one {# day} other {# days}} of the approval).",
  "payout.merchantRefund":
    "{merchant} refunds you directly by {by} (within {days, plural, one {# day} other {# days}} of the approval). Your bank can take {bankDays} business days to show it.",

  // claim_paid
  "paid.worth": "Worth",
  "paid.amount": "Amount paid",
  "paid.sentOn": "Sent",
  "paid.paidOn": "Paid",
  "paid.storeReference": "Store's reference",
  "paid.storeNote": "Note from {merchant}:",
  "paid.replacementPlacedSubject": "Your replacement order has been placed: {reference}",
  "paid.replacementPlaced": "Your replacement order has been placed",
  "paid.replacementSentSubject": "Your replacement has been sent: {reference}",
  "paid.replacementSent": "Your replacement has been sent",
  "paid.replacementPlacedLead":
    "A free replacement order for your {order} has been placed for you, as approved for your refund request, {claim}. {merchant} ships it like any order.",
  "paid.replacementSentLead":
    "{merchant} has sent you a replacement for your {order}, as approved for your refund request, {claim}.",
  "paid.refundSubject": "Your refund has been paid: {reference}",
  "paid.refundHeading": "Your refund has been paid",
  "paid.refundLead": "Your refund of {amount} for {claim} has been paid.",
  "paid.byShopify": "It went back automatically to the payment method you used for your {order}.",
  "paid.byMerchant": "{merchant} refunded it to you directly and confirmed the refund to us.",
  "paid.bank": "Your bank can take {bankDays} business days to show it.",
};

export type EmailMessageKey = keyof typeof english;

export const emailMessages = defineMessages(english, {
  fr: {
    brand: "Protection d’achat",
    "order.named": "commande {name}",
    "order.dated": "commande du {date}",
    "claim.name": "demande {number} du dossier {reference}",
    "claim.title": "Demande {number} du dossier {reference}",
    "facts.claim": "Demande",
    "facts.reason": "Motif",
    "facts.order": "Commande",
    "facts.orderFrom": "{order} chez {merchant}",
    "facts.orderDated": "Votre commande du {date}",
    "facts.filed": "Déposée le",
    "footer.whyMerchantPaid":
      "Vous recevez cet e-mail parce que {merchant} a ajouté une protection d’achat à votre {order}.",
    "footer.whyBuyer":
      "Vous recevez cet e-mail parce que vous avez ajouté une protection d’achat à la {order} chez {merchant}.",
    "footer.signIn":
      "Vous pouvez aussi vous connecter sur {portal} avec votre adresse e-mail et votre numéro de référence {reference}.",

    "button.coverage": "Voir votre couverture",
    "button.follow": "Suivre votre demande",
    "button.answer": "Répondre à l’équipe des demandes",
    "button.request": "Voir votre demande",
    "button.refundRequest": "Voir votre demande de remboursement",

    "welcome.subject": "Votre protection d’achat est active : {reference}",
    "welcome.heading": "Votre commande est protégée",
    "welcome.lead": "Votre {order} chez {merchant} est protégée. Votre numéro de référence est {reference}.",
    "welcome.paidByStore": "{merchant} a protégé cette commande pour vous, sans frais.",
    "welcome.reference": "Numéro de référence",
    "welcome.covered": "Montant couvert",
    "welcome.fee": "Frais de protection",
    "welcome.freeLookUntil": "Résiliation gratuite jusqu’au",
    "welcome.freeLook":
      "Vous avez changé d’avis ? Vous pouvez résilier dans les {hours, plural, one {# heure} other {# heures}} qui suivent l’achat (jusqu’au {until}) et obtenir le remboursement intégral des frais de protection, sur le portail avec votre numéro de référence.",
    "welcome.claimWindow":
      "Si un problème survient pour l’un des motifs couverts ci-dessous, déposez une demande sur le portail dans les {days, plural, one {# jour} other {# jours}} qui suivent les faits.",
    "welcome.reasons": "Motifs couverts :",
    "welcome.terms": "Lire les conditions complètes",

    "cancelled.subject": "Votre protection d’achat est résiliée : {reference}",
    "cancelled.heading": "Votre protection est résiliée",
    "cancelled.lead":
      "Vous avez résilié la protection d’achat de votre {order} chez {merchant}. Votre numéro de référence est {reference}.",
    "cancelled.leadOn":
      "Vous avez résilié la protection d’achat de votre {order} chez {merchant} le {when}. Votre numéro de référence est {reference}.",
    "cancelled.refund": "Les frais de protection de {fee} vous sont intégralement remboursés.",
    "cancelled.byShopify": "Ils sont remboursés automatiquement sur le moyen de paiement utilisé pour la commande.",
    "cancelled.byMerchant": "{merchant} vous les rembourse directement et nous confirme le remboursement.",
    "cancelled.body": "La commande n’est plus protégée : aucune demande ne peut être déposée à son sujet.",

    "received.subject": "Nous avons reçu votre demande de remboursement : {reference}",
    "received.heading": "Nous avons reçu votre demande de remboursement",
    "received.lead":
      "Nous avons reçu votre demande de remboursement, {claim}, d’un montant de {amount}. L’équipe des demandes l’examine sous {days, plural, one {# jour ouvré} other {# jours ouvrés}}.",
    "received.occurred": "Vous nous avez indiqué que les faits se sont produits le {date}.",
    "received.told": "Ce que vous nous avez dit :",
    "received.next":
      "La suite : si l’équipe des demandes a besoin de plus d’informations, nous vous écrivons et vous répondez sur le portail. Chaque décision, favorable ou non, est motivée.",

    "information.subject": "Informations complémentaires requises pour votre demande de remboursement : {reference}",
    "information.heading": "L’équipe des demandes a besoin de plus d’informations",
    "information.lead":
      "L’équipe des demandes a une question au sujet de votre demande de remboursement, {claim}. Répondez-y sur le portail (vous pouvez y joindre des fichiers).",
    "information.asks": "L’équipe des demandes vous demande :",
    "information.tellMore":
      "Merci de nous en dire plus sur ce qui s’est passé et de joindre des photos ou des documents si vous en avez.",
    "information.continues":
      "Dès votre réponse, l’examen reprend, sous {days, plural, one {# jour ouvré} other {# jours ouvrés}}.",

    "reopened.subject": "Votre demande de remboursement est de nouveau en cours d’examen : {reference}",
    "reopened.heading": "Votre colis est de nouveau en route",
    "reopened.lead":
      "Le transporteur a de nouveau scanné votre colis après l’acceptation de votre demande de remboursement, {claim}, pour perte pendant le transport. L’acceptation est retirée avant tout remboursement, et l’équipe des demandes va réexaminer votre demande.",
    "reopened.changed": "Ce qui a changé :",
    "reopened.decides":
      "L’équipe des demandes décide sous {days, plural, one {# jour ouvré} other {# jours ouvrés}}. Si le colis ne vous parvient toujours pas, indiquez-le-lui sur le portail.",

    "decided.subject": "Décision concernant votre demande de remboursement : {reference}",
    "decided.approvedHeading": "Votre demande de remboursement a été acceptée",
    "decided.deniedHeading": "Votre demande de remboursement n’a pas été acceptée",
    "decided.approved": "Votre demande de remboursement, {claim}, a été acceptée.",
    "decided.denied": "Votre demande de remboursement, {claim}, n’a pas été acceptée.",
    "decided.youGet":
      "{remedy, select, replacement {Vous recevez un article de remplacement d’une valeur de {amount}.} other {Vous récupérez {amount}.}}",
    "decided.amount": "Montant",
    "decided.remedy": "Solution",
    "decided.remedyValue": "{remedy, select, replacement {Un remplacement} other {Un remboursement}}",
    "decided.whoSends": "Qui l’envoie",
    "decided.whoPays": "Qui paie",
    "decided.sentAutomatically": "{merchant}, par une commande gratuite passée automatiquement pour vous",
    "decided.paidAutomatically": "{merchant}, automatiquement sur le moyen de paiement que vous avez utilisé",
    "decided.dueBy": "Au plus tard le",
    "decided.why": "Motif : {reason}",
    "decided.note": "Note de l’équipe des demandes :",
    "decided.again":
      "{remedy, select, replacement {Nous vous écrirons de nouveau dès son envoi.} other {Nous vous écrirons de nouveau dès son paiement.}}",
    "decided.newRequest":
      "Si vous disposez d’informations que l’équipe des demandes n’a pas vues, vous pouvez déposer avec elles une nouvelle demande de remboursement sur le portail.",
    "payout.shopifyReplacement":
      "{merchant} passe automatiquement pour vous une commande de remplacement gratuite au plus tard le {by} ({days, plural, one {dans le jour ouvré} other {dans les # jours ouvrés}} suivant l’acceptation) et l’expédie comme toute commande.",
    "payout.shopifyRefund":
      "Le remboursement est versé automatiquement sur le moyen de paiement utilisé pour la commande, au plus tard le {by} ({days, plural, one {dans le jour ouvré} other {dans les # jours ouvrés}} suivant l’acceptation). Votre banque peut mettre {bankDays} jours ouvrés à l’afficher.",
    "payout.merchantReplacement":
      "{merchant} vous envoie l’article de remplacement au plus tard le {by} ({days, plural, one {dans le jour} other {dans les # jours}} suivant l’acceptation).",
    "payout.merchantRefund":
      "{merchant} vous rembourse directement au plus tard le {by} ({days, plural, one {dans le jour} other {dans les # jours}} suivant l’acceptation). Votre banque peut mettre {bankDays} jours ouvrés à l’afficher.",

    "paid.worth": "Valeur",
    "paid.amount": "Montant versé",
    "paid.sentOn": "Envoyé le",
    "paid.paidOn": "Versé le",
    "paid.storeReference": "Référence de la boutique",
    "paid.storeNote": "Note de {merchant} :",
    "paid.replacementPlacedSubject": "Votre commande de remplacement a été passée : {reference}",
    "paid.replacementPlaced": "Votre commande de remplacement a été passée",
    "paid.replacementSentSubject": "Votre article de remplacement a été envoyé : {reference}",
    "paid.replacementSent": "Votre article de remplacement a été envoyé",
    "paid.replacementPlacedLead":
      "Une commande de remplacement gratuite pour votre {order} a été passée pour vous, comme accepté pour votre demande de remboursement, {claim}. {merchant} l’expédie comme toute commande.",
    "paid.replacementSentLead":
      "{merchant} vous a envoyé un article de remplacement pour votre {order}, comme accepté pour votre demande de remboursement, {claim}.",
    "paid.refundSubject": "Votre remboursement a été versé : {reference}",
    "paid.refundHeading": "Votre remboursement a été versé",
    "paid.refundLead": "Votre remboursement de {amount} pour la {claim} a été versé.",
    "paid.byShopify": "Il a été versé automatiquement sur le moyen de paiement utilisé pour votre {order}.",
    "paid.byMerchant": "{merchant} vous l’a remboursé directement et nous a confirmé le remboursement.",
    "paid.bank": "Votre banque peut mettre {bankDays} jours ouvrés à l’afficher.",
  },
  de: {
    brand: "Käuferschutz",
    "order.named": "Bestellung {name}",
    "order.dated": "Bestellung vom {date}",
    "claim.name": "Antrag {number} zu {reference}",
    "claim.title": "Antrag {number} zu {reference}",
    "facts.claim": "Antrag",
    "facts.reason": "Grund",
    "facts.order": "Bestellung",
    "facts.orderFrom": "{order} bei {merchant}",
    "facts.orderDated": "Ihre Bestellung vom {date}",
    "facts.filed": "Gestellt am",
    "footer.whyMerchantPaid":
      "Sie erhalten diese E-Mail, weil {merchant} Ihrer {order} einen Käuferschutz hinzugefügt hat.",
    "footer.whyBuyer":
      "Sie erhalten diese E-Mail, weil Sie Ihrer {order} bei {merchant} einen Käuferschutz hinzugefügt haben.",
    "footer.signIn":
      "Sie können sich auch unter {portal} mit Ihrer E-Mail-Adresse und Ihrer Referenznummer {reference} anmelden.",

    "button.coverage": "Ihren Schutz ansehen",
    "button.follow": "Ihren Antrag verfolgen",
    "button.answer": "Dem Antragsteam antworten",
    "button.request": "Ihren Antrag ansehen",
    "button.refundRequest": "Ihren Erstattungsantrag ansehen",

    "welcome.subject": "Ihr Käuferschutz ist aktiv: {reference}",
    "welcome.heading": "Ihre Bestellung ist geschützt",
    "welcome.lead": "Ihre {order} bei {merchant} ist geschützt. Ihre Referenznummer lautet {reference}.",
    "welcome.paidByStore": "{merchant} hat diese Bestellung für Sie kostenlos geschützt.",
    "welcome.reference": "Referenznummer",
    "welcome.covered": "Gedeckter Betrag",
    "welcome.fee": "Schutzgebühr",
    "welcome.freeLookUntil": "Kostenlos kündbar bis",
    "welcome.freeLook":
      "Sie haben es sich anders überlegt? Sie können innerhalb von {hours, plural, one {# Stunde} other {# Stunden}} nach dem Kauf (bis {until}) im Portal mit Ihrer Referenznummer kündigen und erhalten die Schutzgebühr vollständig erstattet.",
    "welcome.claimWindow":
      "Wenn aus einem der unten genannten gedeckten Gründe etwas schiefgeht, stellen Sie im Portal innerhalb von {days, plural, one {# Tag} other {# Tagen}} nach dem Ereignis einen Antrag.",
    "welcome.reasons": "Gedeckte Gründe:",
    "welcome.terms": "Vollständige Bedingungen lesen",

    "cancelled.subject": "Ihr Käuferschutz ist gekündigt: {reference}",
    "cancelled.heading": "Ihr Schutz ist gekündigt",
    "cancelled.lead":
      "Sie haben den Käuferschutz Ihrer {order} bei {merchant} gekündigt. Ihre Referenznummer lautet {reference}.",
    "cancelled.leadOn":
      "Sie haben den Käuferschutz Ihrer {order} bei {merchant} am {when} gekündigt. Ihre Referenznummer lautet {reference}.",
    "cancelled.refund": "Die Schutzgebühr von {fee} wird Ihnen vollständig erstattet.",
    "cancelled.byShopify":
      "Sie wird automatisch auf das Zahlungsmittel erstattet, mit dem Sie die Bestellung bezahlt haben.",
    "cancelled.byMerchant": "{merchant} erstattet sie Ihnen direkt und bestätigt uns die Erstattung.",
    "cancelled.body": "Die Bestellung ist nicht mehr geschützt: Für sie kann kein Antrag mehr gestellt werden.",

    "received.subject": "Wir haben Ihren Erstattungsantrag erhalten: {reference}",
    "received.heading": "Wir haben Ihren Erstattungsantrag erhalten",
    "received.lead":
      "Wir haben Ihren Erstattungsantrag, {claim}, über {amount} erhalten. Das Antragsteam prüft ihn innerhalb von {days, plural, one {# Werktag} other {# Werktagen}}.",
    "received.occurred": "Sie haben uns mitgeteilt, dass es am {date} geschehen ist.",
    "received.told": "Was Sie uns mitgeteilt haben:",
    "received.next":
      "Wie es weitergeht: Wenn das Antragsteam weitere Informationen benötigt, schreiben wir Ihnen per E-Mail, und Sie antworten im Portal. Jede Entscheidung, ob genehmigt oder nicht, wird begründet.",

    "information.subject": "Weitere Informationen zu Ihrem Erstattungsantrag benötigt: {reference}",
    "information.heading": "Das Antragsteam benötigt weitere Informationen",
    "information.lead":
      "Das Antragsteam hat eine Frage zu Ihrem Erstattungsantrag, {claim}. Beantworten Sie sie im Portal (dort können Sie auch Dateien hinzufügen).",
    "information.asks": "Das Antragsteam fragt:",
    "information.tellMore":
      "Bitte schildern Sie uns genauer, was geschehen ist, und fügen Sie Fotos oder Dokumente hinzu, falls Sie welche haben.",
    "information.continues":
      "Sobald Sie antworten, wird die Prüfung fortgesetzt, innerhalb von {days, plural, one {# Werktag} other {# Werktagen}}.",

    "reopened.subject": "Ihr Erstattungsantrag wird erneut geprüft: {reference}",
    "reopened.heading": "Ihr Paket ist wieder unterwegs",
    "reopened.lead":
      "Der Versanddienstleister hat Ihr Paket erneut gescannt, nachdem Ihr Erstattungsantrag, {claim}, als beim Versand verloren genehmigt worden war. Die Genehmigung wird zurückgenommen, bevor eine Erstattung erfolgt ist, und das Antragsteam prüft Ihren Antrag erneut.",
    "reopened.changed": "Was sich geändert hat:",
    "reopened.decides":
      "Das Antragsteam entscheidet innerhalb von {days, plural, one {# Werktag} other {# Werktagen}}. Wenn das Paket Sie trotzdem nicht erreicht, teilen Sie es ihm im Portal mit.",

    "decided.subject": "Entscheidung über Ihren Erstattungsantrag: {reference}",
    "decided.approvedHeading": "Ihr Erstattungsantrag wurde genehmigt",
    "decided.deniedHeading": "Ihr Erstattungsantrag wurde nicht genehmigt",
    "decided.approved": "Ihr Erstattungsantrag, {claim}, wurde genehmigt.",
    "decided.denied": "Ihr Erstattungsantrag, {claim}, wurde nicht genehmigt.",
    "decided.youGet":
      "{remedy, select, replacement {Sie erhalten einen Ersatz im Wert von {amount}.} other {Sie erhalten {amount} zurück.}}",
    "decided.amount": "Betrag",
    "decided.remedy": "Lösung",
    "decided.remedyValue": "{remedy, select, replacement {Ein Ersatz} other {Eine Erstattung}}",
    "decided.whoSends": "Wer ihn sendet",
    "decided.whoPays": "Wer zahlt",
    "decided.sentAutomatically": "{merchant}, als kostenlose Bestellung, die automatisch für Sie aufgegeben wird",
    "decided.paidAutomatically": "{merchant}, automatisch auf das von Ihnen verwendete Zahlungsmittel",
    "decided.dueBy": "Fällig bis",
    "decided.why": "Begründung: {reason}",
    "decided.note": "Anmerkung des Antragsteams:",
    "decided.again":
      "{remedy, select, replacement {Wir schreiben Ihnen erneut, sobald er versandt ist.} other {Wir schreiben Ihnen erneut, sobald sie ausgezahlt ist.}}",
    "decided.newRequest":
      "Wenn Sie Informationen haben, die das Antragsteam nicht gesehen hat, können Sie damit im Portal einen neuen Erstattungsantrag stellen.",
    "payout.shopifyReplacement":
      "{merchant} gibt bis {by} (innerhalb von {days, plural, one {# Werktag} other {# Werktagen}} nach der Genehmigung) automatisch eine kostenlose Ersatzbestellung für Sie auf und versendet sie wie jede Bestellung.",
    "payout.shopifyRefund":
      "Die Erstattung geht bis {by} (innerhalb von {days, plural, one {# Werktag} other {# Werktagen}} nach der Genehmigung) automatisch auf das Zahlungsmittel zurück, mit dem Sie die Bestellung bezahlt haben. Ihre Bank kann {bankDays} Werktage brauchen, um sie anzuzeigen.",
    "payout.merchantReplacement":
      "{merchant} sendet Ihnen den Ersatz bis {by} (innerhalb von {days, plural, one {# Tag} other {# Tagen}} nach der Genehmigung).",
    "payout.merchantRefund":
      "{merchant} erstattet Ihnen den Betrag bis {by} (innerhalb von {days, plural, one {# Tag} other {# Tagen}} nach der Genehmigung) direkt. Ihre Bank kann {bankDays} Werktage brauchen, um ihn anzuzeigen.",

    "paid.worth": "Wert",
    "paid.amount": "Ausgezahlter Betrag",
    "paid.sentOn": "Versandt am",
    "paid.paidOn": "Ausgezahlt am",
    "paid.storeReference": "Referenz des Shops",
    "paid.storeNote": "Anmerkung von {merchant}:",
    "paid.replacementPlacedSubject": "Ihre Ersatzbestellung wurde aufgegeben: {reference}",
    "paid.replacementPlaced": "Ihre Ersatzbestellung wurde aufgegeben",
    "paid.replacementSentSubject": "Ihr Ersatz wurde versandt: {reference}",
    "paid.replacementSent": "Ihr Ersatz wurde versandt",
    "paid.replacementPlacedLead":
      "Für Ihre {order} wurde eine kostenlose Ersatzbestellung für Sie aufgegeben, wie für Ihren Erstattungsantrag, {claim}, genehmigt. {merchant} versendet sie wie jede Bestellung.",
    "paid.replacementSentLead":
      "{merchant} hat Ihnen einen Ersatz für Ihre {order} gesendet, wie für Ihren Erstattungsantrag, {claim}, genehmigt.",
    "paid.refundSubject": "Ihre Erstattung wurde ausgezahlt: {reference}",
    "paid.refundHeading": "Ihre Erstattung wurde ausgezahlt",
    "paid.refundLead": "Ihre Erstattung von {amount} für Ihren {claim} wurde ausgezahlt.",
    "paid.byShopify": "Sie ging automatisch auf das Zahlungsmittel zurück, mit dem Sie Ihre {order} bezahlt haben.",
    "paid.byMerchant": "{merchant} hat sie Ihnen direkt erstattet und uns die Erstattung bestätigt.",
    "paid.bank": "Ihre Bank kann {bankDays} Werktage brauchen, um sie anzuzeigen.",
  },
  es: {
    brand: "Protección de compra",
    "order.named": "pedido {name}",
    "order.dated": "pedido del {date}",
    "claim.name": "solicitud {number} del expediente {reference}",
    "claim.title": "Solicitud {number} del expediente {reference}",
    "facts.claim": "Solicitud",
    "facts.reason": "Motivo",
    "facts.order": "Pedido",
    "facts.orderFrom": "{order} en {merchant}",
    "facts.orderDated": "Su pedido del {date}",
    "facts.filed": "Presentada el",
    "footer.whyMerchantPaid":
      "Recibe este correo electrónico porque {merchant} añadió una protección de compra a su {order}.",
    "footer.whyBuyer":
      "Recibe este correo electrónico porque usted añadió una protección de compra al {order} en {merchant}.",
    "footer.signIn":
      "También puede iniciar sesión en {portal} con su dirección de correo electrónico y su número de referencia {reference}.",

    "button.coverage": "Ver su cobertura",
    "button.follow": "Seguir su solicitud",
    "button.answer": "Responder al equipo de reclamaciones",
    "button.request": "Ver su solicitud",
    "button.refundRequest": "Ver su solicitud de reembolso",

    "welcome.subject": "Su protección de compra está activa: {reference}",
    "welcome.heading": "Su pedido está protegido",
    "welcome.lead": "Su {order} en {merchant} está protegido. Su número de referencia es {reference}.",
    "welcome.paidByStore": "{merchant} ha protegido este pedido para usted sin coste alguno.",
    "welcome.reference": "Número de referencia",
    "welcome.covered": "Importe cubierto",
    "welcome.fee": "Tarifa de protección",
    "welcome.freeLookUntil": "Cancelación gratuita hasta",
    "welcome.freeLook":
      "¿Ha cambiado de opinión? Puede cancelar en un plazo de {hours, plural, one {# hora} other {# horas}} desde la compra (hasta el {until}) y obtener el reembolso íntegro de la tarifa de protección, en el portal con su número de referencia.",
    "welcome.claimWindow":
      "Si algo sale mal por uno de los motivos cubiertos que se indican a continuación, presente una solicitud en el portal en un plazo de {days, plural, one {# día} other {# días}} desde lo ocurrido.",
    "welcome.reasons": "Motivos cubiertos:",
    "welcome.terms": "Leer las condiciones completas",

    "cancelled.subject": "Su protección de compra está cancelada: {reference}",
    "cancelled.heading": "Su protección está cancelada",
    "cancelled.lead":
      "Ha cancelado la protección de compra de su {order} en {merchant}. Su número de referencia es {reference}.",
    "cancelled.leadOn":
      "Ha cancelado la protección de compra de su {order} en {merchant} el {when}. Su número de referencia es {reference}.",
    "cancelled.refund": "La tarifa de protección de {fee} se le reembolsa íntegramente.",
    "cancelled.byShopify": "Se reembolsa automáticamente en el medio de pago que utilizó para el pedido.",
    "cancelled.byMerchant": "{merchant} se la reembolsa directamente y nos confirma el reembolso.",
    "cancelled.body": "El pedido ya no está protegido: no se puede presentar ninguna solicitud sobre él.",

    "received.subject": "Hemos recibido su solicitud de reembolso: {reference}",
    "received.heading": "Hemos recibido su solicitud de reembolso",
    "received.lead":
      "Hemos recibido su solicitud de reembolso, {claim}, por {amount}. El equipo de reclamaciones la revisa en un plazo de {days, plural, one {# día hábil} other {# días hábiles}}.",
    "received.occurred": "Nos indicó que ocurrió el {date}.",
    "received.told": "Lo que nos contó:",
    "received.next":
      "Próximos pasos: si el equipo de reclamaciones necesita más información, le escribiremos y usted responderá en el portal. Cada decisión, aprobada o no, va acompañada de su motivo.",

    "information.subject": "Se necesita más información sobre su solicitud de reembolso: {reference}",
    "information.heading": "El equipo de reclamaciones necesita más información",
    "information.lead":
      "El equipo de reclamaciones tiene una pregunta sobre su solicitud de reembolso, {claim}. Respóndala en el portal (allí puede añadir archivos).",
    "information.asks": "El equipo de reclamaciones pregunta:",
    "information.tellMore": "Cuéntenos más sobre lo ocurrido y añada fotos o documentos si los tiene.",
    "information.continues":
      "En cuanto responda, la revisión continuará, en un plazo de {days, plural, one {# día hábil} other {# días hábiles}}.",

    "reopened.subject": "Su solicitud de reembolso vuelve a estar en revisión: {reference}",
    "reopened.heading": "Su paquete vuelve a estar en camino",
    "reopened.lead":
      "El transportista volvió a escanear su paquete después de que su solicitud de reembolso, {claim}, se aprobara como perdida durante el transporte. La aprobación se retira antes de que se haya hecho ningún reembolso, y el equipo de reclamaciones volverá a revisar su solicitud.",
    "reopened.changed": "Qué ha cambiado:",
    "reopened.decides":
      "El equipo de reclamaciones decide en un plazo de {days, plural, one {# día hábil} other {# días hábiles}}. Si el paquete sigue sin llegarle, indíqueselo en el portal.",

    "decided.subject": "Decisión sobre su solicitud de reembolso: {reference}",
    "decided.approvedHeading": "Su solicitud de reembolso ha sido aprobada",
    "decided.deniedHeading": "Su solicitud de reembolso no ha sido aprobada",
    "decided.approved": "Su solicitud de reembolso, {claim}, ha sido aprobada.",
    "decided.denied": "Su solicitud de reembolso, {claim}, no ha sido aprobada.",
    "decided.youGet":
      "{remedy, select, replacement {Recibirá un artículo de sustitución por valor de {amount}.} other {Se le devolverá un importe de {amount}.}}",
    "decided.amount": "Importe",
    "decided.remedy": "Solución",
    "decided.remedyValue": "{remedy, select, replacement {Una sustitución} other {Un reembolso}}",
    "decided.whoSends": "Quién lo envía",
    "decided.whoPays": "Quién paga",
    "decided.sentAutomatically": "{merchant}, mediante un pedido gratuito realizado automáticamente para usted",
    "decided.paidAutomatically": "{merchant}, automáticamente en el medio de pago que utilizó",
    "decided.dueBy": "A más tardar el",
    "decided.why": "Motivo: {reason}",
    "decided.note": "Nota del equipo de reclamaciones:",
    "decided.again":
      "{remedy, select, replacement {Le escribiremos de nuevo cuando se haya enviado.} other {Le escribiremos de nuevo cuando se haya pagado.}}",
    "decided.newRequest":
      "Si tiene información que el equipo de reclamaciones no vio, puede presentar con ella una nueva solicitud de reembolso en el portal.",
    "payout.shopifyReplacement":
      "{merchant} realiza automáticamente para usted un pedido de sustitución gratuito a más tardar el {by} (en un plazo de {days, plural, one {# día hábil} other {# días hábiles}} desde la aprobación) y lo envía como cualquier pedido.",
    "payout.shopifyRefund":
      "El reembolso se abona automáticamente en el medio de pago que utilizó para el pedido, a más tardar el {by} (en un plazo de {days, plural, one {# día hábil} other {# días hábiles}} desde la aprobación). Su banco puede tardar {bankDays} días hábiles en reflejarlo.",
    "payout.merchantReplacement":
      "{merchant} le envía el artículo de sustitución a más tardar el {by} (en un plazo de {days, plural, one {# día} other {# días}} desde la aprobación).",
    "payout.merchantRefund":
      "{merchant} le reembolsa directamente a más tardar el {by} (en un plazo de {days, plural, one {# día} other {# días}} desde la aprobación). Su banco puede tardar {bankDays} días hábiles en reflejarlo.",

    "paid.worth": "Valor",
    "paid.amount": "Importe pagado",
    "paid.sentOn": "Enviado el",
    "paid.paidOn": "Pagado el",
    "paid.storeReference": "Referencia de la tienda",
    "paid.storeNote": "Nota de {merchant}:",
    "paid.replacementPlacedSubject": "Se ha realizado su pedido de sustitución: {reference}",
    "paid.replacementPlaced": "Se ha realizado su pedido de sustitución",
    "paid.replacementSentSubject": "Se ha enviado su artículo de sustitución: {reference}",
    "paid.replacementSent": "Se ha enviado su artículo de sustitución",
    "paid.replacementPlacedLead":
      "Se ha realizado para usted un pedido de sustitución gratuito de su {order}, tal como se aprobó para su solicitud de reembolso, {claim}. {merchant} lo envía como cualquier pedido.",
    "paid.replacementSentLead":
      "{merchant} le ha enviado un artículo de sustitución de su {order}, tal como se aprobó para su solicitud de reembolso, {claim}.",
    "paid.refundSubject": "Se ha pagado su reembolso: {reference}",
    "paid.refundHeading": "Se ha pagado su reembolso",
    "paid.refundLead": "Se ha pagado su reembolso de {amount} por la {claim}.",
    "paid.byShopify": "Se abonó automáticamente en el medio de pago que utilizó para su {order}.",
    "paid.byMerchant": "{merchant} se lo reembolsó directamente y nos confirmó el reembolso.",
    "paid.bank": "Su banco puede tardar {bankDays} días hábiles en reflejarlo.",
  },
  nl: {
    brand: "Aankoopbescherming",
    "order.named": "bestelling {name}",
    "order.dated": "bestelling van {date}",
    "claim.name": "verzoek {number} bij {reference}",
    "claim.title": "Verzoek {number} bij {reference}",
    "facts.claim": "Verzoek",
    "facts.reason": "Reden",
    "facts.order": "Bestelling",
    "facts.orderFrom": "{order} bij {merchant}",
    "facts.orderDated": "Uw bestelling van {date}",
    "facts.filed": "Ingediend op",
    "footer.whyMerchantPaid":
      "U ontvangt deze e-mail omdat {merchant} aankoopbescherming aan uw {order} heeft toegevoegd.",
    "footer.whyBuyer":
      "U ontvangt deze e-mail omdat u aankoopbescherming hebt toegevoegd aan uw {order} bij {merchant}.",
    "footer.signIn": "U kunt ook inloggen op {portal} met uw e-mailadres en uw referentienummer {reference}.",

    "button.coverage": "Uw dekking bekijken",
    "button.follow": "Uw verzoek volgen",
    "button.answer": "Het claimteam antwoorden",
    "button.request": "Uw verzoek bekijken",
    "button.refundRequest": "Uw terugbetalingsverzoek bekijken",

    "welcome.subject": "Uw aankoopbescherming is actief: {reference}",
    "welcome.heading": "Uw bestelling is beschermd",
    "welcome.lead": "Uw {order} bij {merchant} is beschermd. Uw referentienummer is {reference}.",
    "welcome.paidByStore": "{merchant} heeft deze bestelling kosteloos voor u beschermd.",
    "welcome.reference": "Referentienummer",
    "welcome.covered": "Gedekt bedrag",
    "welcome.fee": "Beschermingsvergoeding",
    "welcome.freeLookUntil": "Gratis opzeggen tot",
    "welcome.freeLook":
      "Van gedachten veranderd? U kunt binnen {hours, plural, one {# uur} other {# uur}} na de aankoop (tot {until}) opzeggen en krijgt de beschermingsvergoeding volledig terug, in het portaal met uw referentienummer.",
    "welcome.claimWindow":
      "Gaat er iets mis om een van de hieronder gedekte redenen, dien dan binnen {days, plural, one {# dag} other {# dagen}} na de gebeurtenis een verzoek in via het portaal.",
    "welcome.reasons": "Gedekte redenen:",
    "welcome.terms": "De volledige voorwaarden lezen",

    "cancelled.subject": "Uw aankoopbescherming is opgezegd: {reference}",
    "cancelled.heading": "Uw bescherming is opgezegd",
    "cancelled.lead":
      "U hebt de aankoopbescherming van uw {order} bij {merchant} opgezegd. Uw referentienummer is {reference}.",
    "cancelled.leadOn":
      "U hebt de aankoopbescherming van uw {order} bij {merchant} op {when} opgezegd. Uw referentienummer is {reference}.",
    "cancelled.refund": "De beschermingsvergoeding van {fee} wordt volledig terugbetaald.",
    "cancelled.byShopify":
      "Die wordt automatisch terugbetaald via het betaalmiddel waarmee u de bestelling hebt betaald.",
    "cancelled.byMerchant": "{merchant} betaalt die rechtstreeks aan u terug en bevestigt ons de terugbetaling.",
    "cancelled.body": "De bestelling is niet meer beschermd: er kan geen verzoek meer voor worden ingediend.",

    "received.subject": "We hebben uw terugbetalingsverzoek ontvangen: {reference}",
    "received.heading": "We hebben uw terugbetalingsverzoek ontvangen",
    "received.lead":
      "We hebben uw terugbetalingsverzoek, {claim}, voor {amount} ontvangen. Het claimteam beoordeelt het binnen {days, plural, one {# werkdag} other {# werkdagen}}.",
    "received.occurred": "U hebt ons laten weten dat het op {date} is gebeurd.",
    "received.told": "Wat u ons hebt verteld:",
    "received.next":
      "Hoe het verdergaat: als het claimteam meer informatie nodig heeft, e-mailen we u en antwoordt u in het portaal. Elk besluit, goedgekeurd of niet, wordt gemotiveerd.",

    "information.subject": "Meer informatie nodig voor uw terugbetalingsverzoek: {reference}",
    "information.heading": "Het claimteam heeft meer informatie nodig",
    "information.lead":
      "Het claimteam heeft een vraag over uw terugbetalingsverzoek, {claim}. Beantwoord die in het portaal (daar kunt u ook bestanden toevoegen).",
    "information.asks": "Het claimteam vraagt:",
    "information.tellMore": "Vertel ons meer over wat er is gebeurd en voeg foto’s of documenten toe als u die hebt.",
    "information.continues":
      "Zodra u antwoordt, gaat de beoordeling verder, binnen {days, plural, one {# werkdag} other {# werkdagen}}.",

    "reopened.subject": "Uw terugbetalingsverzoek wordt opnieuw beoordeeld: {reference}",
    "reopened.heading": "Uw pakket is weer onderweg",
    "reopened.lead":
      "De vervoerder heeft uw pakket opnieuw gescand nadat uw terugbetalingsverzoek, {claim}, was goedgekeurd als zoekgeraakt tijdens verzending. De goedkeuring wordt ingetrokken voordat er iets is terugbetaald, en het claimteam bekijkt uw verzoek opnieuw.",
    "reopened.changed": "Wat er is veranderd:",
    "reopened.decides":
      "Het claimteam beslist binnen {days, plural, one {# werkdag} other {# werkdagen}}. Als het pakket u nog steeds niet bereikt, laat het dan weten in het portaal.",

    "decided.subject": "Besluit over uw terugbetalingsverzoek: {reference}",
    "decided.approvedHeading": "Uw terugbetalingsverzoek is goedgekeurd",
    "decided.deniedHeading": "Uw terugbetalingsverzoek is niet goedgekeurd",
    "decided.approved": "Uw terugbetalingsverzoek, {claim}, is goedgekeurd.",
    "decided.denied": "Uw terugbetalingsverzoek, {claim}, is niet goedgekeurd.",
    "decided.youGet":
      "{remedy, select, replacement {U krijgt een vervangend artikel ter waarde van {amount}.} other {U krijgt {amount} terug.}}",
    "decided.amount": "Bedrag",
    "decided.remedy": "Oplossing",
    "decided.remedyValue": "{remedy, select, replacement {Een vervanging} other {Een terugbetaling}}",
    "decided.whoSends": "Wie het verstuurt",
    "decided.whoPays": "Wie betaalt",
    "decided.sentAutomatically": "{merchant}, als gratis bestelling die automatisch voor u wordt geplaatst",
    "decided.paidAutomatically": "{merchant}, automatisch via het betaalmiddel dat u hebt gebruikt",
    "decided.dueBy": "Uiterlijk op",
    "decided.why": "Reden: {reason}",
    "decided.note": "Opmerking van het claimteam:",
    "decided.again":
      "{remedy, select, replacement {We e-mailen u opnieuw zodra het is verstuurd.} other {We e-mailen u opnieuw zodra het is betaald.}}",
    "decided.newRequest":
      "Als u informatie hebt die het claimteam niet heeft gezien, kunt u daarmee in het portaal een nieuw terugbetalingsverzoek indienen.",
    "payout.shopifyReplacement":
      "{merchant} plaatst uiterlijk op {by} (binnen {days, plural, one {# werkdag} other {# werkdagen}} na de goedkeuring) automatisch een gratis vervangende bestelling voor u en verstuurt die zoals elke bestelling.",
    "payout.shopifyRefund":
      "De terugbetaling gaat uiterlijk op {by} (binnen {days, plural, one {# werkdag} other {# werkdagen}} na de goedkeuring) automatisch terug naar het betaalmiddel waarmee u de bestelling hebt betaald. Het kan {bankDays} werkdagen duren voordat uw bank die toont.",
    "payout.merchantReplacement":
      "{merchant} stuurt u het vervangende artikel uiterlijk op {by} (binnen {days, plural, one {# dag} other {# dagen}} na de goedkeuring).",
    "payout.merchantRefund":
      "{merchant} betaalt u uiterlijk op {by} (binnen {days, plural, one {# dag} other {# dagen}} na de goedkeuring) rechtstreeks terug. Het kan {bankDays} werkdagen duren voordat uw bank die toont.",

    "paid.worth": "Waarde",
    "paid.amount": "Betaald bedrag",
    "paid.sentOn": "Verstuurd op",
    "paid.paidOn": "Betaald op",
    "paid.storeReference": "Referentie van de winkel",
    "paid.storeNote": "Opmerking van {merchant}:",
    "paid.replacementPlacedSubject": "Uw vervangende bestelling is geplaatst: {reference}",
    "paid.replacementPlaced": "Uw vervangende bestelling is geplaatst",
    "paid.replacementSentSubject": "Uw vervangende artikel is verstuurd: {reference}",
    "paid.replacementSent": "Uw vervangende artikel is verstuurd",
    "paid.replacementPlacedLead":
      "Er is een gratis vervangende bestelling voor uw {order} voor u geplaatst, zoals goedgekeurd voor uw terugbetalingsverzoek, {claim}. {merchant} verstuurt die zoals elke bestelling.",
    "paid.replacementSentLead":
      "{merchant} heeft u een vervangend artikel voor uw {order} gestuurd, zoals goedgekeurd voor uw terugbetalingsverzoek, {claim}.",
    "paid.refundSubject": "Uw terugbetaling is uitbetaald: {reference}",
    "paid.refundHeading": "Uw terugbetaling is uitbetaald",
    "paid.refundLead": "Uw terugbetaling van {amount} voor uw {claim} is uitbetaald.",
    "paid.byShopify": "Die is automatisch teruggegaan naar het betaalmiddel waarmee u uw {order} hebt betaald.",
    "paid.byMerchant": "{merchant} heeft die rechtstreeks aan u terugbetaald en ons de terugbetaling bevestigd.",
    "paid.bank": "Het kan {bankDays} werkdagen duren voordat uw bank die toont.",
  },
});
