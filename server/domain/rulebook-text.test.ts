import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { BUYER_LANGUAGES } from "@purchase-protection/contract";
import { COVERED_REASONS, DISCLOSURE_PHRASE, fullDisclosure, reasonName } from "./disclosure.ts";
import { DENIAL_REASONS, APPROVAL_DECISION } from "./claim-decisions.ts";
import { rulebookText } from "./rulebook-text.ts";

describe("the rulebook's texts", () => {
  it("in English are today's wording: what decisions store and the API answers", () => {
    const english = rulebookText("en");
    assert.equal(english.reasonName("lost_in_transit"), "Lost in transit");
    assert.equal(reasonName("return_refused_within_merchant_policy"), "Return refused within the merchant's policy");
    assert.equal(reasonName("not_a_reason"), "not_a_reason");
    assert.equal(
      DENIAL_REASONS.find((reason) => reason.code === "outside_claim_window")!.message,
      "The request was filed more than 30 days after what it is about happened, and plans cover requests filed within 30 days.",
    );
    assert.equal(
      APPROVAL_DECISION.message,
      "What happened is covered by your plan, and the amount is within what is left of its coverage.",
    );
    assert.equal(english.claimWindowTitle(), "Report within 30 days");
    assert.equal(english.freeLookTitle(), "Cancel within 48 hours");
    assert.equal(
      english.freeLook(),
      "You can cancel the protection within 48 hours of your purchase and get back what you paid for it, no questions asked. Protection your store paid for cost you nothing, so there is no fee to cancel it for.",
    );
    assert.equal(
      english.deliveryWindow("damaged in transit"),
      "For a problem with the parcel as it arrived (damaged in transit), what happened is its delivery: once the carrier recorded the delivery, the 30 days count from it, whatever day you noticed the problem. Your coverage page says until when.",
    );
    assert.ok(fullDisclosure("Acme Ltd").startsWith(`${DISCLOSURE_PHRASE}. `));
  });

  it("names and describes every covered reason in every language, each language its own words", () => {
    for (const code of COVERED_REASONS) {
      for (const language of BUYER_LANGUAGES) {
        const text = rulebookText(language);
        assert.match(text.reasonName(code), /^\S/, `${language} ${code}`);
        assert.match(text.reasonDescription(code), /^\p{Lu}[^\n]*\.$/u, `${language} ${code}: one sentence`);
        if (language !== "en")
          assert.notEqual(text.reasonDescription(code), rulebookText("en").reasonDescription(code));
      }
    }
  });

  it("states the windows' numbers in each language, as that language writes them", () => {
    const expected = {
      en: ["30 days", "48 hours"],
      fr: ["30 jours", "48 heures"],
      de: ["30 Tagen", "48 Stunden"],
      es: ["30 días", "48 horas"],
      nl: ["30 dagen", "48 uur"],
    };
    for (const language of BUYER_LANGUAGES) {
      const text = rulebookText(language);
      const [days, hours] = expected[language];
      for (const sentence of [text.claimWindow(), text.claimWindowSummary(), text.claimWindowTitle()])
        assert.ok(sentence.includes(days), `${language}: ${sentence}`);
      assert.ok(text.deliveryWindow("x").includes(days.split(" ")[0]), language);
      assert.ok(text.freeLook().includes(hours), `${language}: ${text.freeLook()}`);
      assert.ok(text.freeLookTitle().includes(hours), language);
      assert.ok(text.denial("outside_claim_window").includes(days.split(" ")[0]), language);
    }
  });

  it("says in every language that this is not insurance, with the company's name ending one sentence", () => {
    const notInsurance = {
      en: "This is not insurance. ",
      fr: "Ceci n’est pas une assurance. ",
      de: "Dies ist keine Versicherung. ",
      es: "Esto no es un seguro. ",
      nl: "Dit is geen verzekering. ",
    };
    for (const language of BUYER_LANGUAGES) {
      const disclosure = rulebookText(language).disclosure("Acme Inc.");
      assert.ok(disclosure.startsWith(notInsurance[language]), disclosure);
      assert.ok(disclosure.endsWith(" Acme Inc."), disclosure);
    }
  });

  it("has a sentence for every published denial reason and the approval in every language", () => {
    for (const language of BUYER_LANGUAGES.filter((language) => language !== "en")) {
      const text = rulebookText(language);
      for (const { code, message } of DENIAL_REASONS) {
        assert.match(text.denial(code), /^\p{Lu}[^\n]*\.$/u, `${language} ${code}`);
        assert.notEqual(text.denial(code), message);
      }
      assert.notEqual(text.approval(), APPROVAL_DECISION.message);
    }
  });

  it("puts a stored decision in the buyer's language by its code, the decider's note kept as written", () => {
    const denial = DENIAL_REASONS.find((reason) => reason.code === "insufficient_evidence")!;
    assert.equal(
      rulebookText("de").decision("insufficient_evidence", `${denial.message}\n\nThe photo is blurred.`),
      `${rulebookText("de").denial("insufficient_evidence")}\n\nThe photo is blurred.`,
    );
    assert.equal(rulebookText("fr").decision("covered", APPROVAL_DECISION.message), rulebookText("fr").approval());
    assert.equal(rulebookText("fr").decision("covered", "Something else."), "Something else.");
    assert.equal(rulebookText("fr").decision("unknown_code", "As stored."), "As stored.");
    assert.equal(rulebookText("es").reasonName("not_a_reason"), "not_a_reason");
  });

  it("reads a locale's language and region, and English for a language it is not written in", () => {
    assert.equal(rulebookText("fr-CA").reasonName("item_recalled"), "Article rappelé");
    assert.equal(rulebookText("de-AT").reasonName("item_recalled"), "Artikel zurückgerufen");
    assert.equal(rulebookText("ja-JP").reasonName("item_recalled"), "Item recalled");
  });
});
