// Every sentence the buyer portal shows, in the five buyer languages, as ICU messages (the contract's defineMessages;
// README "Adding a language"). Pages take their words through usePortalText (ui.tsx), loaders and actions through
// portalTextFor (locale.server.ts); an API error is shown through `errorSentence`, which maps the API's stable error
// codes to plain sentences for a buyer. The rulebook's own words (reasons, windows, denial sentences, disclosure) are
// not here but in server/domain/rulebook-text.ts, which the loaders hand to the pages in the buyer's language.
import { defineMessages, type MessageValues } from "@purchase-protection/contract/messages";

const english = {
  siteName: "Purchase protection",
  skipToContent: "Skip to main content",
  signOut: "Sign out",
  // The footer's link to the rulebook; "What is covered" is the plan page's section and the rulebook's title, once each.
  termsLink: "Rules of the protection",
  planLink: "Your coverage",
  footerNav: "Portal",
  footerNote: "Questions about your order itself? Contact the store you bought from.",
  protectedBy: "Your order from {merchant}",
  language: "Language",
  languageSubmit: "Change language",

  "lookup.title": "Find your protection",
  "lookup.intro":
    "Enter the e-mail address you used for the order and either the reference number from your protection e-mail or the store's order number.",
  "lookup.email": "E-mail address",
  "lookup.emailHint": "The address the store sent your order confirmation to.",
  "lookup.reference": "Reference number or order number",
  "lookup.referenceHint":
    "The reference number has the form CLM-YYYY-XXXXXXXX, for example CLM-2026-7K3M9Q2X: it is in your protection e-mail. Or the order number from the store's confirmation, for example #1001.",
  "lookup.submit": "Continue",
  "lookup.emailMissing": "Enter the e-mail address you used for the order.",
  "lookup.referenceMissing": "Enter the reference number from your protection e-mail, or the store's order number.",
  "lookup.signedOut": "You are signed out.",
  "lookup.sessionExpired": "Your session has ended. Look up your protection again to continue.",
  "lookup.linkFailed":
    "This link has expired or is not valid. Look up your protection with your e-mail address and reference number or order number.",

  "coverageLink.title": "Open your coverage",
  "coverageLink.intro":
    "This link opens the protection of your order, reference number {reference}. Continue to see your coverage and make a request.",
  "coverageLink.submit": "Open my coverage",

  "plan.title": "Your coverage",
  "plan.reference": "Reference number",
  "plan.order": "Order",
  "plan.actionTitle": "Action needed",
  "plan.actionIntro": "We need more information to decide this request. Answer on its page:",
  "plan.actionAnswer": "Answer the question about {claim}",
  "plan.question": "Our question",
  "plan.status": "Status",
  "plan.statusValue":
    "{status, select, active {Active} voided {Voided by the store} cancelled {Cancelled} other {{status}}}",
  "plan.fee": "Protection fee",
  "plan.covered": "Covered amount",
  "plan.remaining": "Still available to claim",
  "plan.purchased": "Protected since",
  // Followed by a <time> each (LocalTime): the delivery, then the end of the window that counts from it.
  "plan.deliveredOn": "The carrier delivered your order on",
  "plan.deliveryClaimsUntil":
    "For a parcel that arrived damaged, defective, wrong or incomplete, or was stolen after delivery, the {days, plural, one {# day counts} other {# days count}} from the delivery: you can claim until",
  "plan.reasonsTitle": "What is covered",
  "plan.reasonsIntro": "You can ask for a refund for any of these reasons:",
  "plan.reasonsIntroEnded": "While it was active, this protection covered these reasons:",
  "plan.fullTerms": "Read the full rules",
  "plan.freeLookTitle": "Changed your mind?",
  "plan.freeLookOpen": "You can cancel this protection and get the fee back until",
  "plan.freeLookRemaining": "Time left:",
  "plan.freeLookClosed": "The {hours}-hour window to cancel and get the fee back has ended.",
  // Within the 48 hours, a request that is not declined holds the fee (the API's plan_has_claims).
  "plan.freeLookHasClaims":
    "This protection has a request that is open, approved or paid, so it can no longer be cancelled for a refund of its fee.",
  "plan.freeLookVoided": "The store voided this protection, so there is nothing to cancel.",
  // A merchant-paid plan (the API's free_look_not_applicable): the buyer paid nothing, so nothing is refunded.
  "plan.freeLookMerchantPaid":
    "{store} paid for this protection, so you paid nothing for it and there is nothing to cancel or refund.",
  "plan.cancelButton": "Cancel protection",
  // The time follows as a <time> the browser writes in the buyer's zone (LocalTime).
  "plan.cancelledOn": "You cancelled this protection on",
  "plan.refundPending": "Your fee of {amount} will be refunded. Refund status: pending.",
  "plan.refundDone": "Your fee of {amount} was refunded on",
  "plan.claimsTitle": "Your refund requests",
  "plan.noClaims": "You have not asked for a refund yet.",
  "plan.newClaim": "Report a problem",
  "plan.viewClaim": "View {claim}",
  "plan.filedOn": "sent on {date}",
  "plan.decisionReason": "Reason for the decision:",
  "plan.notActive": "This protection is not active, so no new requests can be filed.",

  "cancel.title": "Cancel your protection",
  "cancel.explain":
    "If you cancel, your order is no longer protected and you cannot ask for a refund under this protection. The fee of {fee} is refunded to you.",
  "cancel.confirm": "I understand that my order will no longer be protected.",
  "cancel.confirmMissing": "Tick the box to confirm that you want to cancel.",
  "cancel.submit": "Yes, cancel protection",
  "cancel.back": "Keep my protection",
  "cancel.done": "Your protection is cancelled. The fee will be refunded.",

  "claim.newTitle": "Report a problem",
  "claim.newIntro": "Tell us what went wrong. We answer every request, and every decision comes with its reason.",
  "claim.reason": "What happened?",
  "claim.reasonChoose": "Choose a reason",
  "claim.occurredAt": "When did it happen?",
  "claim.occurredAtHint":
    "The day you noticed the problem. It must be within the last {days} days; for a parcel as it arrived, within {days} days of its delivery.",
  "claim.description": "Describe the problem",
  "claim.descriptionHint":
    "What you ordered, what happened, and anything that helps us check it. Up to {max} characters.",
  "claim.amount": "Amount to refund (optional)",
  "claim.amountHint":
    "For example {example}. Leave it empty to ask for the full remaining covered amount ({remaining}).",
  "claim.evidence": "Photos or documents (optional)",
  // For the reasons a photo shows best (PHOTO_REASONS of the claim form): asked for, not required by the rulebook.
  "claim.evidencePhotos": "Photos of the problem (please add at least one)",
  "claim.photosAsked": "For a damaged, defective or wrong item, add at least one photo that shows the problem.",
  "claim.photosPlease": "A photo that shows the problem is how we can check it quickly.",
  "claim.evidenceHint":
    "Up to {maxFiles, plural, one {# file} other {# files}}, {maxSize} each: JPEG, PNG, WebP, HEIC or PDF. A request holds at most {perRequest} in all.",
  "claim.submit": "Send request",
  "claim.reasonMissing": "Choose what happened.",
  "claim.occurredAtMissing": "Enter the day it happened.",
  "claim.descriptionMissing": "Describe the problem.",
  "claim.amountInvalid": "Enter the amount as you would write it, for example {example}.",
  "claim.created": "Your request was sent. We will e-mail you when its status changes.",
  "claim.detailTitle": "Refund request",
  /** A claim's name for the buyer: "Claim 2 on CLM-2026-7K3M9Q2X" (the service's claimName). */
  "claim.name": "Claim {number} on {reference}",
  "claim.nameInline": "claim {number} on {reference}",
  "claim.payoutPending": "Approved: {what}.",
  // The day and time follow as a <time> the browser writes in the buyer's zone (LocalTime).
  "claim.payoutPaidPrefix": "Paid: {what}, on",
  "claim.paidBy":
    "{remedy, select, replacement {{merchant} sent you the replacement.} other {{payer, select, shopify_refund {The refund went back to the payment method you used for the order. Your bank can take {bankDays} business days to show it.} other {{merchant} refunded you directly. Your bank can take {bankDays} business days to show it.}}}}",
  "claim.payoutTerms":
    "{payer, select, shopify_refund {{remedy, select, replacement {{merchant} places a free replacement order for you automatically by {by} (within {days, plural, one {# business day} other {# business days}} of the approval) and ships it like any order.} other {The refund goes back automatically to the payment method you used for the order, by {by} (within {days, plural, one {# business day} other {# business days}} of the approval). Your bank can take {bankDays} business days to show it.}}} other {{remedy, select, replacement {{merchant} sends you the replacement by {by} (within {days, plural, one {# day} other {# days}} of the approval).} other {{merchant} refunds you directly by {by} (within {days, plural, one {# day} other {# days}} of the approval). Your bank can take {bankDays} business days to show it.}}}}",
  "claim.remedy": "{remedy, select, replacement {a replacement worth {amount}} other {a refund of {amount}}}",
  "claim.actionTitle": "Action needed",
  "claim.status": "Status",
  "claim.statusValue":
    "{status, select, submitted {Received} under_review {Being reviewed} needs_information {We need more information} approved {Approved} paid {Paid} denied {Declined} other {{status}}}",
  "claim.reasonLabel": "Reason",
  "claim.amountLabel": "Amount asked",
  "claim.occurredLabel": "Happened on",
  "claim.filedLabel": "Sent on",
  "claim.decision": "Decision",
  "claim.decisionBasis": "What the decision rests on",
  "claim.yourDescription": "What you told us",
  "claim.timeline": "History",
  "claim.actor":
    "{actor, select, buyer {You} merchant {The store} claims_team {Claims team} service {Purchase protection} other {{actor}}}",
  "claim.kind":
    "{kind, select, submitted {Request sent} message {Message} status_changed {Status changed} other {{kind}}}",
  "claim.statusBecame": "Status: {status}",
  "claim.evidenceTitle": "Files",
  "claim.noEvidence": "No files yet.",
  "claim.download": "Download {name}",
  "claim.addInfoTitle": "Add information",
  "claim.addInfoIntro": "Send a message or more files for this request.",
  "claim.message": "Your message",
  "claim.messageMissing": "Write a message.",
  "claim.addInfoSubmit": "Send",
  "claim.added": "Thank you. Your information was added to the request.",
  "claim.closed": "This request is closed; no more information can be added.",
  "claim.back": "Back to your coverage",

  "terms.title": "What is covered",
  "terms.intro":
    "One set of rules for every order protected by this service. There is no fine print beyond this page and the disclosure below.",
  "terms.reasonsTitle": "The reasons you can ask for a refund",
  "terms.evidenceTitle": "Photos and documents",
  "terms.evidence":
    "Each time you write to us you can add up to {maxFiles, plural, one {# file} other {# files}} of at most {maxSize} each: JPEG, PNG, WebP, HEIC or PDF. Location data in photos is removed before they are stored. Only you, the store and the claims team can see them.",
  "terms.evidenceQuotas":
    "In all, one request holds at most {claim}, all the requests of one purchase together {plan}, and one visit to this site (one sign-in) can add {session}.",
  "terms.decisionsTitle": "How decisions work",
  "terms.decisions":
    "Every request is reviewed. If we need more information we ask you by e-mail, and you answer on this site. Every decision — approved or declined — comes with its reason, and you see it here.",
  "terms.denialReasonsIntro":
    "A request is declined only for one of these published reasons, with the sentence you will read:",
  "terms.payoutTitle": "When a request is approved",
  "terms.payout":
    "On a Shopify store the refund goes back automatically to the payment method you used (or a free replacement order is placed) within {shopifyDays, plural, one {# business day} other {# business days}} of the approval. On other stores the store refunds you directly, or sends the replacement, within {merchantDays, plural, one {# day} other {# days}} of the approval. Your bank can take {bankDays} business days to show a refund.",
  "terms.disclosureTitle": "Disclosure",
  "terms.start": "Look up your protection",

  // "20 files and 50 MB": an evidence quota.
  quota: "{files, plural, one {# file} other {# files}} and {size}",
  sizeMegabytes: "{size, number} MB",
  sizeKilobytes: "{size, number} KB",
  countdownHours: "{hours} h {minutes} min",
  countdownMinutes: "{minutes} min",

  genericError: "Something went wrong on our side. Please try again in a moment.",
  forbidden: "This form has expired. Reload the page and try again.",
  notFound: "We could not find that page.",
  signOutFailed: "We could not sign you out. Try again in a moment.",
  tooManySeconds: "Too many attempts. Please wait {seconds} seconds and try again.",
  tooManyMinutes: "Too many attempts. Please wait about {minutes} minutes and try again.",

  "error.portal_lookup_failed":
    "We could not find protection for that e-mail address and reference or order number. Check both and try again.",
  "error.free_look_expired": "The {hours} hours to cancel have passed, so this protection can no longer be cancelled.",
  "error.plan_not_active": "This protection is not active (it was cancelled or voided by the store).",
  "error.free_look_not_applicable": "The store paid for this protection, so there is no fee to cancel it for.",
  "error.reason_not_covered": "Choose one of the reasons in the list.",
  "error.claim_window_expired":
    "The problem must have happened within the last {days} days; for a parcel as it arrived, within {days} days of its delivery.",
  "error.occurred_before_purchase": "The date cannot be before your purchase.",
  "error.occurred_in_future": "The date cannot be in the future.",
  "error.amount_exceeds_remaining": "The amount is more than what is still covered.",
  "error.evidence_type_unsupported": "One of the files is not a JPEG, PNG, WebP, HEIC or PDF file.",
  "error.evidence_too_large": "One of the files is larger than {maxSize}.",
  "error.too_many_evidence_files": "You can add at most {maxFiles} files at a time.",
  "error.evidence_quota_exceeded":
    "This request already holds as many files as we can take. Describe the rest in a message, or contact the store.",
  "error.claim_already_open":
    "You already have an open request for this reason. Add information to that request instead.",
  "error.request_too_large": "The files are too large together. Send fewer files at a time.",
};

