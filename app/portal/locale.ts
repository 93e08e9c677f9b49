// The buyer's locale, for writing money and dates the way they do: the first language of their browser's
// Accept-Language that Intl knows, else English. The words stay English (the portal has one catalogue, messages.ts);
// only numbers, currency and dates follow the locale.
import { DEFAULT_LOCALE } from "../ui/format.ts";

/** The first supported locale of an Accept-Language header ("de-DE,de;q=0.9,en;q=0.8" → "de-DE"). */
export function localeFrom(acceptLanguage: string | null): string {
  const tags = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q) };
    })
    .filter(({ tag, q }) => /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag) && q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // An invalid tag is skipped.
    }
  }
  return DEFAULT_LOCALE;
}
