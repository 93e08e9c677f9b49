// The sequencer's list of the slowest files (test/support/slow-first-sequencer.ts) names files that exist: a renamed
// file would quietly go back to vitest's own order.
import { it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { SLOW_FIRST } from "../support/slow-first-sequencer.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

it("every file the sequencer starts first exists", () => {
  assert.deepEqual(
    SLOW_FIRST.filter((file) => !fs.existsSync(path.join(ROOT, file))),
    [],
  );
});
