// Money's vocabulary: the currencies we settle in and the largest amount. Amounts are integer minor units everywhere;
// a currency's number of decimals and its written forms are the storefront contract's (packages/contract money.ts).

/**
 * ISO 4217 codes we settle in. JPY has no minor unit, the Gulf and Jordanian dinars and the Omani rial three (KWD, BHD,
 * JOD, OMR: added beyond the seven the design first named, for buyers in the Gulf); amounts are always in the currency's
 * minor units.
 */
export const SUPPORTED_CURRENCIES = [
  "USD",
  "CAD",
  "EUR",
  "GBP",
  "AUD",
  "NZD",
  "JPY",
  "KWD",
  "BHD",
  "JOD",
  "OMR",
] as const;
export type Currency = (typeof SUPPORTED_CURRENCIES)[number];

/** A program's smallest fee and largest covered amount in one currency, in that currency's minor units. */
export interface CurrencyLimit {
  minFeeCents: number;
  maxCoveredCents: number;
}

/** A program's limits in each of its currencies. */
export type CurrencyLimits = Partial<Record<Currency, CurrencyLimit>>;

/** Largest amount accepted anywhere (minor units); keeps every product of amount × bps exact in a double. */
export const MAX_AMOUNT_MINOR = 1_000_000_000;
