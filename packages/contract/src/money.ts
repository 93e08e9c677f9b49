// Money is integer minor units everywhere; these turn it into what a person or another system reads, and back. The
// one rule for a currency's decimals is minorDigits: every other helper here, the server and the app go through it.

// Written as small arrow functions: the widget bundles formatMoney within its 10,000-byte budget.

/** Intl's formatter of amounts of `currency` in `locale`. */
export const currencyFormat = (locale: string, currency: string) =>
  new Intl.NumberFormat(locale, { style: "currency", currency });

/** Digits after the decimal point in the minor unit of a currency formatter's currency, as Intl knows them. */
export const digitsOf = (format: Intl.NumberFormat) => format.resolvedOptions().maximumFractionDigits ?? 2;

/** Each currency's digits once asked: making an Intl.NumberFormat costs tens of microseconds, a lookup nothing. */
const digitsByCurrency = /* @__PURE__ */ new Map<string, number>();

/** Digits after the decimal point in a currency's minor unit, as Intl knows them (2 for USD, 0 for JPY, 3 for KWD). */
export const minorDigits = (currency: string): number =>
  digitsByCurrency.get(currency) ??
  digitsByCurrency.set(currency, digitsOf(currencyFormat("en", currency))).get(currency)!;

/**
 * Minor units → "$12.34" / "¥1,234" in the locale given, with the currency's own number of decimals (from the same
 * formatter: the widget bundles this without minorDigits' cache). `digits` says the amount's own decimals where they
 * are not the currency's: a Shopify theme's amounts are hundredths in every currency (¥600 is 60000).
 */
export const formatMoney = (minor: number, currency: string, locale: string, digits?: number): string => {
  // The formatter made here rather than by currencyFormat: the widget's budget has no room for the extra function.
  const format = new Intl.NumberFormat(locale, { style: "currency", currency });
  return format.format(minor / 10 ** (digits ?? digitsOf(format)));
};

/**
 * Minor units → "$12.34" / "¥1,234" in en-US: amounts in the service's own words whoever reads them (buyer e-mails, a
 * decision's reasons, the dashboard's cards, messages), the same text on the server and in the browser.
 */
export const formatMoneyEnUs = (minor: number, currency: string): string => formatMoney(minor, currency, "en-US");

/**
 * Minor units → the plain decimal text Shopify sends and takes for prices and form fields show ("12.34", "1234"
 * for JPY): no symbol, no grouping, the currency's own decimals.
 */
export function formatDecimalAmount(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return digits === 0
    ? String(minor)
    : `${Math.floor(minor / 10 ** digits)}.${String(minor % 10 ** digits).padStart(digits, "0")}`;
}

/** "12.34" (or "1234" for JPY) → minor units; NaN when the text is not a plain non-negative decimal amount. */
export function parseDecimalAmount(text: string, currency: string): number {
  const digits = minorDigits(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(String(text).trim());
  if (!match) return Number.NaN;
  const fraction = (match[2] ?? "").padEnd(digits, "0");
  if (fraction.length > digits && /[^0]/.test(fraction.slice(digits))) return Number.NaN;
  return Number(match[1]) * 10 ** digits + Number(fraction.slice(0, digits) || "0");
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
