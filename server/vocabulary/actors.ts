// Who an operation acts for, and where a buyer acted.
import type { Mode } from "./ids.ts";

/**
 * The merchant and mode an operation acts for (from the API key; test and live data never mix), and so the owner the
 * store scopes a merchant's rows by.
 */
export interface Actor {
  merchantId: string;
  mode: Mode;
}

/** Where a buyer accepted an offer; kept in the consent record. */
export type Surface = "widget" | "api" | "server";
