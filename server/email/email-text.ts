// What a buyer e-mail writes with, in the language recorded with its plan (plans.locale; docs/api.md "The buyer's
// language"): its own sentences (messages.ts), the rulebook's (server/domain/rulebook-text.ts), money and dates
// through Intl in that locale, times in the plan's time zone (plans.time_zone) or else in UTC, each time naming its
// zone. A plan without a locale reads as the e-mails always did: English, "$129.99", "27 Nov 2026, 14:05 UTC".
import { DEFAULT_BUYER_LOCALE, formatMoney, formatMoneyEnUs, messageLanguage } from "@purchase-protection/contract";
import type { MessageValues } from "@purchase-protection/contract/messages";
import { rulebookText } from "../domain/rulebook-text.ts";
import { utcDay, utcDayAndTime } from "../domain/utc-dates.ts";
import type { EmailPlan } from "../store/emails.ts";
import { emailMessages, type EmailMessageKey } from "./messages.ts";

export interface EmailText {
  /** The locale the e-mail is written in ("en" when the plan has none). */
  locale: string;
  /** The language of the `<html lang>` (en, fr, de, es, nl). */
  language: string;
  t(key: EmailMessageKey, values?: MessageValues): string;
  /** The rulebook's texts in the e-mail's language. */
  rulebook: ReturnType<typeof rulebookText>;
  money(minor: number, currency: string): string;
  /** A calendar day (a purchase, a promise's due day, the day a buyer gave): the UTC day, written as the locale writes days. */
  day(ms: number): string;
  /** A moment, in the plan's time zone or UTC, naming it. */
  dayAndTime(ms: number): string;
}

const cache = new Map<string, EmailText>();

/** The e-mail's text for a plan's recorded locale and time zone (kept per pair: a few dozen at most). */
export function emailText(plan: Pick<EmailPlan, "locale" | "timeZone">): EmailText {
  const locale = plan.locale ?? DEFAULT_BUYER_LOCALE;
  const timeZone = plan.timeZone ?? "UTC";
  const key = `${locale}|${timeZone}`;
  let text = cache.get(key);
  if (!text) {
    text = build(locale, timeZone);
    if (cache.size > 1_000) cache.clear();
    cache.set(key, text);
  }
  return text;
}

function build(locale: string, timeZone: string): EmailText {
  const t = emailMessages.in(locale);
  const base = {
    locale,
    language: messageLanguage(locale).split("-")[0],
    t: t as EmailText["t"],
    rulebook: rulebookText(locale),
  };
  // English without a region, and no time zone: what the e-mails wrote before they knew a buyer's language.
  if (locale === DEFAULT_BUYER_LOCALE && timeZone === "UTC")
    return { ...base, money: formatMoneyEnUs, day: utcDay, dayAndTime: utcDayAndTime };
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const moment = new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  });
  return {
    ...base,
    money: (minor, currency) => formatMoney(minor, currency, locale),
    day: (ms) => day.format(new Date(ms)),
    dayAndTime: (ms) => moment.format(new Date(ms)),
  };
}
