// docs/api.md "Offers": a quote's offerTexts are the widget's sentences in the buyer's language, chosen from the
// request's `locale` (the storefront's): French, German, Spanish and Dutch where asked, English otherwise, the
// pseudo-locale only for a test key; the disclosure is the rulebook's in that language, while disclosureText stays
// the English of the spec. A malformed locale is 400 naming it and creates nothing.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";
import { assertChangesNothing, assertError, createQuote } from "../support/api-assertions.ts";
import type { ApiClient } from "../support/protection-flows.ts";
import { fullDisclosure } from "../../server/domain/disclosure.ts";

describe.each(DIALECTS)("a quote's offerTexts in the buyer's language (%s)", (dialect) => {
  let t: TestApi;
  let widget: ApiClient;
  beforeAll(async () => {
    t = await startTestApi({ dialect });
    widget = apiClient(t.baseUrl, t.merchant.publishableKey);
  });
  afterAll(() => t.close());

  const textsFor = async (locale?: string) => {
    const { quote } = await createQuote(widget, t.merchant.programId, locale === undefined ? {} : { locale });
    return quote as typeof quote & { offerTexts: Record<string, string> };
  };

  it("French for fr-CA, keeping the region; the label keeps {price} and the confirmation {reference}", async () => {
    const quote = await textsFor("fr-CA");
    assert.deepEqual(quote.offerTexts, {
      locale: "fr-CA",
      label: "Ajouter une protection d’achat pour {price}",
      covers: "Perte, vol et dommages pendant le transport, et plus encore.",
      termsLink: "Voir ce qui est couvert",
      groupLabel: "Protection d’achat",
      disclosure: quote.offerTexts.disclosure,
      decline: "Non merci",
      adding: "Ajout de la protection…",
      confirmed: "Protégé. Votre numéro de référence est {reference}.",
      declined: "Aucune protection ajoutée.",
      cartError: "Votre panier n’a pas pu être mis à jour.",
    });
    assert.match(quote.offerTexts.disclosure, /^Ceci n’est pas une assurance\. .*Test Protection Ltd\.$/);
    // The spec's visible disclosure stays as it is, in English.
    assert.equal(quote.disclosureText, fullDisclosure("Test Protection Ltd"));
  });

  it("German, Spanish and Dutch; English without a locale or for a language not served", async () => {
    assert.equal((await textsFor("de_DE")).offerTexts.label, "Käuferschutz für {price} hinzufügen");
    assert.equal((await textsFor("de_DE")).offerTexts.locale, "de-DE");
    assert.equal((await textsFor("es")).offerTexts.decline, "No, gracias");
    assert.equal((await textsFor("nl-BE")).offerTexts.groupLabel, "Aankoopbescherming");
    for (const locale of [undefined, "ja-JP"]) {
      const quote = await textsFor(locale);
      assert.equal(quote.offerTexts.locale, "en");
      assert.equal(quote.offerTexts.label, "Add purchase protection for {price}");
      assert.equal(quote.offerTexts.disclosure, quote.disclosureText);
    }
  });

  it("the pseudo-locale only for a test key (a live storefront's buyer never gets it)", async () => {
    const quote = await textsFor("en-XA");
    assert.equal(quote.offerTexts.locale, "en-XA");
    assert.ok(quote.offerTexts.covers.length > "Loss, theft and damage in transit, and more.".length);
    assert.match(quote.offerTexts.label, /\{price\}$/);
  });

  it("a malformed locale is 400 naming it, and creates nothing", async () => {
    for (const locale of ["fr FR", "<b>fr</b>", "x".repeat(36), ""]) {
      const response = await assertChangesNothing(t.database.db, () =>
        widget.post("/offers/quote", {
          order_amount_cents: 10_000,
          order_id: `order-${crypto.randomUUID()}`,
          protection_program_id: t.merchant.programId,
          locale,
        }),
      );
      assertError(response, { status: 400, code: "parameter_invalid", param: "locale" });
    }
  });
});
