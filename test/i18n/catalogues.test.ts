// Every buyer catalogue: the same keys in every language, each text a valid ICU message using exactly the arguments
// English uses (a translation that drops {days} or invents {day} would print wrong or throw at a buyer), no empty
// text, and no English left behind where a translation belongs (a text identical to English across all four is a
// forgotten translation, unless it is in the catalogue's list of words that are the same everywhere).
import { describe, expect, it } from "vitest";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { BUYER_LANGUAGES } from "../../packages/contract/src/locales.ts";
import { catalogues } from "./registry.ts";

function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if ("value" in element && element.type !== TYPE.literal && typeof element.value === "string") {
      into.add(element.value);
    }
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
    if (element.type === TYPE.tag) argumentsOf(element.children, into);
  }
  return into;
}

it("registers catalogues that each have English texts", () => {
  for (const [name, { messages }] of Object.entries(catalogues)) {
    expect(Object.keys(messages.sources.en).length, name).toBeGreaterThan(0);
  }
});

describe.each(Object.entries(catalogues))("catalogue %s", (_name, { messages, sameInEveryLanguage = [] }) => {
  const english = messages.sources.en;
  const keys = Object.keys(english).sort();

  it.each(BUYER_LANGUAGES.map((language) => [language]))(
    "%s has every key, valid and with English's arguments",
    (language) => {
      const texts = messages.sources[language] as Record<string, string>;
      expect(Object.keys(texts).sort()).toEqual(keys);
      for (const key of keys) {
        expect(texts[key].trim(), `${language}.${key}`).not.toBe("");
        const expected = [...argumentsOf(parse(english[key as keyof typeof english]))].sort();
        expect([...argumentsOf(parse(texts[key]))].sort(), `${language}.${key}`).toEqual(expected);
      }
    },
  );

  it("has no text left in English in every translation", () => {
    const untranslated = keys.filter(
      (key) =>
        !sameInEveryLanguage.includes(key) &&
        BUYER_LANGUAGES.every(
          (language) =>
            (messages.sources[language] as Record<string, string>)[key] === english[key as keyof typeof english],
        ),
    );
    expect(untranslated).toEqual([]);
  });

  it("formats every message in the pseudo-locale, longer than English", () => {
    for (const key of keys) {
      const text = english[key as keyof typeof english];
      if (argumentsOf(parse(text)).size > 0) continue;
      expect(messages.format("en-XA", key as never).length, key).toBeGreaterThanOrEqual(text.length);
    }
  });
});
