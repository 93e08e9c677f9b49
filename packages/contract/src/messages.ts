// Buyer texts as ICU messages ("{days, plural, one {# day} other {# days}}"), one catalogue per surface with the same
// keys in every buyer language, formatted by intl-messageformat in the buyer's locale. The storefront bundles do not
// import this module (the widget receives its sentences already formatted with its config).
import { IntlMessageFormat } from "intl-messageformat";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { boundedCache } from "./bounded-cache.ts";
import {
  BUYER_LANGUAGES,
  PSEUDO_LOCALE,
  messageLanguage,
  type BuyerLanguage,
  type MessageLanguage,
} from "./locales.ts";

/** What a message's arguments may be: text, numbers (plurals, `{n, number}`) and dates (`{d, date, long}`). */
export type MessageValues = Record<string, string | number | Date>;

/** A catalogue's texts in every buyer language; TypeScript refuses a translation that misses or adds a key. */
export type CatalogueSources<Key extends string> = Record<BuyerLanguage, Record<Key, string>>;

export interface Messages<Key extends string> {
  /** The message `key` in `locale`'s language (English when the language is not served), its arguments filled in. */
  format(locale: string, key: Key, values?: MessageValues): string;
  /** The same, bound to one locale: what a page or an e-mail takes. */
  in(locale: string): (key: Key, values?: MessageValues) => string;
  /** The texts as written, for the catalogue tests (same keys, valid ICU, same arguments in every language). */
  readonly sources: CatalogueSources<Key>;
}

// Letters the pseudo-locale writes accented; vowels are also doubled so that a text grows by about a third, as
// German and French often do against English.
const PSEUDO_LETTERS: Record<string, string> = {
  a: "áá",
  e: "éé",
  i: "íí",
  o: "óó",
  u: "úú",
  y: "ýý",
  A: "ÁÁ",
  E: "ÉÉ",
  I: "ÍÍ",
  O: "ÓÓ",
  U: "ÚÚ",
  c: "ç",
  n: "ñ",
  s: "š",
  z: "ž",
  C: "Ç",
  N: "Ñ",
  S: "Š",
  Z: "Ž",
  t: "ŧ",
  d: "đ",
  g: "ğ",
  l: "ľ",
};

const pseudoText = (text: string) => text.replace(/[A-Za-z]/g, (letter) => PSEUDO_LETTERS[letter] ?? letter);

/** The English message with its literal text made pseudo; arguments, plurals' `#` and selectors untouched. */
function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: pseudoText(element.value) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([selector, option]) => [
          selector,
          { ...option, value: pseudoElements(option.value) },
        ]),
      );
      return { ...element, options };
    }
    if (element.type === TYPE.tag) return { ...element, children: pseudoElements(element.children) };
    return element;
  });
}

// Formatters are kept per locale and key; a tag is whatever a browser sent (within the served languages), so the
// cache is emptied when it grows past what any real set of buyers needs.
const MAX_CACHED_FORMATTERS = 5_000;

/**
 * A surface's catalogue: English, and a translation into each other buyer language with exactly English's keys.
 * Every message is parsed here, once: a broken message fails when its module loads, not when a buyer meets it.
 */
export function defineMessages<const Key extends string>(
  english: Record<Key, string>,
  translations: Record<Exclude<BuyerLanguage, "en">, Record<Key, string>>,
): Messages<Key> {
  const sources = { en: english, ...translations } as CatalogueSources<Key>;
  const parsed = new Map<MessageLanguage, Map<Key, MessageFormatElement[]>>();
  for (const language of BUYER_LANGUAGES) {
    const texts = sources[language];
    parsed.set(language, new Map(Object.keys(texts).map((key) => [key as Key, parse(texts[key as Key])])));
  }
  parsed.set(
    PSEUDO_LOCALE,
    new Map([...parsed.get("en")!].map(([key, elements]) => [key, pseudoElements(elements)] as const)),
  );
  const formatter = boundedCache<IntlMessageFormat>(MAX_CACHED_FORMATTERS);

  function format(locale: string, key: Key, values?: MessageValues): string {
    const formatted = formatter(`${locale}\u0000${key}`, () => {
      const elements = parsed.get(messageLanguage(locale))!.get(key);
      if (!elements) throw new Error(`No message '${key}' in this catalogue.`);
      // The pseudo-locale formats numbers and dates as English does.
      return new IntlMessageFormat(elements, locale === PSEUDO_LOCALE ? "en" : locale);
    });
    return String(formatted.format(values));
  }

  return { format, in: (locale) => (key, values) => format(locale, key, values), sources };
}
