// Every test file (the root config's setupFiles): fails the file whose event loop was held 30 s or more, half of
// vitest's 60 s RPC timeout, so the next synchronous stretch is named by its file and test before it fails a run
// without a name (see docs/testing.md).
import { afterAll, beforeAll, expect } from "vitest";
import assert from "node:assert/strict";
import { watchEventLoop } from "./event-loop-guard.ts";

const LIMIT_MS = 30_000;
const held: string[] = [];
let watch: ReturnType<typeof watchEventLoop> | undefined;

beforeAll(() => {
  watch = watchEventLoop({
    intervalMs: 1_000,
    limitMs: LIMIT_MS,
    onHeld: ({ heldMs }) => {
      const during = expect.getState().currentTestName ?? "a hook";
      held.push(`${heldMs} ms during ${during}`);
      // Now, too: when the RPC times out at 60 s, this line is the one that names the file.
      process.stderr.write(`event loop held ${heldMs} ms in ${expect.getState().testPath}, during ${during}\n`);
    },
  });
});

afterAll(() => {
  watch?.stop();
  assert.deepEqual(
    held,
    [],
    `the event loop was held over ${LIMIT_MS / 1_000} s (${held.join("; ")}): wait on child processes and large removals asynchronously`,
  );
});
