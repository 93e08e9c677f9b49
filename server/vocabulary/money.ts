// Money's vocabulary: the currencies we settle in and the largest amount. Amounts are integer minor units everywhere;
// a currency's number of decimals and its written forms are the storefront contract's (packages/contract money.ts).

/** ISO 4217 codes we settle in. JPY has no minor unit; amounts are always in the currency's minor units. */
export const SUPPORTED_CURRENCIES = ["USD", "CAD", "EUR", "GBP", "AUD", "NZD", "JPY"] as const;
export type Currency = (typeof SUPPORTED_CURRENCIES)[number];

/** Largest amount accepted anywhere (minor units); keeps every product of amount × bps exact in a double. */
export const MAX_AMOUNT_MINOR = 1_000_000_000;
