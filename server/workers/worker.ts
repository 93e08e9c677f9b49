// One runtime for background work (webhook deliveries, e-mails, Shopify jobs, purges). A worker runs rounds in a loop,
// waits `pollMs` when a round leaves nothing due, records a failed round and tries again on the next poll, and stops
// gracefully: work in flight gets `graceMs` to finish, then is aborted (its owner releases it for another try).
import type { Logger } from "pino";
import { recordRoundFailure } from "./failure-recorder.ts";

export interface Worker {
  /** What `npm run worker -- --only` and the logs call it. */
  readonly name: string;
  start(): void;
  /** Stops taking work; resolves when the work in flight has finished, or was aborted after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** One round, for tests and tools: resolves, once its work is done, to how many items it handled. */
  runOnce(): Promise<number>;
}

export interface WorkerBody {
  name: string;
  logger: Logger;
  /** The wait after a round that left nothing due. */
  pollMs: number;
  /** One round of the loop; resolves true when more may be due at once (no wait before the next round). */
  round(): Promise<boolean>;
  runOnce(): Promise<number>;
  /** Resolves when the work rounds started but did not wait for has finished. */
  settle?(): Promise<unknown>;
  /** The grace period is over: abort the work in flight (it releases what it held). */
  abort?(): void;
  /** Logged with "worker started". */
  settings?: Record<string, unknown>;
}

export const DEFAULT_GRACE_MS = 10_000;

export function createWorker(body: WorkerBody) {
  const { name, logger, pollMs } = body;
  let running = false;
  let loop: Promise<void> | undefined;
  let endNap: (() => void) | undefined;

  async function run() {
    while (running) {
      let more = false;
      try {
        more = await body.round();
      } catch (error) {
        recordRoundFailure(logger, name, error);
      }
      if (!more && running) await nap();
    }
    await body.settle?.();
  }

  const nap = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => ((endNap = undefined), resolve()), pollMs);
      endNap = () => {
        endNap = undefined;
        clearTimeout(timer);
        resolve();
      };
    });

  return {
    name,
    runOnce: body.runOnce,
    /** Whether the loop is on (rounds may take more work). */
    get running() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      loop = run();
      logger.info({ worker: name, pollMs, ...body.settings }, "worker started");
    },
    /** Look now rather than after the wait (new work was just written). */
    wake() {
      endNap?.();
    },
    async stop(graceMs = DEFAULT_GRACE_MS) {
      if (!running) {
        await body.settle?.();
        return;
      }
      running = false;
      endNap?.();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        loop!.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(resolve, graceMs, false))),
      ]);
      clearTimeout(timer);
      if (!finished) {
        body.abort?.();
        await loop;
      }
      logger.info({ worker: name, graceful: finished }, "worker stopped");
    },
  };
}

/** A task run at start and then every `everyMs` (the purges). */
export function createPeriodicWorker(options: {
  name: string;
  logger: Logger;
  everyMs: number;
  task: () => Promise<number>;
}): Worker {
  return createWorker({
    name: options.name,
    logger: options.logger,
    pollMs: options.everyMs,
    round: async () => (await options.task(), false),
    runOnce: options.task,
  });
}

/** Workers started and stopped together. */
export function workerGroup(workers: readonly Worker[]) {
  return {
    start: () => workers.forEach((worker) => worker.start()),
    stop: async (graceMs?: number) => void (await Promise.all(workers.map((worker) => worker.stop(graceMs)))),
  };
}
