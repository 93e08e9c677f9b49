// Money, dates, durations and file sizes as our own pages write them (the buyer portal, the claims console). Amounts are integer
// minor units on the wire; the currency's own number of decimals comes from Intl (JPY has none), never an assumed 2.
// Money and dates are written in the reader's locale (the portal's is its buyer's Accept-Language, app/portal/locale.ts),
// else DEFAULT_LOCALE.
import { formatMoney as formatMoneyIn } from "@purchase-protection/contract";

export const DEFAULT_LOCALE = "en-US";

/** Minor units as people write money ("$129.99"; "129,99 $" in de-DE): the currency's symbol and decimals. */
export const formatMoney = (minorUnits: number, currency: string, locale: string = DEFAULT_LOCALE) =>
  formatMoneyIn(minorUnits, currency, locale);

const DATE_TIME_FIELDS: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZoneName: "short",
};

/**
 * An instant in a time zone, the zone named ("27 Nov 2026, 10:14 UTC"). Pages render it in UTC on the server; the
 * portal's pages redraw it in the buyer's own zone in the browser (LocalTime), so the text never hides which zone it
 * is in.
 */
export const formatDateTime = (iso: string, locale: string = DEFAULT_LOCALE, timeZone = "UTC") =>
  new Intl.DateTimeFormat(locale, { ...DATE_TIME_FIELDS, timeZone }).format(new Date(iso));

/**
 * A day ("27 Nov 2026"): a date the buyer picked, or a due day, is stored as its 00:00 UTC and shown in UTC, so it
 * stays the day it was in every time zone (never a midnight moved to the evening before).
 */
export const formatDate = (iso: string, locale: string = DEFAULT_LOCALE) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso));

export const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "3 d 4 h", "5 h 10 min", "12 min": how long a claim has waited, or took to be decided. */
export function formatDuration(ms: number): string {
  if (ms >= DAY) return `${Math.floor(ms / DAY)} d ${Math.floor((ms % DAY) / HOUR)} h`;
  if (ms >= HOUR) return `${Math.floor(ms / HOUR)} h ${Math.floor((ms % HOUR) / MINUTE)} min`;
  return `${Math.max(0, Math.floor(ms / MINUTE))} min`;
}
