// Retry policy: which outcomes are retried, how long to wait. Pure functions — the request loop owns the waiting.

export interface RetryOptions {
  /** First backoff delay. Default 250 ms. */
  baseDelayMs: number;
  /** Each further delay is the previous one times this. Default 2.0. */
  multiplier: number;
  /** Randomise each backoff delay within [delay / 2, delay]. Default true. */
  jitter: boolean;
  /** Attempts in total, the first one included. Default 3. */
  maxAttempts: number;
  /** A server's Retry-After is honoured up to this many seconds (longer ones are cut to it). Default 600. */
  retryAfterCeilingSeconds: number;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({
  baseDelayMs: 250,
  jitter: true,
  maxAttempts: 3,
  multiplier: 2.0,
  retryAfterCeilingSeconds: 600,
});

/** What an attempt ended with: an HTTP status, or no response at all (`null`: network error or timeout). */
export type AttemptOutcome = { status: number } | { status: null };

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Whether another attempt is made after `attempt` (1-based). Never on 409 or any other 4xx. */
export function shouldRetry(outcome: AttemptOutcome, attempt: number, maxAttempts: number): boolean {
  if (attempt >= maxAttempts) return false;
  return outcome.status === null || RETRYABLE_STATUSES.has(outcome.status);
}

/**
 * A Retry-After header in seconds: delta-seconds, or an HTTP-date measured against `nowMs` (past dates are 0).
 * Null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP-date starts with its weekday (`Sun, 22 Nov 2026 12:00:30 GMT`, or the obsolete forms); Date.parse alone would take "-5".
  const date = /^[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * Milliseconds to wait before attempt `attempt + 1`. A Retry-After is used as given, cut to the ceiling; otherwise
 * exponential backoff (base × multiplier^(attempt − 1)), cut to the ceiling, with jitter drawn from `random` (0..1).
 */
export function retryDelayMs(
  attempt: number,
  retryAfterSeconds: number | null,
  options: RetryOptions,
  random: () => number,
): number {
  const ceilingMs = options.retryAfterCeilingSeconds * 1000;
  if (retryAfterSeconds !== null) return Math.min(retryAfterSeconds * 1000, ceilingMs);
  const backoff = Math.min(options.baseDelayMs * options.multiplier ** (attempt - 1), ceilingMs);
  return Math.round(options.jitter ? backoff / 2 + (random() * backoff) / 2 : backoff);
}
