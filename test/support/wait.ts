// Waiting on asynchronous outcomes (servers, workers, browsers) by polling, never by a fixed sleep: `waitFor` returns
// as soon as something happened; `staysFalseFor` is how a test shows that something did NOT happen — it watches for
// the whole window and fails the moment the thing happens.

export interface WaitOptions {
  /** How long to wait before failing (default 10 s). */
  timeoutMs?: number;
  /** Named in the error when it times out. */
  what?: string;
  /** Time between two probes (default 20 ms). */
  intervalMs?: number;
}

type Truthy<T> = Exclude<T, undefined | null | false | 0 | "">;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it gives a truthy value, and returns that value; throws once `timeoutMs` has passed. */
export async function waitFor<T>(probe: () => T | Promise<T>, options: WaitOptions = {}): Promise<Truthy<T>> {
  const { timeoutMs = 10_000, what = "the condition", intervalMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(intervalMs);
  }
}

/** Polls `predicate` for `ms` and throws as soon as it is true (`what` names the thing that must not happen). */
export async function staysFalseFor(
  predicate: () => unknown,
  ms: number,
  options: Omit<WaitOptions, "timeoutMs"> = {},
): Promise<void> {
  const { what = "the condition", intervalMs = 20 } = options;
  const deadline = Date.now() + ms;
  for (;;) {
    if (await predicate()) throw new Error(`${what} happened within ${ms} ms`);
    if (Date.now() > deadline) return;
    await pause(Math.min(intervalMs, Math.max(1, deadline - Date.now())));
  }
}
