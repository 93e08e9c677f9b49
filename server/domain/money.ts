import { DomainError } from "./errors.ts";

/** ISO 4217 codes we settle in. JPY has no minor unit; amounts are always in the currency's minor units. */
export const SUPPORTED_CURRENCIES = ["USD", "CAD", "EUR", "GBP", "AUD", "NZD", "JPY"] as const;
export type Currency = (typeof SUPPORTED_CURRENCIES)[number];

/** Largest amount accepted anywhere (minor units); keeps every product of amount × bps exact in a double. */
export const MAX_AMOUNT_MINOR = 1_000_000_000;

export function assertSupportedCurrency(code: string, param = "currency"): asserts code is Currency {
  if (!(SUPPORTED_CURRENCIES as readonly string[]).includes(code)) {
    throw new DomainError("invalid", "currency_unsupported", `Currency '${code}' is not supported. Supported: ${SUPPORTED_CURRENCIES.join(", ")}.`, param);
  }
}

/** `amount × bps / 10 000`, rounded half up, in integers. */
export function applyBps(amountMinor: number, bps: number): number {
  return Math.floor((amountMinor * bps + 5_000) / 10_000);
}
