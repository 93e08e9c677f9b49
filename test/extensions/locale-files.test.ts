// The Shopify extensions' own translations (locales/*.json, resolved by Shopify for the buyer's or the merchant's
// language): every language has exactly the default file's keys, plural forms that language needs, the same
// {{placeholders}}, no empty text, and a text of its own where English would otherwise be left behind.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { BUYER_LANGUAGES } from "../../packages/contract/src/locales.ts";
import { localeFiles, type LocaleTree } from "../support/shopify-i18n.ts";

const EXTENSIONS = path.resolve(import.meta.dirname, "../../extensions");
const PLURAL_FORMS = new Set(["zero", "one", "two", "few", "many", "other"]);

/** Each text by its dot-separated key; a plural's forms by key and form ("cancel.one"). */
function texts(tree: LocaleTree, prefix = ""): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === "string" ? [[prefix + key, value]] : Object.entries(texts(value, `${prefix}${key}.`)),
    ),
  );
}
const isPlural = (value: string | LocaleTree): value is LocaleTree =>
  typeof value === "object" && Object.keys(value).every((form) => PLURAL_FORMS.has(form));
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map(([, name]) => name).sort();

/** A message's texts with its plural's forms folded into one key, so languages with other forms compare. */
function messages(tree: LocaleTree, prefix = ""): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === "string"
        ? [[prefix + key, [value]]]
        : isPlural(value)
          ? [[prefix + key, Object.values(value) as string[]]]
          : Object.entries(messages(value, `${prefix}${key}.`)),
    ),
  );
}

const CASES: { extension: string; suffix: string; sameAsEnglish?: string[] }[] = [
  { extension: "checkout-protection", suffix: ".json" },
  { extension: "post-purchase", suffix: ".json" },
  { extension: "theme-embed", suffix: ".schema.json" },
];

describe.each(CASES)("$extension locales/*$suffix", ({ extension, suffix, sameAsEnglish = [] }) => {
  const files = localeFiles(path.join(EXTENSIONS, extension, "locales"), suffix);
  const english = files["en.default"];
  const englishMessages = messages(english);

  it("has the default English file and one file per other buyer language", () => {
    expect(Object.keys(files).sort()).toEqual(
      [...BUYER_LANGUAGES.filter((language) => language !== "en"), "en.default"].sort(),
    );
    expect(Object.keys(englishMessages).length).toBeGreaterThan(0);
  });

  it.each(BUYER_LANGUAGES.filter((language) => language !== "en"))(
    "%s has every message of English, with its {{placeholders}} and the plural forms the language uses",
    (language) => {
      const translated = messages(files[language]);
      expect(Object.keys(translated).sort()).toEqual(Object.keys(englishMessages).sort());
      const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const [key, variants] of Object.entries(translated)) {
        const expected = placeholders(englishMessages[key][englishMessages[key].length - 1]);
        for (const text of variants) {
          expect(text.trim(), `${language}.${key}`).not.toBe("");
          expect(placeholders(text), `${language}.${key}`).toEqual(expected);
        }
        if (englishMessages[key].length > 1) {
          const node = key.split(".").reduce<LocaleTree>((tree, part) => tree[part] as LocaleTree, files[language]);
          for (const form of forms) expect(Object.keys(node), `${language}.${key}`).toContain(form);
        }
      }
    },
  );

  it("leaves no English text in a translation (except what is the same in every language)", () => {
    const englishTexts = texts(english);
    for (const language of BUYER_LANGUAGES.filter((language) => language !== "en")) {
      const same = Object.entries(texts(files[language]))
        .filter(([key, text]) => englishTexts[key] === text && !sameAsEnglish.includes(key))
        .map(([key]) => key);
      expect(same, language).toEqual([]);
    }
  });
});