export type PortalMessageKey = keyof typeof english;

export const portalMessages = defineMessages(english, {
  fr: {
    siteName: "Protection d’achat",
    skipToContent: "Aller au contenu principal",
    signOut: "Se déconnecter",
    termsLink: "Règles de la protection",
    planLink: "Votre couverture",
    footerNav: "Portail",
    footerNote: "Une question sur la commande elle-même ? Contactez la boutique où vous l’avez passée.",
    protectedBy: "Votre commande chez {merchant}",
    language: "Langue",
    languageSubmit: "Changer de langue",

    "lookup.title": "Retrouver votre protection",
    "lookup.intro":
      "Saisissez l’adresse e-mail utilisée pour la commande, puis le numéro de référence figurant dans votre e-mail de protection ou le numéro de commande de la boutique.",
    "lookup.email": "Adresse e-mail",
    "lookup.emailHint": "L’adresse à laquelle la boutique a envoyé la confirmation de votre commande.",
    "lookup.reference": "Numéro de référence ou numéro de commande",
    "lookup.referenceHint":
      "Le numéro de référence a la forme CLM-AAAA-XXXXXXXX, par exemple CLM-2026-7K3M9Q2X : il figure dans votre e-mail de protection. Ou le numéro de commande de la confirmation de la boutique, par exemple #1001.",
    "lookup.submit": "Continuer",
    "lookup.emailMissing": "Saisissez l’adresse e-mail utilisée pour la commande.",
    "lookup.referenceMissing":
      "Saisissez le numéro de référence de votre e-mail de protection, ou le numéro de commande de la boutique.",
    "lookup.signedOut": "Vous êtes déconnecté.",
    "lookup.sessionExpired": "Votre session a pris fin. Recherchez à nouveau votre protection pour continuer.",
    "lookup.linkFailed":
      "Ce lien a expiré ou n’est pas valide. Recherchez votre protection avec votre adresse e-mail et votre numéro de référence ou de commande.",

    "coverageLink.title": "Ouvrir votre couverture",
    "coverageLink.intro":
      "Ce lien ouvre la protection de votre commande, numéro de référence {reference}. Continuez pour voir votre couverture et faire une demande.",
    "coverageLink.submit": "Ouvrir ma couverture",

    "plan.title": "Votre couverture",
    "plan.reference": "Numéro de référence",
    "plan.order": "Commande",
    "plan.actionTitle": "Action requise",
    "plan.actionIntro": "Il nous faut davantage d’informations pour statuer sur cette demande. Répondez sur sa page :",
    "plan.actionAnswer": "Répondre à la question sur la {claim}",
    "plan.question": "Notre question",
    "plan.status": "Statut",
    "plan.statusValue":
      "{status, select, active {Active} voided {Annulée par la boutique} cancelled {Résiliée} other {{status}}}",
    "plan.fee": "Frais de protection",
    "plan.covered": "Montant couvert",
    "plan.remaining": "Encore disponible",
    "plan.purchased": "Protégée depuis le",
    "plan.deliveredOn": "Le transporteur a livré votre commande le",
    "plan.deliveryClaimsUntil":
      "Pour un colis arrivé endommagé, défectueux, erroné ou incomplet, ou volé après la livraison, {days, plural, one {le # jour court} other {les # jours courent}} à partir de la livraison : vous pouvez faire une demande jusqu’au",
    "plan.reasonsTitle": "Ce qui est couvert",
    "plan.reasonsIntro": "Vous pouvez demander un remboursement pour chacun de ces motifs :",
    "plan.reasonsIntroEnded": "Tant qu’elle était active, cette protection couvrait ces motifs :",
    "plan.fullTerms": "Lire toutes les règles",
    "plan.freeLookTitle": "Vous avez changé d’avis ?",
    "plan.freeLookOpen": "Vous pouvez résilier cette protection et récupérer les frais jusqu’au",
    "plan.freeLookRemaining": "Temps restant :",
    "plan.freeLookClosed": "Le délai de {hours} heures pour résilier et récupérer les frais est écoulé.",
    "plan.freeLookHasClaims":
      "Cette protection fait l’objet d’une demande en cours, acceptée ou payée : elle ne peut donc plus être résiliée avec remboursement des frais.",
    "plan.freeLookVoided": "La boutique a annulé cette protection : il n’y a donc rien à résilier.",
    "plan.freeLookMerchantPaid":
      "{store} a payé cette protection : vous n’avez rien payé, il n’y a donc rien à résilier ni à rembourser.",
    "plan.cancelButton": "Résilier la protection",
    "plan.cancelledOn": "Vous avez résilié cette protection le",
    "plan.refundPending": "Vos frais de {amount} vont vous être remboursés. Statut du remboursement : en attente.",
    "plan.refundDone": "Vos frais de {amount} vous ont été remboursés le",
    "plan.claimsTitle": "Vos demandes de remboursement",
    "plan.noClaims": "Vous n’avez encore demandé aucun remboursement.",
    "plan.newClaim": "Signaler un problème",
    "plan.viewClaim": "Voir la {claim}",
    "plan.filedOn": "envoyée le {date}",
    "plan.decisionReason": "Motif de la décision :",
    "plan.notActive": "Cette protection n’est pas active : aucune nouvelle demande ne peut être déposée.",

    "cancel.title": "Résilier votre protection",
    "cancel.explain":
      "Si vous résiliez, votre commande n’est plus protégée et vous ne pouvez plus demander de remboursement au titre de cette protection. Les frais de {fee} vous sont remboursés.",
    "cancel.confirm": "Je comprends que ma commande ne sera plus protégée.",
    "cancel.confirmMissing": "Cochez la case pour confirmer que vous souhaitez résilier.",
    "cancel.submit": "Oui, résilier la protection",
    "cancel.back": "Garder ma protection",
    "cancel.done": "Votre protection est résiliée. Les frais vous seront remboursés.",

    "claim.newTitle": "Signaler un problème",
    "claim.newIntro": "Dites-nous ce qui ne va pas. Nous répondons à chaque demande, et chaque décision est motivée.",
    "claim.reason": "Que s’est-il passé ?",
    "claim.reasonChoose": "Choisissez un motif",
    "claim.occurredAt": "Quand cela s’est-il produit ?",
    "claim.occurredAtHint":
      "Le jour où vous avez constaté le problème. Il doit dater de moins de {days} jours ; pour un colis tel qu’il est arrivé, de moins de {days} jours après sa livraison.",
    "claim.description": "Décrivez le problème",
    "claim.descriptionHint":
      "Ce que vous avez commandé, ce qui s’est passé et tout ce qui peut nous aider à le vérifier. {max} caractères au maximum.",
    "claim.amount": "Montant à rembourser (facultatif)",
    "claim.amountHint":
      "Par exemple {example}. Laissez vide pour demander la totalité du montant couvert restant ({remaining}).",
    "claim.evidence": "Photos ou documents (facultatif)",
    "claim.evidencePhotos": "Photos du problème (ajoutez-en au moins une)",
    "claim.photosAsked":
      "Pour un article endommagé, défectueux ou erroné, ajoutez au moins une photo qui montre le problème.",
    "claim.photosPlease": "Une photo qui montre le problème nous permet de le vérifier rapidement.",
    "claim.evidenceHint":
      "Jusqu’à {maxFiles, plural, one {# fichier} other {# fichiers}} de {maxSize} chacun : JPEG, PNG, WebP, HEIC ou PDF. Une demande contient au plus {perRequest} au total.",
    "claim.submit": "Envoyer la demande",
    "claim.reasonMissing": "Choisissez ce qui s’est passé.",
    "claim.occurredAtMissing": "Saisissez le jour où cela s’est produit.",
    "claim.descriptionMissing": "Décrivez le problème.",
    "claim.amountInvalid": "Saisissez le montant comme vous l’écririez, par exemple {example}.",
    "claim.created": "Votre demande a été envoyée. Nous vous écrirons lorsque son statut changera.",
    "claim.detailTitle": "Demande de remboursement",
    "claim.name": "Demande {number} sur {reference}",
    "claim.nameInline": "demande {number} sur {reference}",
    "claim.payoutPending": "Acceptée : {what}.",
    "claim.payoutPaidPrefix": "Payée : {what}, le",
    "claim.paidBy":
      "{remedy, select, replacement {{merchant} vous a envoyé l’article de remplacement.} other {{payer, select, shopify_refund {Le remboursement a été effectué sur le moyen de paiement utilisé pour la commande. Votre banque peut mettre {bankDays} jours ouvrés à l’afficher.} other {{merchant} vous a remboursé directement. Votre banque peut mettre {bankDays} jours ouvrés à l’afficher.}}}}",
    "claim.payoutTerms":
      "{payer, select, shopify_refund {{remedy, select, replacement {{merchant} passe automatiquement pour vous une commande de remplacement gratuite d’ici le {by} (dans {days, plural, one {le # jour ouvré} other {les # jours ouvrés}} suivant l’acceptation) et l’expédie comme toute commande.} other {Le remboursement est effectué automatiquement sur le moyen de paiement utilisé pour la commande, d’ici le {by} (dans {days, plural, one {le # jour ouvré} other {les # jours ouvrés}} suivant l’acceptation). Votre banque peut mettre {bankDays} jours ouvrés à l’afficher.}}} other {{remedy, select, replacement {{merchant} vous envoie l’article de remplacement d’ici le {by} (dans {days, plural, one {le # jour} other {les # jours}} suivant l’acceptation).} other {{merchant} vous rembourse directement d’ici le {by} (dans {days, plural, one {le # jour} other {les # jours}} suivant l’acceptation). Votre banque peut mettre {bankDays} jours ouvrés à l’afficher.}}}}",
    "claim.remedy":
      "{remedy, select, replacement {un remplacement d’une valeur de {amount}} other {un remboursement de {amount}}}",
    "claim.actionTitle": "Action requise",
    "claim.status": "Statut",
    "claim.statusValue":
      "{status, select, submitted {Reçue} under_review {En cours d’examen} needs_information {Informations demandées} approved {Acceptée} paid {Payée} denied {Refusée} other {{status}}}",
    "claim.reasonLabel": "Motif",
    "claim.amountLabel": "Montant demandé",
    "claim.occurredLabel": "Survenu le",
    "claim.filedLabel": "Envoyée le",
    "claim.decision": "Décision",
    "claim.decisionBasis": "Sur quoi repose la décision",
    "claim.yourDescription": "Ce que vous nous avez dit",
    "claim.timeline": "Historique",
    "claim.actor":
      "{actor, select, buyer {Vous} merchant {La boutique} claims_team {Équipe des demandes} service {Protection d’achat} other {{actor}}}",
    "claim.kind":
      "{kind, select, submitted {Demande envoyée} message {Message} status_changed {Statut modifié} other {{kind}}}",
    "claim.statusBecame": "Statut : {status}",
    "claim.evidenceTitle": "Fichiers",
    "claim.noEvidence": "Aucun fichier pour le moment.",
    "claim.download": "Télécharger {name}",
    "claim.addInfoTitle": "Ajouter des informations",
    "claim.addInfoIntro": "Envoyez un message ou d’autres fichiers pour cette demande.",
    "claim.message": "Votre message",
    "claim.messageMissing": "Écrivez un message.",
    "claim.addInfoSubmit": "Envoyer",
    "claim.added": "Merci. Vos informations ont été ajoutées à la demande.",
    "claim.closed": "Cette demande est close ; aucune information ne peut plus y être ajoutée.",
    "claim.back": "Retour à votre couverture",

    "terms.title": "Ce qui est couvert",
    "terms.intro":
      "Les mêmes règles pour chaque commande protégée par ce service. Il n’y a rien d’autre en petits caractères que cette page et la mention ci-dessous.",
    "terms.reasonsTitle": "Les motifs pour lesquels vous pouvez demander un remboursement",
    "terms.evidenceTitle": "Photos et documents",
    "terms.evidence":
      "À chaque envoi, vous pouvez ajouter jusqu’à {maxFiles, plural, one {# fichier} other {# fichiers}} de {maxSize} au plus chacun : JPEG, PNG, WebP, HEIC ou PDF. Les données de localisation des photos sont supprimées avant leur enregistrement. Seuls vous, la boutique et l’équipe des demandes pouvez les voir.",
    "terms.evidenceQuotas":
      "Au total, une demande contient au plus {claim}, l’ensemble des demandes d’un même achat {plan}, et une visite sur ce site (une connexion) peut en ajouter {session}.",
    "terms.decisionsTitle": "Comment les décisions sont prises",
    "terms.decisions":
      "Chaque demande est examinée. S’il nous faut davantage d’informations, nous vous les demandons par e-mail et vous répondez sur ce site. Chaque décision, acceptation ou refus, est motivée, et vous la voyez ici.",
    "terms.denialReasonsIntro":
      "Une demande n’est refusée que pour l’un de ces motifs publiés, avec la phrase que vous lirez :",
    "terms.payoutTitle": "Lorsqu’une demande est acceptée",
    "terms.payout":
      "Sur une boutique Shopify, le remboursement est effectué automatiquement sur le moyen de paiement utilisé (ou une commande de remplacement gratuite est passée) dans {shopifyDays, plural, one {le # jour ouvré} other {les # jours ouvrés}} suivant l’acceptation. Sur les autres boutiques, la boutique vous rembourse directement, ou envoie le remplacement, dans {merchantDays, plural, one {le # jour} other {les # jours}} suivant l’acceptation. Votre banque peut mettre {bankDays} jours ouvrés à afficher un remboursement.",
    "terms.disclosureTitle": "Mention légale",
    "terms.start": "Retrouver votre protection",

    quota: "{files, plural, one {# fichier} other {# fichiers}} et {size}",
    sizeMegabytes: "{size, number} Mo",
    sizeKilobytes: "{size, number} Ko",
    countdownHours: "{hours} h {minutes} min",
    countdownMinutes: "{minutes} min",

    genericError: "Un problème est survenu de notre côté. Veuillez réessayer dans un instant.",
    forbidden: "Ce formulaire a expiré. Rechargez la page et réessayez.",
    notFound: "Nous n’avons pas trouvé cette page.",
    signOutFailed: "Nous n’avons pas pu vous déconnecter. Réessayez dans un instant.",
    tooManySeconds: "Trop de tentatives. Veuillez patienter {seconds} secondes avant de réessayer.",
    tooManyMinutes: "Trop de tentatives. Veuillez patienter environ {minutes} minutes avant de réessayer.",

    "error.portal_lookup_failed":
      "Nous n’avons trouvé aucune protection pour cette adresse e-mail et ce numéro de référence ou de commande. Vérifiez les deux et réessayez.",
    "error.free_look_expired":
      "Les {hours} heures pour résilier sont écoulées : cette protection ne peut plus être résiliée.",
    "error.plan_not_active": "Cette protection n’est pas active (elle a été résiliée, ou annulée par la boutique).",
    "error.free_look_not_applicable":
      "La boutique a payé cette protection : il n’y a donc pas de frais à récupérer en la résiliant.",
    "error.reason_not_covered": "Choisissez l’un des motifs de la liste.",
    "error.claim_window_expired":
      "Le problème doit dater de moins de {days} jours ; pour un colis tel qu’il est arrivé, de moins de {days} jours après sa livraison.",
    "error.occurred_before_purchase": "La date ne peut pas être antérieure à votre achat.",
    "error.occurred_in_future": "La date ne peut pas être dans le futur.",
    "error.amount_exceeds_remaining": "Le montant dépasse ce qui est encore couvert.",
    "error.evidence_type_unsupported": "L’un des fichiers n’est pas un fichier JPEG, PNG, WebP, HEIC ou PDF.",
    "error.evidence_too_large": "L’un des fichiers dépasse {maxSize}.",
    "error.too_many_evidence_files": "Vous pouvez ajouter au plus {maxFiles} fichiers à la fois.",
    "error.evidence_quota_exceeded":
      "Cette demande contient déjà autant de fichiers que nous pouvons en recevoir. Décrivez le reste dans un message, ou contactez la boutique.",
    "error.claim_already_open":
      "Vous avez déjà une demande en cours pour ce motif. Ajoutez plutôt des informations à cette demande.",
    "error.request_too_large": "Les fichiers sont trop lourds ensemble. Envoyez-en moins à la fois.",
  },
  de: {
    siteName: "Kaufschutz",
    skipToContent: "Zum Hauptinhalt springen",
    signOut: "Abmelden",
    termsLink: "Regeln des Schutzes",
    planLink: "Ihr Schutz",
    footerNav: "Portal",
    footerNote: "Fragen zur Bestellung selbst? Wenden Sie sich an den Shop, in dem Sie gekauft haben.",
    protectedBy: "Ihre Bestellung bei {merchant}",
    language: "Sprache",
    languageSubmit: "Sprache ändern",

    "lookup.title": "Ihren Schutz finden",
    "lookup.intro":
      "Geben Sie die E-Mail-Adresse ein, die Sie für die Bestellung verwendet haben, und entweder die Referenznummer aus Ihrer Schutz-E-Mail oder die Bestellnummer des Shops.",
    "lookup.email": "E-Mail-Adresse",
    "lookup.emailHint": "Die Adresse, an die der Shop Ihre Bestellbestätigung geschickt hat.",
    "lookup.reference": "Referenznummer oder Bestellnummer",
    "lookup.referenceHint":
      "Die Referenznummer hat die Form CLM-JJJJ-XXXXXXXX, zum Beispiel CLM-2026-7K3M9Q2X: Sie steht in Ihrer Schutz-E-Mail. Oder die Bestellnummer aus der Bestätigung des Shops, zum Beispiel #1001.",
    "lookup.submit": "Weiter",
    "lookup.emailMissing": "Geben Sie die E-Mail-Adresse ein, die Sie für die Bestellung verwendet haben.",
    "lookup.referenceMissing":
      "Geben Sie die Referenznummer aus Ihrer Schutz-E-Mail oder die Bestellnummer des Shops ein.",
    "lookup.signedOut": "Sie sind abgemeldet.",
    "lookup.sessionExpired": "Ihre Sitzung ist beendet. Suchen Sie Ihren Schutz erneut, um fortzufahren.",
    "lookup.linkFailed":
      "Dieser Link ist abgelaufen oder ungültig. Suchen Sie Ihren Schutz mit Ihrer E-Mail-Adresse und der Referenz- oder Bestellnummer.",

    "coverageLink.title": "Ihren Schutz öffnen",
    "coverageLink.intro":
      "Dieser Link öffnet den Schutz Ihrer Bestellung mit der Referenznummer {reference}. Fahren Sie fort, um Ihren Schutz zu sehen und einen Antrag zu stellen.",
    "coverageLink.submit": "Meinen Schutz öffnen",

    "plan.title": "Ihr Schutz",
    "plan.reference": "Referenznummer",
    "plan.order": "Bestellung",
    "plan.actionTitle": "Handlung erforderlich",
    "plan.actionIntro":
      "Wir brauchen weitere Informationen, um über diesen Antrag zu entscheiden. Antworten Sie auf seiner Seite:",
    "plan.actionAnswer": "Die Frage zu {claim} beantworten",
    "plan.question": "Unsere Frage",
    "plan.status": "Status",
    "plan.statusValue":
      "{status, select, active {Aktiv} voided {Vom Shop aufgehoben} cancelled {Gekündigt} other {{status}}}",
    "plan.fee": "Schutzgebühr",
    "plan.covered": "Gedeckter Betrag",
    "plan.remaining": "Noch verfügbar",
    "plan.purchased": "Geschützt seit",
    "plan.deliveredOn": "Der Versanddienstleister hat Ihre Bestellung zugestellt am",
    "plan.deliveryClaimsUntil":
      "Bei einem Paket, das beschädigt, defekt, falsch oder unvollständig ankam oder nach der Zustellung gestohlen wurde, {days, plural, one {zählt der # Tag} other {zählen die # Tage}} ab der Zustellung: Sie können einen Antrag stellen bis",
    "plan.reasonsTitle": "Was abgedeckt ist",
    "plan.reasonsIntro": "Sie können aus jedem dieser Gründe eine Erstattung beantragen:",
    "plan.reasonsIntroEnded": "Solange er aktiv war, deckte dieser Schutz diese Gründe ab:",
    "plan.fullTerms": "Alle Regeln lesen",
    "plan.freeLookTitle": "Haben Sie es sich anders überlegt?",
    "plan.freeLookOpen": "Sie können diesen Schutz kündigen und die Gebühr zurückerhalten bis",
    "plan.freeLookRemaining": "Verbleibende Zeit:",
    "plan.freeLookClosed":
      "Die Frist von {hours} Stunden, um zu kündigen und die Gebühr zurückzuerhalten, ist abgelaufen.",
    "plan.freeLookHasClaims":
      "Zu diesem Schutz gibt es einen offenen, genehmigten oder ausgezahlten Antrag; er kann daher nicht mehr gegen Erstattung der Gebühr gekündigt werden.",
    "plan.freeLookVoided": "Der Shop hat diesen Schutz aufgehoben; es gibt daher nichts zu kündigen.",
    "plan.freeLookMerchantPaid":
      "{store} hat diesen Schutz bezahlt; Sie haben nichts dafür bezahlt, und es gibt nichts zu kündigen oder zu erstatten.",
    "plan.cancelButton": "Schutz kündigen",
    "plan.cancelledOn": "Sie haben diesen Schutz gekündigt am",
    "plan.refundPending": "Ihre Gebühr von {amount} wird erstattet. Status der Erstattung: ausstehend.",
    "plan.refundDone": "Ihre Gebühr von {amount} wurde erstattet am",
    "plan.claimsTitle": "Ihre Erstattungsanträge",
    "plan.noClaims": "Sie haben noch keine Erstattung beantragt.",
    "plan.newClaim": "Problem melden",
    "plan.viewClaim": "{claim} ansehen",
    "plan.filedOn": "gesendet am {date}",
    "plan.decisionReason": "Grund der Entscheidung:",
    "plan.notActive": "Dieser Schutz ist nicht aktiv; es können keine neuen Anträge gestellt werden.",

    "cancel.title": "Ihren Schutz kündigen",
    "cancel.explain":
      "Wenn Sie kündigen, ist Ihre Bestellung nicht mehr geschützt, und Sie können unter diesem Schutz keine Erstattung mehr beantragen. Die Gebühr von {fee} wird Ihnen erstattet.",
    "cancel.confirm": "Ich verstehe, dass meine Bestellung nicht mehr geschützt sein wird.",
    "cancel.confirmMissing": "Setzen Sie das Häkchen, um zu bestätigen, dass Sie kündigen möchten.",
    "cancel.submit": "Ja, Schutz kündigen",
    "cancel.back": "Meinen Schutz behalten",
    "cancel.done": "Ihr Schutz ist gekündigt. Die Gebühr wird erstattet.",

    "claim.newTitle": "Problem melden",
    "claim.newIntro":
      "Sagen Sie uns, was schiefgelaufen ist. Wir beantworten jeden Antrag, und jede Entscheidung wird begründet.",
    "claim.reason": "Was ist passiert?",
    "claim.reasonChoose": "Grund auswählen",
    "claim.occurredAt": "Wann ist es passiert?",
    "claim.occurredAtHint":
      "Der Tag, an dem Sie das Problem bemerkt haben. Er muss innerhalb der letzten {days} Tage liegen; bei einem Paket, wie es angekommen ist, innerhalb von {days} Tagen nach der Zustellung.",
    "claim.description": "Beschreiben Sie das Problem",
    "claim.descriptionHint":
      "Was Sie bestellt haben, was passiert ist und alles, was uns bei der Prüfung hilft. Höchstens {max} Zeichen.",
    "claim.amount": "Zu erstattender Betrag (optional)",
    "claim.amountHint":
      "Zum Beispiel {example}. Lassen Sie das Feld leer, um den gesamten verbleibenden gedeckten Betrag zu beantragen ({remaining}).",
    "claim.evidence": "Fotos oder Dokumente (optional)",
    "claim.evidencePhotos": "Fotos des Problems (bitte mindestens eines)",
    "claim.photosAsked":
      "Fügen Sie bei einem beschädigten, defekten oder falschen Artikel mindestens ein Foto hinzu, das das Problem zeigt.",
    "claim.photosPlease": "Mit einem Foto, das das Problem zeigt, können wir es schnell prüfen.",
    "claim.evidenceHint":
      "Bis zu {maxFiles, plural, one {# Datei} other {# Dateien}} mit je {maxSize}: JPEG, PNG, WebP, HEIC oder PDF. Ein Antrag enthält insgesamt höchstens {perRequest}.",
    "claim.submit": "Antrag senden",
    "claim.reasonMissing": "Wählen Sie aus, was passiert ist.",
    "claim.occurredAtMissing": "Geben Sie den Tag ein, an dem es passiert ist.",
    "claim.descriptionMissing": "Beschreiben Sie das Problem.",
    "claim.amountInvalid": "Geben Sie den Betrag so ein, wie Sie ihn schreiben würden, zum Beispiel {example}.",
    "claim.created": "Ihr Antrag wurde gesendet. Wir schreiben Ihnen eine E-Mail, sobald sich sein Status ändert.",
    "claim.detailTitle": "Erstattungsantrag",
    "claim.name": "Antrag {number} zu {reference}",
    "claim.nameInline": "Antrag {number} zu {reference}",
    "claim.payoutPending": "Genehmigt: {what}.",
    "claim.payoutPaidPrefix": "Ausgezahlt: {what}, am",
    "claim.paidBy":
      "{remedy, select, replacement {{merchant} hat Ihnen den Ersatz geschickt.} other {{payer, select, shopify_refund {Die Erstattung ging an das Zahlungsmittel zurück, mit dem Sie die Bestellung bezahlt haben. Ihre Bank kann {bankDays} Werktage brauchen, bis sie angezeigt wird.} other {{merchant} hat Ihnen den Betrag direkt erstattet. Ihre Bank kann {bankDays} Werktage brauchen, bis er angezeigt wird.}}}}",
    "claim.payoutTerms":
      "{payer, select, shopify_refund {{remedy, select, replacement {{merchant} gibt bis zum {by} (innerhalb von {days, plural, one {# Werktag} other {# Werktagen}} nach der Genehmigung) automatisch eine kostenlose Ersatzbestellung für Sie auf und versendet sie wie jede Bestellung.} other {Die Erstattung geht bis zum {by} (innerhalb von {days, plural, one {# Werktag} other {# Werktagen}} nach der Genehmigung) automatisch an das Zahlungsmittel zurück, mit dem Sie die Bestellung bezahlt haben. Ihre Bank kann {bankDays} Werktage brauchen, bis sie angezeigt wird.}}} other {{remedy, select, replacement {{merchant} schickt Ihnen den Ersatz bis zum {by} (innerhalb von {days, plural, one {# Tag} other {# Tagen}} nach der Genehmigung).} other {{merchant} erstattet Ihnen den Betrag bis zum {by} direkt (innerhalb von {days, plural, one {# Tag} other {# Tagen}} nach der Genehmigung). Ihre Bank kann {bankDays} Werktage brauchen, bis er angezeigt wird.}}}}",
    "claim.remedy":
      "{remedy, select, replacement {ein Ersatz im Wert von {amount}} other {eine Erstattung von {amount}}}",
    "claim.actionTitle": "Handlung erforderlich",
    "claim.status": "Status",
    "claim.statusValue":
      "{status, select, submitted {Eingegangen} under_review {In Prüfung} needs_information {Wir brauchen weitere Informationen} approved {Genehmigt} paid {Ausgezahlt} denied {Abgelehnt} other {{status}}}",
    "claim.reasonLabel": "Grund",
    "claim.amountLabel": "Beantragter Betrag",
    "claim.occurredLabel": "Passiert am",
    "claim.filedLabel": "Gesendet am",
    "claim.decision": "Entscheidung",
    "claim.decisionBasis": "Worauf die Entscheidung beruht",
    "claim.yourDescription": "Was Sie uns mitgeteilt haben",
    "claim.timeline": "Verlauf",
    "claim.actor":
      "{actor, select, buyer {Sie} merchant {Der Shop} claims_team {Schadenteam} service {Kaufschutz} other {{actor}}}",
    "claim.kind":
      "{kind, select, submitted {Antrag gesendet} message {Nachricht} status_changed {Status geändert} other {{kind}}}",
    "claim.statusBecame": "Status: {status}",
    "claim.evidenceTitle": "Dateien",
    "claim.noEvidence": "Noch keine Dateien.",
    "claim.download": "{name} herunterladen",
    "claim.addInfoTitle": "Informationen hinzufügen",
    "claim.addInfoIntro": "Senden Sie eine Nachricht oder weitere Dateien zu diesem Antrag.",
    "claim.message": "Ihre Nachricht",
    "claim.messageMissing": "Schreiben Sie eine Nachricht.",
    "claim.addInfoSubmit": "Senden",
    "claim.added": "Vielen Dank. Ihre Informationen wurden dem Antrag hinzugefügt.",
    "claim.closed": "Dieser Antrag ist abgeschlossen; es können keine weiteren Informationen hinzugefügt werden.",
    "claim.back": "Zurück zu Ihrem Schutz",

    "terms.title": "Was abgedeckt ist",
    "terms.intro":
      "Ein Regelwerk für jede Bestellung, die durch diesen Dienst geschützt ist. Es gibt kein Kleingedrucktes außer dieser Seite und dem Hinweis unten.",
    "terms.reasonsTitle": "Die Gründe, aus denen Sie eine Erstattung beantragen können",
    "terms.evidenceTitle": "Fotos und Dokumente",
    "terms.evidence":
      "Jedes Mal, wenn Sie uns schreiben, können Sie bis zu {maxFiles, plural, one {# Datei} other {# Dateien}} mit je höchstens {maxSize} anhängen: JPEG, PNG, WebP, HEIC oder PDF. Standortdaten in Fotos werden vor dem Speichern entfernt. Nur Sie, der Shop und das Schadenteam können sie sehen.",
    "terms.evidenceQuotas":
      "Insgesamt enthält ein Antrag höchstens {claim}, alle Anträge zu einem Kauf zusammen {plan}, und bei einem Besuch dieser Seite (einer Anmeldung) können Sie {session} hinzufügen.",
    "terms.decisionsTitle": "Wie entschieden wird",
    "terms.decisions":
      "Jeder Antrag wird geprüft. Wenn wir weitere Informationen brauchen, fragen wir Sie per E-Mail, und Sie antworten auf dieser Seite. Jede Entscheidung – Genehmigung oder Ablehnung – wird begründet, und Sie sehen sie hier.",
    "terms.denialReasonsIntro":
      "Ein Antrag wird nur aus einem dieser veröffentlichten Gründe abgelehnt, mit dem Satz, den Sie lesen werden:",
    "terms.payoutTitle": "Wenn ein Antrag genehmigt wird",
    "terms.payout":
      "In einem Shopify-Shop geht die Erstattung innerhalb von {shopifyDays, plural, one {# Werktag} other {# Werktagen}} nach der Genehmigung automatisch an das verwendete Zahlungsmittel zurück (oder es wird eine kostenlose Ersatzbestellung aufgegeben). In anderen Shops erstattet Ihnen der Shop den Betrag direkt oder schickt den Ersatz, innerhalb von {merchantDays, plural, one {# Tag} other {# Tagen}} nach der Genehmigung. Ihre Bank kann {bankDays} Werktage brauchen, bis eine Erstattung angezeigt wird.",
    "terms.disclosureTitle": "Hinweis",
    "terms.start": "Ihren Schutz finden",

    quota: "{files, plural, one {# Datei} other {# Dateien}} und {size}",
    sizeMegabytes: "{size, number} MB",
    sizeKilobytes: "{size, number} KB",
    countdownHours: "{hours} Std. {minutes} Min.",
    countdownMinutes: "{minutes} Min.",

    genericError: "Bei uns ist ein Fehler aufgetreten. Bitte versuchen Sie es gleich noch einmal.",
    forbidden: "Dieses Formular ist abgelaufen. Laden Sie die Seite neu und versuchen Sie es noch einmal.",
    notFound: "Wir konnten diese Seite nicht finden.",
    signOutFailed: "Wir konnten Sie nicht abmelden. Versuchen Sie es gleich noch einmal.",
    tooManySeconds: "Zu viele Versuche. Bitte warten Sie {seconds} Sekunden und versuchen Sie es dann erneut.",
    tooManyMinutes: "Zu viele Versuche. Bitte warten Sie etwa {minutes} Minuten und versuchen Sie es dann erneut.",

    "error.portal_lookup_failed":
      "Wir haben keinen Schutz zu dieser E-Mail-Adresse und dieser Referenz- oder Bestellnummer gefunden. Prüfen Sie beide Angaben und versuchen Sie es erneut.",
    "error.free_look_expired":
      "Die {hours} Stunden für eine Kündigung sind vorbei; dieser Schutz kann nicht mehr gekündigt werden.",
    "error.plan_not_active": "Dieser Schutz ist nicht aktiv (er wurde gekündigt oder vom Shop aufgehoben).",
    "error.free_look_not_applicable":
      "Der Shop hat diesen Schutz bezahlt; es gibt daher keine Gebühr, die bei einer Kündigung erstattet würde.",
    "error.reason_not_covered": "Wählen Sie einen der Gründe aus der Liste.",
    "error.claim_window_expired":
      "Das Problem muss innerhalb der letzten {days} Tage aufgetreten sein; bei einem Paket, wie es angekommen ist, innerhalb von {days} Tagen nach der Zustellung.",
    "error.occurred_before_purchase": "Das Datum darf nicht vor Ihrem Kauf liegen.",
    "error.occurred_in_future": "Das Datum darf nicht in der Zukunft liegen.",
    "error.amount_exceeds_remaining": "Der Betrag ist höher als das, was noch gedeckt ist.",
    "error.evidence_type_unsupported": "Eine der Dateien ist keine JPEG-, PNG-, WebP-, HEIC- oder PDF-Datei.",
    "error.evidence_too_large": "Eine der Dateien ist größer als {maxSize}.",
    "error.too_many_evidence_files": "Sie können höchstens {maxFiles} Dateien auf einmal hinzufügen.",
    "error.evidence_quota_exceeded":
      "Dieser Antrag enthält bereits so viele Dateien, wie wir annehmen können. Beschreiben Sie den Rest in einer Nachricht oder wenden Sie sich an den Shop.",
    "error.claim_already_open":
      "Sie haben aus diesem Grund bereits einen offenen Antrag. Fügen Sie stattdessen diesem Antrag Informationen hinzu.",
    "error.request_too_large": "Die Dateien sind zusammen zu groß. Senden Sie weniger Dateien auf einmal.",
  },
  es: {
    siteName: "Protección de compra",
    skipToContent: "Ir al contenido principal",
    signOut: "Cerrar sesión",
    termsLink: "Reglas de la protección",
    planLink: "Su cobertura",
    footerNav: "Portal",
    footerNote: "¿Preguntas sobre el pedido en sí? Póngase en contacto con la tienda donde compró.",
    protectedBy: "Su pedido en {merchant}",
    language: "Idioma",
    languageSubmit: "Cambiar idioma",

    "lookup.title": "Encontrar su protección",
    "lookup.intro":
      "Introduzca la dirección de correo electrónico que usó para el pedido y el número de referencia de su correo de protección o el número de pedido de la tienda.",
    "lookup.email": "Correo electrónico",
    "lookup.emailHint": "La dirección a la que la tienda envió la confirmación de su pedido.",
    "lookup.reference": "Número de referencia o número de pedido",
    "lookup.referenceHint":
      "El número de referencia tiene la forma CLM-AAAA-XXXXXXXX, por ejemplo CLM-2026-7K3M9Q2X: figura en su correo de protección. O el número de pedido de la confirmación de la tienda, por ejemplo #1001.",
    "lookup.submit": "Continuar",
    "lookup.emailMissing": "Introduzca la dirección de correo electrónico que usó para el pedido.",
    "lookup.referenceMissing":
      "Introduzca el número de referencia de su correo de protección o el número de pedido de la tienda.",
    "lookup.signedOut": "Ha cerrado la sesión.",
    "lookup.sessionExpired": "Su sesión ha terminado. Vuelva a buscar su protección para continuar.",
    "lookup.linkFailed":
      "Este enlace ha caducado o no es válido. Busque su protección con su correo electrónico y el número de referencia o de pedido.",

    "coverageLink.title": "Abrir su cobertura",
    "coverageLink.intro":
      "Este enlace abre la protección de su pedido, con número de referencia {reference}. Continúe para ver su cobertura y presentar una solicitud.",
    "coverageLink.submit": "Abrir mi cobertura",

    "plan.title": "Su cobertura",
    "plan.reference": "Número de referencia",
    "plan.order": "Pedido",
    "plan.actionTitle": "Acción necesaria",
    "plan.actionIntro": "Necesitamos más información para resolver esta solicitud. Responda en su página:",
    "plan.actionAnswer": "Responder a la pregunta sobre la {claim}",
    "plan.question": "Nuestra pregunta",
    "plan.status": "Estado",
    "plan.statusValue":
      "{status, select, active {Activa} voided {Anulada por la tienda} cancelled {Cancelada} other {{status}}}",
    "plan.fee": "Tarifa de protección",
    "plan.covered": "Importe cubierto",
    "plan.remaining": "Aún disponible",
    "plan.purchased": "Protegido desde",
    "plan.deliveredOn": "El transportista entregó su pedido el",
    "plan.deliveryClaimsUntil":
      "Para un paquete que llegó dañado, defectuoso, equivocado o incompleto, o que fue robado después de la entrega, {days, plural, one {el # día se cuenta} other {los # días se cuentan}} desde la entrega: puede presentar una solicitud hasta el",
    "plan.reasonsTitle": "Qué está cubierto",
    "plan.reasonsIntro": "Puede solicitar un reembolso por cualquiera de estos motivos:",
    "plan.reasonsIntroEnded": "Mientras estuvo activa, esta protección cubría estos motivos:",
    "plan.fullTerms": "Leer todas las reglas",
    "plan.freeLookTitle": "¿Ha cambiado de opinión?",
    "plan.freeLookOpen": "Puede cancelar esta protección y recuperar la tarifa hasta el",
    "plan.freeLookRemaining": "Tiempo restante:",
    "plan.freeLookClosed": "El plazo de {hours} horas para cancelar y recuperar la tarifa ha terminado.",
    "plan.freeLookHasClaims":
      "Esta protección tiene una solicitud abierta, aprobada o pagada, por lo que ya no puede cancelarse con reembolso de la tarifa.",
    "plan.freeLookVoided": "La tienda anuló esta protección, así que no hay nada que cancelar.",
    "plan.freeLookMerchantPaid":
      "{store} pagó esta protección: usted no pagó nada por ella y no hay nada que cancelar ni reembolsar.",
    "plan.cancelButton": "Cancelar la protección",
    "plan.cancelledOn": "Usted canceló esta protección el",
    "plan.refundPending": "Se le reembolsará su tarifa de {amount}. Estado del reembolso: pendiente.",
    "plan.refundDone": "Su tarifa de {amount} se le reembolsó el",
    "plan.claimsTitle": "Sus solicitudes de reembolso",
    "plan.noClaims": "Todavía no ha solicitado ningún reembolso.",
    "plan.newClaim": "Comunicar un problema",
    "plan.viewClaim": "Ver la {claim}",
    "plan.filedOn": "enviada el {date}",
    "plan.decisionReason": "Motivo de la decisión:",
    "plan.notActive": "Esta protección no está activa, así que no se pueden presentar nuevas solicitudes.",

    "cancel.title": "Cancelar su protección",
    "cancel.explain":
      "Si cancela, su pedido deja de estar protegido y no podrá solicitar ningún reembolso con esta protección. Se le reembolsa la tarifa de {fee}.",
    "cancel.confirm": "Entiendo que mi pedido dejará de estar protegido.",
    "cancel.confirmMissing": "Marque la casilla para confirmar que desea cancelar.",
    "cancel.submit": "Sí, cancelar la protección",
    "cancel.back": "Mantener mi protección",
    "cancel.done": "Su protección está cancelada. Se le reembolsará la tarifa.",

    "claim.newTitle": "Comunicar un problema",
    "claim.newIntro":
      "Cuéntenos qué salió mal. Respondemos a todas las solicitudes, y cada decisión va acompañada de su motivo.",
    "claim.reason": "¿Qué ocurrió?",
    "claim.reasonChoose": "Elija un motivo",
    "claim.occurredAt": "¿Cuándo ocurrió?",
    "claim.occurredAtHint":
      "El día en que notó el problema. Debe estar dentro de los últimos {days} días; para un paquete tal como llegó, dentro de los {days} días siguientes a su entrega.",
    "claim.description": "Describa el problema",
    "claim.descriptionHint":
      "Qué pidió, qué ocurrió y cualquier cosa que nos ayude a comprobarlo. Hasta {max} caracteres.",
    "claim.amount": "Importe a reembolsar (opcional)",
    "claim.amountHint":
      "Por ejemplo {example}. Déjelo vacío para solicitar todo el importe cubierto restante ({remaining}).",
    "claim.evidence": "Fotos o documentos (opcional)",
    "claim.evidencePhotos": "Fotos del problema (añada al menos una)",
    "claim.photosAsked":
      "Para un artículo dañado, defectuoso o equivocado, añada al menos una foto que muestre el problema.",
    "claim.photosPlease": "Una foto que muestre el problema nos permite comprobarlo rápidamente.",
    "claim.evidenceHint":
      "Hasta {maxFiles, plural, one {# archivo} other {# archivos}} de {maxSize} cada uno: JPEG, PNG, WebP, HEIC o PDF. Una solicitud admite como máximo {perRequest} en total.",
    "claim.submit": "Enviar solicitud",
    "claim.reasonMissing": "Elija qué ocurrió.",
    "claim.occurredAtMissing": "Introduzca el día en que ocurrió.",
    "claim.descriptionMissing": "Describa el problema.",
    "claim.amountInvalid": "Introduzca el importe como lo escribiría, por ejemplo {example}.",
    "claim.created": "Su solicitud se ha enviado. Le escribiremos cuando cambie su estado.",
    "claim.detailTitle": "Solicitud de reembolso",
    "claim.name": "Solicitud {number} de {reference}",
    "claim.nameInline": "solicitud {number} de {reference}",
    "claim.payoutPending": "Aprobada: {what}.",
    "claim.payoutPaidPrefix": "Pagada: {what}, el",
    "claim.paidBy":
      "{remedy, select, replacement {{merchant} le envió el artículo de sustitución.} other {{payer, select, shopify_refund {El reembolso se abonó en el medio de pago que usó para el pedido. Su banco puede tardar {bankDays} días hábiles en mostrarlo.} other {{merchant} le reembolsó directamente. Su banco puede tardar {bankDays} días hábiles en mostrarlo.}}}}",
    "claim.payoutTerms":
      "{payer, select, shopify_refund {{remedy, select, replacement {{merchant} realiza automáticamente para usted un pedido de sustitución gratuito a más tardar el {by} (en {days, plural, one {el # día hábil} other {los # días hábiles}} siguientes a la aprobación) y lo envía como cualquier pedido.} other {El reembolso se abona automáticamente en el medio de pago que usó para el pedido, a más tardar el {by} (en {days, plural, one {el # día hábil} other {los # días hábiles}} siguientes a la aprobación). Su banco puede tardar {bankDays} días hábiles en mostrarlo.}}} other {{remedy, select, replacement {{merchant} le envía el artículo de sustitución a más tardar el {by} (en {days, plural, one {el # día} other {los # días}} siguientes a la aprobación).} other {{merchant} le reembolsa directamente a más tardar el {by} (en {days, plural, one {el # día} other {los # días}} siguientes a la aprobación). Su banco puede tardar {bankDays} días hábiles en mostrarlo.}}}}",
    "claim.remedy":
      "{remedy, select, replacement {una sustitución por valor de {amount}} other {un reembolso de {amount}}}",
    "claim.actionTitle": "Acción necesaria",
    "claim.status": "Estado",
    "claim.statusValue":
      "{status, select, submitted {Recibida} under_review {En revisión} needs_information {Necesitamos más información} approved {Aprobada} paid {Pagada} denied {Rechazada} other {{status}}}",
    "claim.reasonLabel": "Motivo",
    "claim.amountLabel": "Importe solicitado",
    "claim.occurredLabel": "Ocurrió el",
    "claim.filedLabel": "Enviada el",
    "claim.decision": "Decisión",
    "claim.decisionBasis": "En qué se basa la decisión",
    "claim.yourDescription": "Lo que nos contó",
    "claim.timeline": "Historial",
    "claim.actor":
      "{actor, select, buyer {Usted} merchant {La tienda} claims_team {Equipo de reclamaciones} service {Protección de compra} other {{actor}}}",
    "claim.kind":
      "{kind, select, submitted {Solicitud enviada} message {Mensaje} status_changed {Cambio de estado} other {{kind}}}",
    "claim.statusBecame": "Estado: {status}",
    "claim.evidenceTitle": "Archivos",
    "claim.noEvidence": "Todavía no hay archivos.",
    "claim.download": "Descargar {name}",
    "claim.addInfoTitle": "Añadir información",
    "claim.addInfoIntro": "Envíe un mensaje o más archivos para esta solicitud.",
    "claim.message": "Su mensaje",
    "claim.messageMissing": "Escriba un mensaje.",
    "claim.addInfoSubmit": "Enviar",
    "claim.added": "Gracias. Su información se ha añadido a la solicitud.",
    "claim.closed": "Esta solicitud está cerrada; ya no se puede añadir más información.",
    "claim.back": "Volver a su cobertura",

    "terms.title": "Qué está cubierto",
    "terms.intro":
      "Las mismas reglas para todos los pedidos protegidos por este servicio. No hay letra pequeña aparte de esta página y del aviso que figura abajo.",
    "terms.reasonsTitle": "Los motivos por los que puede solicitar un reembolso",
    "terms.evidenceTitle": "Fotos y documentos",
    "terms.evidence":
      "Cada vez que nos escribe puede adjuntar hasta {maxFiles, plural, one {# archivo} other {# archivos}} de {maxSize} como máximo cada uno: JPEG, PNG, WebP, HEIC o PDF. Los datos de ubicación de las fotos se eliminan antes de guardarlas. Solo usted, la tienda y el equipo de reclamaciones pueden verlas.",
    "terms.evidenceQuotas":
      "En total, una solicitud admite como máximo {claim}, todas las solicitudes de una misma compra juntas {plan}, y en una visita a este sitio (un inicio de sesión) se pueden añadir {session}.",
    "terms.decisionsTitle": "Cómo se decide",
    "terms.decisions":
      "Se revisan todas las solicitudes. Si necesitamos más información, se la pedimos por correo electrónico y usted responde en este sitio. Cada decisión, de aprobación o de rechazo, va acompañada de su motivo, y la verá aquí.",
    "terms.denialReasonsIntro":
      "Una solicitud solo se rechaza por uno de estos motivos publicados, con la frase que usted leerá:",
    "terms.payoutTitle": "Cuando se aprueba una solicitud",
    "terms.payout":
      "En una tienda Shopify, el reembolso se abona automáticamente en el medio de pago que usó (o se realiza un pedido de sustitución gratuito) en {shopifyDays, plural, one {el # día hábil} other {los # días hábiles}} siguientes a la aprobación. En otras tiendas, la tienda le reembolsa directamente, o le envía la sustitución, en {merchantDays, plural, one {el # día} other {los # días}} siguientes a la aprobación. Su banco puede tardar {bankDays} días hábiles en mostrar un reembolso.",
    "terms.disclosureTitle": "Aviso",
    "terms.start": "Buscar su protección",

    quota: "{files, plural, one {# archivo} other {# archivos}} y {size}",
    sizeMegabytes: "{size, number} MB",
    sizeKilobytes: "{size, number} KB",
    countdownHours: "{hours} h {minutes} min",
    countdownMinutes: "{minutes} min",

    genericError: "Algo ha fallado por nuestra parte. Vuelva a intentarlo en un momento.",
    forbidden: "Este formulario ha caducado. Vuelva a cargar la página e inténtelo de nuevo.",
    notFound: "No hemos encontrado esa página.",
    signOutFailed: "No hemos podido cerrar su sesión. Inténtelo de nuevo en un momento.",
    tooManySeconds: "Demasiados intentos. Espere {seconds} segundos y vuelva a intentarlo.",
    tooManyMinutes: "Demasiados intentos. Espere unos {minutes} minutos y vuelva a intentarlo.",

    "error.portal_lookup_failed":
      "No hemos encontrado ninguna protección para ese correo electrónico y ese número de referencia o de pedido. Compruebe ambos e inténtelo de nuevo.",
    "error.free_look_expired":
      "Han pasado las {hours} horas para cancelar, así que esta protección ya no puede cancelarse.",
    "error.plan_not_active": "Esta protección no está activa (se canceló o la anuló la tienda).",
    "error.free_look_not_applicable":
      "La tienda pagó esta protección, así que no hay ninguna tarifa que recuperar al cancelarla.",
    "error.reason_not_covered": "Elija uno de los motivos de la lista.",
    "error.claim_window_expired":
      "El problema debe haber ocurrido en los últimos {days} días; para un paquete tal como llegó, en los {days} días siguientes a su entrega.",
    "error.occurred_before_purchase": "La fecha no puede ser anterior a su compra.",
    "error.occurred_in_future": "La fecha no puede ser futura.",
    "error.amount_exceeds_remaining": "El importe supera lo que todavía está cubierto.",
    "error.evidence_type_unsupported": "Uno de los archivos no es un archivo JPEG, PNG, WebP, HEIC o PDF.",
    "error.evidence_too_large": "Uno de los archivos ocupa más de {maxSize}.",
    "error.too_many_evidence_files": "Puede añadir como máximo {maxFiles} archivos cada vez.",
    "error.evidence_quota_exceeded":
      "Esta solicitud ya contiene todos los archivos que podemos admitir. Describa el resto en un mensaje o póngase en contacto con la tienda.",
    "error.claim_already_open": "Ya tiene una solicitud abierta por este motivo. Añada la información a esa solicitud.",
    "error.request_too_large": "Los archivos ocupan demasiado en conjunto. Envíe menos archivos cada vez.",
  },
  nl: {
    siteName: "Aankoopbescherming",
    skipToContent: "Naar de hoofdinhoud",
    signOut: "Afmelden",
    termsLink: "Regels van de bescherming",
    planLink: "Uw dekking",
    footerNav: "Portaal",
    footerNote: "Vragen over de bestelling zelf? Neem contact op met de winkel waar u hebt gekocht.",
    protectedBy: "Uw bestelling bij {merchant}",
    language: "Taal",
    languageSubmit: "Taal wijzigen",

    "lookup.title": "Uw bescherming opzoeken",
    "lookup.intro":
      "Vul het e-mailadres in dat u voor de bestelling hebt gebruikt, en het referentienummer uit uw beschermingsmail of het bestelnummer van de winkel.",
    "lookup.email": "E-mailadres",
    "lookup.emailHint": "Het adres waarnaar de winkel uw orderbevestiging heeft gestuurd.",
    "lookup.reference": "Referentienummer of bestelnummer",
    "lookup.referenceHint":
      "Het referentienummer heeft de vorm CLM-JJJJ-XXXXXXXX, bijvoorbeeld CLM-2026-7K3M9Q2X: het staat in uw beschermingsmail. Of het bestelnummer uit de bevestiging van de winkel, bijvoorbeeld #1001.",
    "lookup.submit": "Doorgaan",
    "lookup.emailMissing": "Vul het e-mailadres in dat u voor de bestelling hebt gebruikt.",
    "lookup.referenceMissing": "Vul het referentienummer uit uw beschermingsmail of het bestelnummer van de winkel in.",
    "lookup.signedOut": "U bent afgemeld.",
    "lookup.sessionExpired": "Uw sessie is beëindigd. Zoek uw bescherming opnieuw op om verder te gaan.",
    "lookup.linkFailed":
      "Deze link is verlopen of ongeldig. Zoek uw bescherming op met uw e-mailadres en referentie- of bestelnummer.",

    "coverageLink.title": "Uw dekking openen",
    "coverageLink.intro":
      "Deze link opent de bescherming van uw bestelling, referentienummer {reference}. Ga verder om uw dekking te zien en een verzoek in te dienen.",
    "coverageLink.submit": "Mijn dekking openen",

    "plan.title": "Uw dekking",
    "plan.reference": "Referentienummer",
    "plan.order": "Bestelling",
    "plan.actionTitle": "Actie nodig",
    "plan.actionIntro":
      "We hebben meer informatie nodig om over dit verzoek te beslissen. Antwoord op de pagina ervan:",
    "plan.actionAnswer": "De vraag over {claim} beantwoorden",
    "plan.question": "Onze vraag",
    "plan.status": "Status",
    "plan.statusValue":
      "{status, select, active {Actief} voided {Vervallen verklaard door de winkel} cancelled {Opgezegd} other {{status}}}",
    "plan.fee": "Beschermingsvergoeding",
    "plan.covered": "Gedekt bedrag",
    "plan.remaining": "Nog beschikbaar",
    "plan.purchased": "Beschermd sinds",
    "plan.deliveredOn": "De vervoerder heeft uw bestelling bezorgd op",
    "plan.deliveryClaimsUntil":
      "Voor een pakket dat beschadigd, defect, verkeerd of onvolledig aankwam, of na bezorging werd gestolen, {days, plural, one {telt de # dag} other {tellen de # dagen}} vanaf de bezorging: u kunt een verzoek indienen tot",
    "plan.reasonsTitle": "Wat is gedekt",
    "plan.reasonsIntro": "U kunt om een terugbetaling vragen om elk van deze redenen:",
    "plan.reasonsIntroEnded": "Zolang deze bescherming actief was, dekte ze deze redenen:",
    "plan.fullTerms": "Alle regels lezen",
    "plan.freeLookTitle": "Van gedachten veranderd?",
    "plan.freeLookOpen": "U kunt deze bescherming opzeggen en de vergoeding terugkrijgen tot",
    "plan.freeLookRemaining": "Resterende tijd:",
    "plan.freeLookClosed": "De termijn van {hours} uur om op te zeggen en de vergoeding terug te krijgen is voorbij.",
    "plan.freeLookHasClaims":
      "Voor deze bescherming loopt een verzoek dat open, goedgekeurd of uitbetaald is, dus kan ze niet meer worden opgezegd met terugbetaling van de vergoeding.",
    "plan.freeLookVoided": "De winkel heeft deze bescherming vervallen verklaard, dus er is niets op te zeggen.",
    "plan.freeLookMerchantPaid":
      "{store} heeft deze bescherming betaald: u hebt er niets voor betaald en er is niets op te zeggen of terug te betalen.",
    "plan.cancelButton": "Bescherming opzeggen",
    "plan.cancelledOn": "U hebt deze bescherming opgezegd op",
    "plan.refundPending": "Uw vergoeding van {amount} wordt terugbetaald. Status van de terugbetaling: in behandeling.",
    "plan.refundDone": "Uw vergoeding van {amount} is terugbetaald op",
    "plan.claimsTitle": "Uw verzoeken om terugbetaling",
    "plan.noClaims": "U hebt nog niet om een terugbetaling gevraagd.",
    "plan.newClaim": "Een probleem melden",
    "plan.viewClaim": "{claim} bekijken",
    "plan.filedOn": "verstuurd op {date}",
    "plan.decisionReason": "Reden van de beslissing:",
    "plan.notActive": "Deze bescherming is niet actief, dus er kunnen geen nieuwe verzoeken worden ingediend.",

    "cancel.title": "Uw bescherming opzeggen",
    "cancel.explain":
      "Als u opzegt, is uw bestelling niet meer beschermd en kunt u onder deze bescherming geen terugbetaling meer vragen. De vergoeding van {fee} wordt aan u terugbetaald.",
    "cancel.confirm": "Ik begrijp dat mijn bestelling niet meer beschermd zal zijn.",
    "cancel.confirmMissing": "Vink het vakje aan om te bevestigen dat u wilt opzeggen.",
    "cancel.submit": "Ja, bescherming opzeggen",
    "cancel.back": "Mijn bescherming houden",
    "cancel.done": "Uw bescherming is opgezegd. De vergoeding wordt terugbetaald.",

    "claim.newTitle": "Een probleem melden",
    "claim.newIntro": "Vertel ons wat er misging. We beantwoorden elk verzoek, en elke beslissing komt met een reden.",
    "claim.reason": "Wat is er gebeurd?",
    "claim.reasonChoose": "Kies een reden",
    "claim.occurredAt": "Wanneer is het gebeurd?",
    "claim.occurredAtHint":
      "De dag waarop u het probleem opmerkte. Die moet binnen de afgelopen {days} dagen liggen; voor een pakket zoals het aankwam, binnen {days} dagen na de bezorging.",
    "claim.description": "Beschrijf het probleem",
    "claim.descriptionHint":
      "Wat u hebt besteld, wat er is gebeurd en alles wat ons helpt het te controleren. Maximaal {max} tekens.",
    "claim.amount": "Terug te betalen bedrag (optioneel)",
    "claim.amountHint":
      "Bijvoorbeeld {example}. Laat het leeg om het volledige resterende gedekte bedrag te vragen ({remaining}).",
    "claim.evidence": "Foto’s of documenten (optioneel)",
    "claim.evidencePhotos": "Foto’s van het probleem (voeg er minstens één toe)",
    "claim.photosAsked":
      "Voeg bij een beschadigd, defect of verkeerd artikel minstens één foto toe waarop het probleem te zien is.",
    "claim.photosPlease": "Met een foto waarop het probleem te zien is, kunnen we het snel controleren.",
    "claim.evidenceHint":
      "Maximaal {maxFiles, plural, one {# bestand} other {# bestanden}} van elk {maxSize}: JPEG, PNG, WebP, HEIC of PDF. Een verzoek bevat in totaal hooguit {perRequest}.",
    "claim.submit": "Verzoek versturen",
    "claim.reasonMissing": "Kies wat er is gebeurd.",
    "claim.occurredAtMissing": "Vul de dag in waarop het is gebeurd.",
    "claim.descriptionMissing": "Beschrijf het probleem.",
    "claim.amountInvalid": "Vul het bedrag in zoals u het zou schrijven, bijvoorbeeld {example}.",
    "claim.created": "Uw verzoek is verstuurd. We mailen u zodra de status verandert.",
    "claim.detailTitle": "Verzoek om terugbetaling",
    "claim.name": "Verzoek {number} voor {reference}",
    "claim.nameInline": "verzoek {number} voor {reference}",
    "claim.payoutPending": "Goedgekeurd: {what}.",
    "claim.payoutPaidPrefix": "Uitbetaald: {what}, op",
    "claim.paidBy":
      "{remedy, select, replacement {{merchant} heeft u de vervanging gestuurd.} other {{payer, select, shopify_refund {De terugbetaling is teruggegaan naar de betaalmethode die u voor de bestelling hebt gebruikt. Het kan {bankDays} werkdagen duren voordat uw bank die toont.} other {{merchant} heeft u rechtstreeks terugbetaald. Het kan {bankDays} werkdagen duren voordat uw bank dat toont.}}}}",
    "claim.payoutTerms":
      "{payer, select, shopify_refund {{remedy, select, replacement {{merchant} plaatst uiterlijk {by} (binnen {days, plural, one {# werkdag} other {# werkdagen}} na de goedkeuring) automatisch een gratis vervangende bestelling voor u en verzendt die zoals elke bestelling.} other {De terugbetaling gaat uiterlijk {by} (binnen {days, plural, one {# werkdag} other {# werkdagen}} na de goedkeuring) automatisch terug naar de betaalmethode die u voor de bestelling hebt gebruikt. Het kan {bankDays} werkdagen duren voordat uw bank die toont.}}} other {{remedy, select, replacement {{merchant} stuurt u de vervanging uiterlijk {by} (binnen {days, plural, one {# dag} other {# dagen}} na de goedkeuring).} other {{merchant} betaalt u uiterlijk {by} rechtstreeks terug (binnen {days, plural, one {# dag} other {# dagen}} na de goedkeuring). Het kan {bankDays} werkdagen duren voordat uw bank dat toont.}}}}",
    "claim.remedy":
      "{remedy, select, replacement {een vervanging ter waarde van {amount}} other {een terugbetaling van {amount}}}",
    "claim.actionTitle": "Actie nodig",
    "claim.status": "Status",
    "claim.statusValue":
      "{status, select, submitted {Ontvangen} under_review {In behandeling} needs_information {We hebben meer informatie nodig} approved {Goedgekeurd} paid {Uitbetaald} denied {Afgewezen} other {{status}}}",
    "claim.reasonLabel": "Reden",
    "claim.amountLabel": "Gevraagd bedrag",
    "claim.occurredLabel": "Gebeurd op",
    "claim.filedLabel": "Verstuurd op",
    "claim.decision": "Beslissing",
    "claim.decisionBasis": "Waarop de beslissing berust",
    "claim.yourDescription": "Wat u ons hebt verteld",
    "claim.timeline": "Geschiedenis",
    "claim.actor":
      "{actor, select, buyer {U} merchant {De winkel} claims_team {Claimteam} service {Aankoopbescherming} other {{actor}}}",
    "claim.kind":
      "{kind, select, submitted {Verzoek verstuurd} message {Bericht} status_changed {Status gewijzigd} other {{kind}}}",
    "claim.statusBecame": "Status: {status}",
    "claim.evidenceTitle": "Bestanden",
    "claim.noEvidence": "Nog geen bestanden.",
    "claim.download": "{name} downloaden",
    "claim.addInfoTitle": "Informatie toevoegen",
    "claim.addInfoIntro": "Stuur een bericht of meer bestanden voor dit verzoek.",
    "claim.message": "Uw bericht",
    "claim.messageMissing": "Schrijf een bericht.",
    "claim.addInfoSubmit": "Versturen",
    "claim.added": "Dank u. Uw informatie is aan het verzoek toegevoegd.",
    "claim.closed": "Dit verzoek is gesloten; er kan geen informatie meer worden toegevoegd.",
    "claim.back": "Terug naar uw dekking",

    "terms.title": "Wat is gedekt",
    "terms.intro":
      "Eén set regels voor elke bestelling die door deze dienst wordt beschermd. Er is geen kleine lettertjes buiten deze pagina en de vermelding hieronder.",
    "terms.reasonsTitle": "De redenen waarom u om een terugbetaling kunt vragen",
    "terms.evidenceTitle": "Foto’s en documenten",
    "terms.evidence":
      "Elke keer dat u ons schrijft, kunt u maximaal {maxFiles, plural, one {# bestand} other {# bestanden}} van elk hooguit {maxSize} toevoegen: JPEG, PNG, WebP, HEIC of PDF. Locatiegegevens in foto’s worden verwijderd voordat ze worden opgeslagen. Alleen u, de winkel en het claimteam kunnen ze zien.",
    "terms.evidenceQuotas":
      "In totaal bevat één verzoek hooguit {claim}, alle verzoeken van één aankoop samen {plan}, en bij één bezoek aan deze site (één keer aanmelden) kunt u {session} toevoegen.",
    "terms.decisionsTitle": "Hoe beslissingen worden genomen",
    "terms.decisions":
      "Elk verzoek wordt beoordeeld. Als we meer informatie nodig hebben, vragen we u dat per e-mail en antwoordt u op deze site. Elke beslissing – goedgekeurd of afgewezen – komt met een reden, en u ziet die hier.",
    "terms.denialReasonsIntro":
      "Een verzoek wordt alleen afgewezen om een van deze gepubliceerde redenen, met de zin die u zult lezen:",
    "terms.payoutTitle": "Als een verzoek wordt goedgekeurd",
    "terms.payout":
      "Bij een Shopify-winkel gaat de terugbetaling automatisch terug naar de betaalmethode die u hebt gebruikt (of wordt er een gratis vervangende bestelling geplaatst) binnen {shopifyDays, plural, one {# werkdag} other {# werkdagen}} na de goedkeuring. Bij andere winkels betaalt de winkel u rechtstreeks terug, of stuurt de vervanging, binnen {merchantDays, plural, one {# dag} other {# dagen}} na de goedkeuring. Het kan {bankDays} werkdagen duren voordat uw bank een terugbetaling toont.",
    "terms.disclosureTitle": "Vermelding",
    "terms.start": "Uw bescherming opzoeken",

    quota: "{files, plural, one {# bestand} other {# bestanden}} en {size}",
    sizeMegabytes: "{size, number} MB",
    sizeKilobytes: "{size, number} kB",
    countdownHours: "{hours} u {minutes} min",
    countdownMinutes: "{minutes} min",

    genericError: "Er ging bij ons iets mis. Probeer het over een moment opnieuw.",
    forbidden: "Dit formulier is verlopen. Laad de pagina opnieuw en probeer het nog eens.",
    notFound: "We konden die pagina niet vinden.",
    signOutFailed: "We konden u niet afmelden. Probeer het over een moment opnieuw.",
    tooManySeconds: "Te veel pogingen. Wacht {seconds} seconden en probeer het opnieuw.",
    tooManyMinutes: "Te veel pogingen. Wacht ongeveer {minutes} minuten en probeer het opnieuw.",

    "error.portal_lookup_failed":
      "We hebben geen bescherming gevonden voor dat e-mailadres en dat referentie- of bestelnummer. Controleer beide en probeer het opnieuw.",
    "error.free_look_expired":
      "De {hours} uur om op te zeggen zijn voorbij, dus deze bescherming kan niet meer worden opgezegd.",
    "error.plan_not_active": "Deze bescherming is niet actief (ze is opgezegd of door de winkel vervallen verklaard).",
    "error.free_look_not_applicable":
      "De winkel heeft deze bescherming betaald, dus er is geen vergoeding die u bij opzegging terugkrijgt.",
    "error.reason_not_covered": "Kies een van de redenen uit de lijst.",
    "error.claim_window_expired":
      "Het probleem moet zich in de afgelopen {days} dagen hebben voorgedaan; voor een pakket zoals het aankwam, binnen {days} dagen na de bezorging.",
    "error.occurred_before_purchase": "De datum kan niet vóór uw aankoop liggen.",
    "error.occurred_in_future": "De datum kan niet in de toekomst liggen.",
    "error.amount_exceeds_remaining": "Het bedrag is hoger dan wat nog gedekt is.",
    "error.evidence_type_unsupported": "Een van de bestanden is geen JPEG-, PNG-, WebP-, HEIC- of PDF-bestand.",
    "error.evidence_too_large": "Een van de bestanden is groter dan {maxSize}.",
    "error.too_many_evidence_files": "U kunt maximaal {maxFiles} bestanden tegelijk toevoegen.",
    "error.evidence_quota_exceeded":
      "Dit verzoek bevat al zoveel bestanden als we kunnen aannemen. Beschrijf de rest in een bericht of neem contact op met de winkel.",
    "error.claim_already_open":
      "U hebt al een open verzoek om deze reden. Voeg de informatie liever aan dat verzoek toe.",
    "error.request_too_large": "De bestanden zijn samen te groot. Stuur minder bestanden tegelijk.",
  },
});

