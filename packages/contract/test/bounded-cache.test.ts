import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { boundedCache } from "@purchase-protection/contract";

describe("boundedCache", () => {
  it("computes a key's value once, and starts over when full rather than growing", () => {
    const computed: string[] = [];
    const cached = boundedCache<string>(2);
    const value = (key: string) => cached(key, () => (computed.push(key), key.toUpperCase()));
    assert.deepEqual([value("a"), value("a"), value("b"), value("b")], ["A", "A", "B", "B"]);
    assert.deepEqual(computed, ["a", "b"]);
    value("c"); // full: emptied, then "c" kept
    value("a");
    assert.deepEqual(computed, ["a", "b", "c", "a"]);
    value("c");
    assert.deepEqual(computed, ["a", "b", "c", "a"], "c survived: only a full cache is emptied");
  });

  it("keeps nothing for a compute that throws", () => {
    const cached = boundedCache<number>(10);
    assert.throws(
      () =>
        cached("k", () => {
          throw new Error("no");
        }),
      /no/,
    );
    assert.equal(
      cached("k", () => 7),
      7,
    );
  });
});
