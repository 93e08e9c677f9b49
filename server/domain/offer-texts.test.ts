// The offer's texts are formatted once per locale, company name and wording: a later call, with or without a store's
// name, answers as a first one would, and no caller can change what the next quote is sent.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { offerTexts } from "./offer-texts.ts";

describe("offerTexts", () => {
  it("a merchant-paid notice after the same locale's offer: the store's label in the label's place, the rest alike", () => {
    const offer = offerTexts("de-AT", "Acme Guarantee Ltd.", "protect_order");
    const notice = offerTexts("de-AT", "Acme Guarantee Ltd.", "protect_order", "Bergladen");
    assert.equal(offer.label, "Diese Bestellung für {price} schützen");
    assert.equal(notice.label, "Geschützt durch Bergladen");
    assert.deepEqual(Object.keys(notice), Object.keys(offer));
    assert.deepEqual({ ...notice, label: offer.label }, offer);
    assert.equal(offerTexts("de-AT", "Acme Guarantee Ltd.", "protect_order").label, offer.label);
  });

  it("another company name or wording is formatted anew", () => {
    assert.match(offerTexts("en", "First Co").disclosure, /provided by First Co\.$/);
    assert.match(offerTexts("en", "Second Co").disclosure, /provided by Second Co\.$/);
    assert.equal(
      offerTexts("en", "First Co", "cover_transit").label,
      offerTexts("en", "First Co", "cover_transit").label,
    );
    assert.notEqual(offerTexts("en", "First Co", "cover_transit").label, offerTexts("en", "First Co").label);
  });

  it("the texts handed out cannot be changed for the next quote", () => {
    const texts = offerTexts("fr", "Acme");
    assert.throws(() => {
      (texts as { label: string }).label = "changed";
    }, TypeError);
    assert.equal(offerTexts("fr", "Acme").label, "Ajouter une protection d’achat pour {price}");
  });
});
