// Money is integer minor units everywhere; these turn it into what a person reads.

/** Digits after the decimal point in a currency's minor unit, as Intl knows them (2 for USD, 0 for JPY). */
export const minorDigits = (currency: string) =>
  new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** Minor units → "$12.34" / "¥1,234" in the locale given, with the currency's own number of decimals. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency });
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** The most digits before the decimal separator a typed amount may have. */
const MAX_WHOLE_DIGITS = 12;

/**
 * An amount as a person types it → minor units of `currency`, or undefined when it is not one. Takes what people
 * write whatever their locale: "$129.99", "129.99", "129,99", "129,99 €", "1,299.99", "1.299,99", "1 299,99",
 * "USD 129". The last separator is the decimal one when it is the only one of its kind and has at most the currency's
 * decimals after it; the others group thousands, between groups of three digits. A lone "," before exactly three
 * digits groups ("1,299" is 1299); a lone "." before three digits, in a currency of fewer decimals, is refused:
 * "25.505" may be 25505 or a slip of 25.50, and a refund amount is not guessed. No sign, no exponent, no more
 * decimals than the currency has (JPY: none).
 */
export function parseTypedMoney(text: string, currency: string): number | undefined {
  const digits = minorDigits(currency);
  // A currency symbol or code before or after the number ($, US$, €, USD…) and spaces of every kind (NBSP, narrow
  // NBSP) or apostrophes grouping the digits are dropped; a letter between digits is not an amount.
  const bare = text.replace(/^[\p{Sc}\p{L}\s]+|[\p{Sc}\p{L}\s]+$/gu, "").replace(/[\s']/g, "");
  if (!/^\d[\d.,]*$/.test(bare) || /[.,]$/.test(bare)) return undefined;
  const separators = [...bare.matchAll(/[.,]/g)].map((match) => ({ kind: match[0], at: match.index }));
  const last = separators.at(-1);
  let whole = bare;
  let fraction = "";
  if (last) {
    const after = bare.length - last.at - 1;
    const lone = separators.filter((separator) => separator.kind === last.kind).length === 1;
    const mixed = separators.some((separator) => separator.kind !== last.kind);
    if (lone && !mixed && after === 3 && digits < 3) {
      if (last.kind === ".") return undefined;
    } else if (lone) {
      if (after > digits) return undefined;
      whole = bare.slice(0, last.at);
      fraction = bare.slice(last.at + 1);
    }
    const groups = whole.split(/[.,]/);
    if (groups.length > 1 && (groups[0].length > 3 || groups.slice(1).some((group) => group.length !== 3)))
      return undefined;
    whole = groups.join("");
  }
  if (whole.replace(/^0+(?=\d)/, "").length > MAX_WHOLE_DIGITS) return undefined;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}
