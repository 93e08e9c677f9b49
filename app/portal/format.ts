// Money, dates and the free-look countdown as the portal shows them. Amounts are integer minor units on the wire; the
// currency's own number of decimals comes from Intl (JPY has none), never an assumed 2. Money and dates are written
// in the buyer's locale (their browser's Accept-Language, locale.ts); typed amounts are read by the one parser of
// people's money (the contract's parseTypedMoney).
import { formatMoney as formatMoneyIn, parseTypedMoney } from "@purchase-protection/contract";
import { DEFAULT_LOCALE } from "./locale.ts";
import { messages } from "./messages.ts";
import type { PortalRulebook } from "../../server/index.ts";

/** Minor units as the buyer writes money ("$129.99"; "129,99 $" in de-DE): the currency's symbol and decimals. */
export const formatMoney = (minorUnits: number, currency: string, locale: string = DEFAULT_LOCALE) =>
  formatMoneyIn(minorUnits, currency, locale);

/** An amount a buyer typed ("$129.99", "129.99", "129,99") in minor units, or undefined when it is not one. */
export const parseMoney = (input: string, currency: string) => parseTypedMoney(input, currency);

const DATE_TIME_FIELDS: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZoneName: "short",
};

/**
 * An instant in a time zone, the zone named ("27 Nov 2026, 10:14 UTC"). Pages render it in UTC on the server and the
 * browser redraws it in the buyer's own zone (LocalTime), so the text never hides which zone it is in.
 */
export const formatDateTime = (iso: string, locale: string = DEFAULT_LOCALE, timeZone = "UTC") =>
  new Intl.DateTimeFormat(locale, { ...DATE_TIME_FIELDS, timeZone }).format(new Date(iso));

/**
 * A day ("27 Nov 2026"): a date the buyer picked, or a due day, is stored as its 00:00 UTC and shown in UTC, so it
 * stays the day it was in every time zone (never a midnight moved to the evening before).
 */
export const formatDate = (iso: string, locale: string = DEFAULT_LOCALE) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso));

/** "12 h 05 min" until `endsAt` (rounded up to the minute), or undefined once it has passed. */
export function remainingText(endsAt: string, now: number): string | undefined {
  const ms = Date.parse(endsAt) - now;
  if (!(ms > 0)) return undefined;
  const minutes = Math.ceil(ms / 60_000);
  return messages.countdown(Math.floor(minutes / 60), minutes % 60);
}

export const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** An evidence quota as the portal says it: "20 files and 50 MB". */
export const formatQuota = (quota: { maxFiles: number; maxBytes: number }) =>
  `${quota.maxFiles} files and ${formatBytes(quota.maxBytes)}`;

/** The evidence field's hint on both claim forms: the per-filing limits and what one request holds in all. */
export const evidenceHint = (evidence: PortalRulebook["evidence"]) =>
  messages.claim.evidenceHint(
    evidence.maxFiles,
    formatBytes(evidence.maxFileBytes),
    formatQuota(evidence.quotas.claim),
  );
