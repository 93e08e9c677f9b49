import { DomainError } from "./errors.ts";
import { SUPPORTED_CURRENCIES, type Currency } from "../vocabulary/money.ts";

export function assertSupportedCurrency(code: string): asserts code is Currency {
  if (!(SUPPORTED_CURRENCIES as readonly string[]).includes(code)) {
    throw new DomainError(
      "invalid",
      "currency_unsupported",
      `Currency '${code}' is not supported. Supported: ${SUPPORTED_CURRENCIES.join(", ")}.`,
      "currency",
    );
  }
}

/** `amount × bps / 10 000`, rounded half up, in integers. */
export function applyBps(amountMinor: number, bps: number): number {
  return Math.floor((amountMinor * bps + 5_000) / 10_000);
}

/** Digits after the decimal point in the currency's decimal notation (Shopify sends and takes prices as "12.34"). */
const minorUnitDigits = (currency: string) => (currency.toUpperCase() === "JPY" ? 0 : 2);

/** "12.34" (or "1234" for JPY) → minor units; NaN when the text is not a plain non-negative decimal amount. */
export function parseDecimalAmount(text: string, currency: string): number {
  const digits = minorUnitDigits(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(String(text).trim());
  if (!match) return Number.NaN;
  const fraction = (match[2] ?? "").padEnd(digits, "0");
  if (fraction.length > digits && /[^0]/.test(fraction.slice(digits))) return Number.NaN;
  return Number(match[1]) * 10 ** digits + Number(fraction.slice(0, digits) || "0");
}

/** Minor units → "12.34" (or "1234" for JPY). */
export function formatDecimalAmount(minor: number, currency: string): string {
  const digits = minorUnitDigits(currency);
  return digits === 0
    ? String(minor)
    : `${Math.floor(minor / 10 ** digits)}.${String(minor % 10 ** digits).padStart(digits, "0")}`;
}
