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
