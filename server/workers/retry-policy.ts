// When a failed item is tried again: one rule for every worker's queue (e-mails, Shopify jobs, webhook deliveries).

export interface RetryPolicy {
  /** The wait after the 1st, 2nd, … failure in a row. */
  delaysMs: readonly number[];
  /** Past the last wait: give up (e-mails, jobs), or keep waiting the last one (webhooks, which give up by time). */
  afterLast: "give-up" | "repeat";
}

/** The wait after the `failures`-th failure in a row (1-based), or undefined when the item has failed for good. */
export function delayAfterFailure(policy: RetryPolicy & { afterLast: "repeat" }, failures: number): number;
export function delayAfterFailure(policy: RetryPolicy, failures: number): number | undefined;
export function delayAfterFailure(policy: RetryPolicy, failures: number): number | undefined {
  const { delaysMs } = policy;
  const index = Math.max(failures, 1) - 1;
  if (index < delaysMs.length) return delaysMs[index];
  return policy.afterLast === "repeat" ? delaysMs[delaysMs.length - 1] : undefined;
}
