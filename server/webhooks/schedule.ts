// When a failed delivery is tried again (docs/api.md "Webhooks", delivery rules): 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h, for
// 3 days counted from the endpoint's first failure in a row; after that the endpoint is marked failing.
import { delayAfterFailure } from "../workers/retry-policy.ts";

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  5 * 60 * SECOND,
  30 * 60 * SECOND,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
];
export const FAILING_AFTER_MS = 72 * HOUR;

/** The wait after the `failures`-th failure in a row (1-based); the last entry repeats. */
export function retryDelay(failures: number, schedule: readonly number[] = RETRY_SCHEDULE_MS): number {
  return delayAfterFailure({ delaysMs: schedule, afterLast: "repeat" }, failures);
}
