import { test } from "vitest";
import assert from "node:assert/strict";
import { FAILING_AFTER_MS, retryDelay } from "./schedule.ts";

test('the documented schedule (docs/api.md "Webhooks"): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, …', () => {
  const minutes = [1, 2, 3, 4, 5, 6, 7, 12].map((n) => retryDelay(n) / 60_000);
  assert.deepEqual(minutes, [5 / 60, 5, 30, 120, 300, 600, 600, 600]);
});

test("retries stop after 3 days: the schedule fits about a dozen attempts in that window", () => {
  let elapsed = 0;
  let attempts = 1;
  while (elapsed + retryDelay(attempts) < FAILING_AFTER_MS) elapsed += retryDelay(attempts++);
  assert.equal(FAILING_AFTER_MS, 3 * 24 * 3600 * 1000);
  assert.ok(attempts >= 10 && attempts <= 14, `${attempts} attempts`);
});
