// Catches a test file that holds its worker's event loop: vitest's worker answers the main process over an RPC that
// fails the whole run after 60 s without an answer ("Timeout calling onTaskUpdate"), naming no file. The guard ticks
// on Node's own timers (a test's fake timers replace only the globals) and reports every gap between two ticks longer
// than the limit, with the test that was running.
import { setInterval, clearInterval } from "node:timers";

export interface HeldLoop {
  /** How long the event loop went without running a timer, beyond the tick interval. */
  heldMs: number;
}

/** Starts ticking; `stop` ends it. `ticks` counts the ticks so far (a test waits on it instead of sleeping). */
export function watchEventLoop(options: { intervalMs: number; limitMs: number; onHeld: (held: HeldLoop) => void }) {
  let last = performance.now();
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const heldMs = Math.round(now - last - options.intervalMs);
    last = now;
    ticks += 1;
    if (heldMs > options.limitMs) options.onHeld({ heldMs });
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), ticks: () => ticks };
}
