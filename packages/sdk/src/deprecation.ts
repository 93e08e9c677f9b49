// The versioning covenant (docs/api.md "Versioning", CHANGELOG.md): a deprecated method or option keeps working for
// DEPRECATION_OVERLAP_DAYS after the release that deprecated it, and says so once per process. To deprecate one:
// mark it `@deprecated Since <date>; works until <date + 90 days>. Use <replacement>.` (the public-surface test reads
// the date), call warnDeprecated() where it is used, list it in CHANGELOG.md and the README with that date.

/** How long a deprecated method or option keeps working after the release that deprecated it. */
export const DEPRECATION_OVERLAP_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface Deprecation {
  /** Names it in warnings, one warning per code: `PP_SDK_DEP001`, … */
  code: string;
  /** What is deprecated, as a caller writes it: `client.offers.create()`, `options.timeout`. */
  what: string;
  /** The release date that deprecated it, YYYY-MM-DD (UTC). */
  since: string;
  /** What to use instead. */
  instead: string;
}

/** The last day (YYYY-MM-DD, UTC) a deprecation is sure to keep working: `since` plus the overlap. */
export function worksUntil(since: string): string {
  const start = Date.parse(`${since}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || Number.isNaN(start))
    throw new TypeError(`since must be YYYY-MM-DD: ${since}`);
  return new Date(start + DEPRECATION_OVERLAP_DAYS * DAY_MS).toISOString().slice(0, 10);
}

const warned = new Set<string>();

type WarningEmitter = (message: string, options: { type: string; code: string }) => void;

/**
 * Warns that a deprecated method or option was used — once per process and code — and returns, so that it keeps
 * working. On Node a DeprecationWarning (silenced by --no-deprecation, thrown by --throw-deprecation); elsewhere
 * console.warn.
 */
export function warnDeprecated(deprecation: Deprecation): void {
  if (warned.has(deprecation.code)) return;
  warned.add(deprecation.code);
  const message =
    `${deprecation.what} is deprecated since ${deprecation.since} and keeps working until ` +
    `${worksUntil(deprecation.since)}; use ${deprecation.instead}.`;
  // Reached through globalThis: the SDK also runs where there is no `process` (browsers, workers).
  const node = (globalThis as { process?: { emitWarning?: WarningEmitter } }).process;
  if (typeof node?.emitWarning === "function")
    node.emitWarning(message, { type: "DeprecationWarning", code: deprecation.code });
  else console.warn(`DeprecationWarning [${deprecation.code}]: ${message}`);
}
