// The buyer's locale in the portal: the language they chose with the portal's switcher (a cookie), else the one
// recorded with their plan when they signed in, else their browser's Accept-Language, else English
// (packages/contract/src/locales.ts negotiateLocale). The words follow its language (messages.ts); money, numbers and
// dates follow the whole locale, region included ("fr-CA"). A browser asking for no language the portal is written in
// keeps its own formats for numbers and dates, with English words (localeFrom).
import {
  BUYER_LANGUAGES,
  PSEUDO_LOCALE,
  acceptLanguageTags,
  messageLanguage,
  negotiateLocale,
} from "@purchase-protection/contract";
import { DEFAULT_LOCALE } from "../ui/format.ts";

/** What is known of the buyer's language, most trusted first. */
export interface LocaleSources {
  /** The language chosen with the portal's switcher. */
  chosen?: string;
  /** The locale recorded with the signed-in plan. */
  plan?: string | null;
  acceptLanguage: string | null;
  /** Whether the pseudo-locale may be chosen (the BUYER_PSEUDO_LOCALE setting). */
  pseudo?: boolean;
}

/** The first supported locale of an Accept-Language header ("de-DE,de;q=0.9,en;q=0.8" → "de-DE"). */
export function localeFrom(acceptLanguage: string | null): string {
  for (const tag of acceptLanguageTags(acceptLanguage)) {
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag)) continue;
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // An invalid tag is skipped.
    }
  }
  return DEFAULT_LOCALE;
}

const languageOf = (tag: string) => tag.split(/[-_]/)[0].toLowerCase();

/** The portal's locale for this buyer. */
export function portalLocale({ chosen, plan, acceptLanguage, pseudo = false }: LocaleSources): string {
  const browser = acceptLanguageTags(acceptLanguage);
  const candidates = [chosen, plan, ...browser];
  const locale = negotiateLocale(candidates, { pseudo });
  if (locale === PSEUDO_LOCALE) return locale;
  const served = candidates.some(
    (candidate) => candidate && (BUYER_LANGUAGES as readonly string[]).includes(languageOf(candidate)),
  );
  if (!served) return localeFrom(acceptLanguage);
  if (locale.includes("-")) return locale;
  // A language chosen without a region takes the browser's region for it ("fr" chosen, "fr-CA" browser → "fr-CA").
  const regional = browser.find((tag) => languageOf(tag) === locale && tag.includes("-"));
  return regional ? negotiateLocale([regional]) : locale;
}

/** The languages the switcher offers, each named in itself; the pseudo-locale only where the setting allows it. */
export function languageChoices(pseudo: boolean): { value: string; name: string }[] {
  const names = { en: "English", fr: "Français", de: "Deutsch", es: "Español", nl: "Nederlands" };
  const choices = BUYER_LANGUAGES.map((language) => ({ value: language as string, name: names[language] }));
  return pseudo ? [...choices, { value: PSEUDO_LOCALE, name: "Ƥšéúđó (en-XA)" }] : choices;
}

/** The `<html lang>` of a portal page: its locale when the words are in its language, else English. */
export const htmlLang = (locale: string) =>
  locale === PSEUDO_LOCALE || messageLanguage(locale) === languageOf(locale) ? locale : "en";
