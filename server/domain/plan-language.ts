// The language and time zone recorded with a plan at confirm (plans.locale, plans.time_zone), which every later buyer
// e-mail about it is written in (docs/api.md "E-mail to buyers"). The surface that confirms says what it knows of the
// buyer: the widget the storefront's locale and the browser's time zone, a headless confirm what the merchant's server
// passes, the Shopify orders path the order's customer_locale. A locale is kept only when its language is one the
// e-mails are written in, whole (fr-CA stays fr-CA: its region decides how money and dates read); anything else is
// kept as unknown: English, dates in UTC.
import { negotiateLocale } from "@purchase-protection/contract";

export interface PlanLanguage {
  /** A canonical BCP 47 tag whose language is served ("fr-FR", "de"), or null: English. */
  locale: string | null;
  /** An IANA time zone name ("Europe/Paris"), or null: dates in UTC, said so. */
  timeZone: string | null;
}

/** What a surface said: each optional, unchecked. */
export interface PlanLanguageInput {
  locale?: string | null;
  timeZone?: string | null;
}

/** The tag in canonical form ("fr_fr" → "fr-FR"), or undefined when it is not a well-formed BCP 47 language tag. */
export function canonicalLanguageTag(tag: string): string | undefined {
  if (tag.length === 0 || tag.length > 35) return undefined;
  try {
    return Intl.getCanonicalLocales(tag.replace(/_/g, "-"))[0];
  } catch {
    return undefined;
  }
}

/** The zone's canonical IANA name ("europe/paris" → "Europe/Paris"), or undefined when Intl knows no such zone. */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The tag when its language is served, canonical; null otherwise (English is the default, nothing to keep). */
function servedLocale(tag: string): string | null {
  const canonical = canonicalLanguageTag(tag);
  if (canonical === undefined) return null;
  // negotiateLocale keeps a served tag whole and answers English for any other (the pseudo-locale included).
  return negotiateLocale([canonical]) === canonical ? canonical : null;
}

/** What a plan keeps of what the surface said: an unserved or malformed locale, an unknown zone, are null. */
export function planLanguage(input: PlanLanguageInput): PlanLanguage {
  return {
    locale: input.locale ? servedLocale(input.locale.trim()) : null,
    timeZone: (input.timeZone && canonicalTimeZone(input.timeZone.trim())) || null,
  };
}
