// The languages a buyer is served in, and how the one to use is chosen from what is known of them: the storefront's
// or checkout's locale, the browser's Accept-Language, the language recorded with their plan. Every buyer surface (the
// widget's config, the portal, the e-mails) chooses through negotiateLocale, so a buyer reads one language throughout.

/** The buyer languages, English first (the default and the source every translation is written from). */
export const BUYER_LANGUAGES = ["en", "fr", "de", "es", "nl"] as const;
export type BuyerLanguage = (typeof BUYER_LANGUAGES)[number];
export const DEFAULT_BUYER_LOCALE = "en";

/**
 * The pseudo-locale: English made longer and accented, to see that every buyer page takes longer words without
 * overflowing. Only chosen where the caller allows it (tests and a setting), never from a buyer's browser alone.
 */
export const PSEUDO_LOCALE = "en-XA";

/** A catalogue's language: one of BUYER_LANGUAGES, or the pseudo-locale. */
export type MessageLanguage = BuyerLanguage | typeof PSEUDO_LOCALE;

const isBuyerLanguage = (language: string): language is BuyerLanguage =>
  (BUYER_LANGUAGES as readonly string[]).includes(language);

/** The language tags of an Accept-Language header, most wanted first ("de-DE,de;q=0.9,en;q=0.8" → de-DE, de, en). */
export function acceptLanguageTags(header: string | null | undefined): string[] {
  return (header ?? "")
    .split(",")
    .map((part, index) => {
      // No destructuring here: the widget bundles this module, and esbuild cannot lower it for Safari 14.
      const params = part.trim().split(";");
      const q = params
        .slice(1)
        .map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1])
        .find(Boolean);
      return { tag: params[0].trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== "*" && entry.q > 0 && entry.tag !== "")
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** A tag in its canonical form ("fr_ca" and "FR-ca" → "fr-CA"), or undefined when it is not a language tag. */
function canonicalTag(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag.replace(/_/g, "-"))[0];
  } catch {
    return undefined;
  }
}

/**
 * The buyer's locale: the first of `candidates` (most trusted first; empty ones skipped) whose language we serve,
 * kept whole so that numbers, money and dates follow its region ("fr-CA" → "fr-CA", "de" → "de"); English when none
 * is served. The pseudo-locale is chosen only with `{ pseudo: true }`.
 */
export function negotiateLocale(
  candidates: Iterable<string | null | undefined>,
  options: { pseudo?: boolean } = {},
): string {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const tag = canonicalTag(candidate.trim());
    if (!tag) continue;
    if (tag === PSEUDO_LOCALE) {
      if (options.pseudo) return tag;
      continue;
    }
    if (isBuyerLanguage(tag.split("-")[0].toLowerCase())) return tag;
  }
  return DEFAULT_BUYER_LOCALE;
}

/** The catalogue a locale reads from: its language when served ("fr-CA" → "fr"), the pseudo-locale, else English. */
export function messageLanguage(locale: string): MessageLanguage {
  if (locale === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  const language = locale.split("-")[0].toLowerCase();
  return isBuyerLanguage(language) ? language : "en";
}
