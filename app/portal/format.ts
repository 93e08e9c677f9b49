// Money, dates and the free-look countdown as the portal shows them. Amounts are integer minor units on the wire; the
// currency's own number of decimals comes from Intl (JPY has none), never an assumed 2.
import { messages } from "./messages.ts";
import type { PortalRulebook } from "./portal-api.server.ts";

const formatters = new Map<string, Intl.NumberFormat>();

function currencyFormat(currency: string): Intl.NumberFormat {
  let format = formatters.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en", { style: "currency", currency });
    formatters.set(currency, format);
  }
  return format;
}

/** The currency's decimals (2 for USD, 0 for JPY, 3 for KWD). */
export const currencyDigits = (currency: string) =>
  currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;

export const formatMoney = (minorUnits: number, currency: string) =>
  currencyFormat(currency).format(minorUnits / 10 ** currencyDigits(currency));

/** An amount a buyer typed ("25", "25.5", "25.50") in minor units, or undefined when it is not one. */
export function parseMoney(input: string, currency: string): number | undefined {
  const digits = currencyDigits(currency);
  const text = input.trim().replace(/,/g, "");
  const pattern = digits > 0 ? new RegExp(`^\\d{1,12}(\\.\\d{1,${digits}})?$`) : /^\d{1,12}$/;
  if (!pattern.test(text)) return undefined;
  const [whole, fraction = ""] = text.split(".");
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}

/** The amount as a buyer would type it back into the form. */
export const moneyInput = (minorUnits: number, currency: string) =>
  (minorUnits / 10 ** currencyDigits(currency)).toFixed(currencyDigits(currency));

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const dateOnly = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/** Times are shown in UTC and say so: the server does not know the buyer's time zone. */
export const formatDateTime = (iso: string) => `${dateTime.format(new Date(iso))} UTC`;
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));

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
