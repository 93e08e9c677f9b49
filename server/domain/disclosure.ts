// What the buyer is shown. The wording is contractual: change it only with the legal text.
import { boundedCache, DEFAULT_BUYER_LOCALE } from "@purchase-protection/contract";
import { FREE_LOOK_HOURS, rulebookText } from "./rulebook-text.ts";

/** The byte-string headless quote returns in disclosure_text, for byte-equality checks only (docs/api.md "Headless (server path)"). */
export const DISCLOSURE_PHRASE = "This is not insurance";

// Formatted once per company name: every quote carries it.
const disclosures = boundedCache<string>(100);

/** The visible disclosure in English: both sentences, always (rulebook-text.ts has it in every buyer language). */
export const fullDisclosure = (companyName: string): string =>
  disclosures(companyName, () => rulebookText(DEFAULT_BUYER_LOCALE).disclosure(companyName));

export { COVERED_REASONS } from "../vocabulary/claims.ts";

// The names and descriptions of the reasons, in every buyer language, are the rulebook's (rulebook-text.ts).
export { reasonName } from "./rulebook-text.ts";

// The windows the rulebook's sentences state.
export { CLAIM_WINDOW_DAYS, FREE_LOOK_HOURS } from "./rulebook-text.ts";

export const FREE_LOOK_MS = FREE_LOOK_HOURS * 60 * 60 * 1000;
export const QUOTE_LIFETIME_MS = 30 * 60 * 1000;
