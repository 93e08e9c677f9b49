import { describe, expect, it } from "vitest";
import { acceptLanguageTags, messageLanguage, negotiateLocale } from "../src/locales.ts";
import { defineMessages } from "../src/messages.ts";

describe("acceptLanguageTags", () => {
  it("orders by q, keeping the header's order among equals, and drops q=0 and *", () => {
    expect(acceptLanguageTags("en;q=0.5, de-DE, fr;q=0.9, de;q=0.9, *;q=0.1, nl;q=0")).toEqual([
      "de-DE",
      "fr",
      "de",
      "en",
    ]);
    expect(acceptLanguageTags(null)).toEqual([]);
    expect(acceptLanguageTags("")).toEqual([]);
  });
});

describe("negotiateLocale", () => {
  it("takes the first candidate whose language is served, keeping its region for Intl", () => {
    expect(negotiateLocale(["ja-JP", "fr-ca", "de"])).toBe("fr-CA");
    expect(negotiateLocale([undefined, null, "", "NL"])).toBe("nl");
    expect(negotiateLocale(["es_MX"])).toBe("es-MX");
  });

  it("falls back to English when nothing is served or a tag is not a language tag", () => {
    expect(negotiateLocale(["ja", "not a tag!", "zh-Hant"])).toBe("en");
    expect(negotiateLocale([])).toBe("en");
  });

  it("chooses the pseudo-locale only when allowed", () => {
    expect(negotiateLocale(["en-XA", "de"])).toBe("de");
    expect(negotiateLocale(["en-XA", "de"], { pseudo: true })).toBe("en-XA");
  });

  it("reads a catalogue language from a locale", () => {
    expect(messageLanguage("fr-CA")).toBe("fr");
    expect(messageLanguage("pt-BR")).toBe("en");
    expect(messageLanguage("en-XA")).toBe("en-XA");
  });
});

describe("defineMessages", () => {
  const days = defineMessages(
    { window: "Claim within {days, plural, one {# day} other {# days}}.", hello: "Hello {name}" },
    {
      fr: { window: "Réclamez sous {days, plural, one {# jour} other {# jours}}.", hello: "Bonjour {name}" },
      de: {
        window: "Melden Sie sich innerhalb {days, plural, one {eines Tages} other {von # Tagen}}.",
        hello: "Hallo {name}",
      },
      es: { window: "Reclame en {days, plural, one {# día} other {# días}}.", hello: "Hola {name}" },
      nl: { window: "Claim binnen {days, plural, one {# dag} other {# dagen}}.", hello: "Hallo {name}" },
    },
  );

  it("formats plurals and numbers in the locale's language and region", () => {
    expect(days.format("fr-CA", "window", { days: 1 })).toBe("Réclamez sous 1 jour.");
    expect(days.format("de", "window", { days: 1 })).toBe("Melden Sie sich innerhalb eines Tages.");
    // Austrian German groups thousands with a (non-breaking) space.
    expect(days.format("de-AT", "window", { days: 1000 })).toMatch(/^Melden Sie sich innerhalb von 1\s000 Tagen\.$/);
    expect(days.in("es")("window", { days: 30 })).toBe("Reclame en 30 días.");
  });

  it("falls back to English for a language not served", () => {
    expect(days.format("ja-JP", "hello", { name: "Aiko" })).toBe("Hello Aiko");
  });

  it("writes the pseudo-locale accented and longer, arguments untouched", () => {
    const pseudo = days.format("en-XA", "window", { days: 30 });
    expect(pseudo).toContain("30");
    expect(pseudo.length).toBeGreaterThan(days.format("en", "window", { days: 30 }).length);
    expect(pseudo).not.toMatch(/[aeiou]/);
  });

  it("refuses a broken message when the catalogue is defined", () => {
    expect(() =>
      defineMessages(
        { a: "{days, plural, one {x}" },
        { fr: { a: "x" }, de: { a: "x" }, es: { a: "x" }, nl: { a: "x" } },
      ),
    ).toThrow();
  });
});