/** The portal's words in one locale: what a page, a loader or an action writes with. */
export type PortalText = (key: PortalMessageKey, values?: MessageValues) => string;

/**
 * A page's <title> ("Your coverage · Purchase protection") in the buyer's language, read from the portal layout's
 * loader data among a MetaFunction's matches.
 */
export function portalTitle(matches: readonly { id: string; data?: unknown }[], key: PortalMessageKey) {
  const locale = (matches.find((match) => match.id === "routes/portal")?.data as { locale?: string } | undefined)
    ?.locale;
  const t = portalMessages.in(locale ?? "en");
  return [{ title: `${t(key)} · ${t("siteName")}` }];
}

export interface ApiErrorBody {
  type?: string;
  code: string;
  message?: string;
  param?: string;
}

/** The limits some error sentences state (the rulebook's, which the portal reads from GET /portal/reasons). */
const ERROR_VALUES = { hours: 48, days: 30, maxFiles: 5 };

/** The API error codes whose sentence is another of the portal's messages. */
const ERROR_KEYS: Record<string, PortalMessageKey> = {
  portal_session_invalid: "lookup.sessionExpired",
  portal_session_required: "lookup.sessionExpired",
  plan_has_claims: "plan.freeLookHasClaims",
  claim_closed: "claim.closed",
  resource_missing: "notFound",
  route_not_found: "notFound",
};

const isMessageKey = (key: string): key is PortalMessageKey => key in english;

/** The buyer's sentence for an API error (English unless `t` is the buyer's language); a 429 says when to retry. */
export function errorSentence(
  error: ApiErrorBody,
  status: number,
  retryAfterSeconds?: number,
  t: PortalText = portalMessages.in("en"),
): string {
  if (status === 429) {
    const wait = retryAfterSeconds && retryAfterSeconds > 0 ? retryAfterSeconds : 60;
    return wait < 120 ? t("tooManySeconds", { seconds: wait }) : t("tooManyMinutes", { minutes: Math.ceil(wait / 60) });
  }
  const key = ERROR_KEYS[error.code] ?? `error.${error.code}`;
  if (isMessageKey(key)) return t(key, { ...ERROR_VALUES, maxSize: t("sizeMegabytes", { size: 10 }) });
  return status >= 500 ? t("genericError") : fallback(t, error);
}

/** An unmapped 4xx (validation of a field): the API's message names the rule; keep it, it is written for people. */
function fallback(t: PortalText, error: ApiErrorBody): string {
  return error.message && error.message.length < 300 ? error.message : t("genericError");
}
