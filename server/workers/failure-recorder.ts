// How every worker records a failure: a failed round (the loop tries again on its next poll) and a failed attempt at
// one item (retried after the policy's wait, or given up), each logged in one shape.
import type { Logger } from "pino";
import { delayAfterFailure, type RetryPolicy } from "./retry-policy.ts";
import { jobFailures } from "../observability/metrics.ts";

/** The longest error text a row keeps. */
const LAST_ERROR_CHARS = 2_000;

export function recordRoundFailure(logger: Logger, worker: string, error: unknown): void {
  jobFailures.inc({ job: worker, failure: "round" });
  logger.error({ worker, err: error }, `${worker} round failed; retrying on the next poll`);
}

export interface FailedAttempt {
  /** Names the item in the log line ("e-mail", "job"). */
  item: string;
  /** What identifies the item in the log (ids, kind); never personal data. */
  fields: Record<string, unknown>;
  /** Attempts so far, this one included. */
  attempts: number;
  error: unknown;
  policy: RetryPolicy;
  /** A failure no retry can fix: given up at once. */
  permanent?: boolean;
  /** Takes out of the error text what must be neither logged nor stored (e-mail addresses). */
  redact?: (message: string) => string;
}

/** Logs the failure and says what becomes of the item: retried after `retryInMs`, or given up (undefined). */
export function recordFailedAttempt(
  logger: Logger,
  failed: FailedAttempt,
): { retryInMs: number | undefined; lastError: string } {
  const retryInMs = failed.permanent ? undefined : delayAfterFailure(failed.policy, failed.attempts);
  const text = failed.error instanceof Error ? failed.error.message : String(failed.error);
  const message = failed.redact ? failed.redact(text) : text;
  jobFailures.inc({ job: failed.item, failure: retryInMs === undefined ? "given_up" : "retrying" });
  logger.warn(
    { ...failed.fields, attempts: failed.attempts, err: message },
    retryInMs === undefined ? `${failed.item} failed for good` : `${failed.item} failed; retrying`,
  );
  return { retryInMs, lastError: message.slice(0, LAST_ERROR_CHARS) };
}
