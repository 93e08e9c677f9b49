import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export interface CheckpointOptions {
  /** How often the background connection checkpoints. */
  intervalMs?: number;
  /** WAL size, in pages, past which the checkpointer asks for a pause in writes to let the WAL start over. */
  restartPages?: number;
  /** Commits before the thread starts: a process that writes little (a script, most tests) never needs one. */
  startAfterCommits?: number;
}

/**
 * A checkpoint copies each page written since the last one into the database file once, however many commits wrote
 * it. 3,000 pages (~12 MB): the size at which the writer used to checkpoint; past one wal-index segment (4,096 frames)
 * every page look-up searches two.
 */
export const CHECKPOINT_DEFAULTS: Required<CheckpointOptions> = {
  intervalMs: 50,
  restartPages: 3_000,
  startAfterCommits: 1_000,
};

/**
 * The background checkpointer: a worker thread with its own connection that runs `PRAGMA wal_checkpoint(PASSIVE)`
 * every `intervalMs`. PASSIVE neither waits for nor blocks the writer, and the thread keeps the copy and its fsync off
 * the event loop (better-sqlite3 is synchronous). Without it, SQLite checkpoints inside whichever commit crosses
 * `wal_autocheckpoint`, and that one request pays for it (bench:api's quote p99 / p50 was 4.3–4.7).
 *
 * Under a steady stream of commits a PASSIVE checkpoint never catches up: the writer appends while it copies, and the
 * WAL only starts over from its beginning when a write transaction begins with every frame copied. So once the WAL
 * passes `restartPages`, the checkpointer asks for a pause: `pauseWrites` queues it behind the transactions already
 * waiting (the event loop runs on; only writes wait), the thread copies the last frames, and the next transaction
 * starts the WAL over. The writer keeps a high `wal_autocheckpoint` as the fallback (server/store/sqlite.ts).
 */
export interface Checkpointer {
  /** Resolves once the thread's connection is closed and the thread has exited. */
  stop(): Promise<void>;
}

// An eval'd CommonJS worker: no separate file for a bundler to find; better-sqlite3 is loaded from the path the main
// thread resolved. It answers "quiet" (writes are paused: catch up) with "caught-up", and sends "pause".
const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
// Never wait on a lock: a checkpoint that finds another under way leaves the work to the next one.
db.pragma("busy_timeout = 0");
let pauseAsked = false;
// The WAL's size after the last catch-up: still that size, no transaction has run since (to start it over) yet.
let caughtUpAt = -1;
const checkpoint = () => {
  try {
    return db.pragma("wal_checkpoint(PASSIVE)")[0];
  } catch {
    // An I/O error now is retried at the next tick; meanwhile the writer's automatic checkpoint is the fallback.
    return undefined;
  }
};
const timer = setInterval(() => {
  const result = checkpoint();
  if (result && !pauseAsked && result.log >= workerData.restartPages && result.log !== caughtUpAt) {
    pauseAsked = true;
    parentPort.postMessage("pause");
  }
}, workerData.intervalMs);
parentPort.on("message", () => {
  caughtUpAt = checkpoint()?.log ?? -1;
  pauseAsked = false;
  parentPort.postMessage("caught-up");
});
`;

/** `pauseWrites(during)` runs `during` in the writer's queue: no transaction starts until it resolves. */
export function startCheckpointer(
  filename: string,
  pauseWrites: (during: () => Promise<void>) => void,
  options: CheckpointOptions = {},
): Checkpointer {
  const { intervalMs, restartPages } = { ...CHECKPOINT_DEFAULTS, ...options };
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, filename, intervalMs, restartPages },
  });
  // Like the writer's connection, the checkpointer does not keep the process alive.
  worker.unref();
  let resumeWrites: (() => void) | undefined;
  let running = true;
  const resume = () => {
    resumeWrites?.();
    resumeWrites = undefined;
  };
  worker.on("message", (message) => {
    if (message === "caught-up") return resume();
    pauseWrites(
      () =>
        new Promise<void>((resolve) => {
          if (!running) return resolve();
          resumeWrites = resolve;
          worker.postMessage("quiet");
        }),
    );
  });
  // A thread that failed (the file went away) leaves the work to the writer's automatic checkpoint.
  worker.on("error", () => undefined);
  const exited = new Promise<void>((resolve) =>
    worker.once("exit", () => {
      running = false;
      resume();
      resolve();
    }),
  );
  return {
    async stop() {
      // Between two statements: a checkpoint under way finishes first, and better-sqlite3 closes the thread's
      // connection as the thread ends.
      await worker.terminate();
      await exited;
    },
  };
}
