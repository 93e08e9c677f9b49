// Money is integer minor units everywhere; these turn it into what a person reads.

/** Digits after the decimal point in a currency's minor unit, as Intl knows them (2 for USD, 0 for JPY). */
export const minorDigits = (currency: string) =>
  new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** Minor units → "$12.34" / "¥1,234" in the locale given, with the currency's own number of decimals. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency });
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
