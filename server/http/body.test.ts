import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { isJsonMediaType, nulCharacterPath } from "./body.ts";

describe("nulCharacterPath", () => {
  it("names the first string or key holding U+0000 by its dotted path, or nothing", () => {
    assert.equal(nulCharacterPath({ a: "ok", b: { c: ["x", "y\u0000"] } }), "b.c.1");
    assert.equal(nulCharacterPath({ a: { ["k\u0000"]: 1 } }), "a.k\u0000");
    assert.equal(nulCharacterPath("\u0000"), "");
    assert.equal(nulCharacterPath({ a: "ok", b: [1, null, true, { c: "fine" }] }), undefined);
  });

  it("walks a body nested 20,000 levels deep without exhausting the stack", () => {
    const deep = JSON.parse(`${'{"a":'.repeat(20_000)}"\\u0000"${"}".repeat(20_000)}`);
    assert.equal(nulCharacterPath(deep)?.split(".").length, 20_000);
    assert.equal(nulCharacterPath(JSON.parse(`${"[".repeat(20_000)}${"]".repeat(20_000)}`)), undefined);
  });
});

describe("isJsonMediaType", () => {
  it("is application/json or application/…+json, with parameters and in any case", () => {
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/merge-patch+json",
    ])
      assert.ok(isJsonMediaType(type), type);
    for (const type of ["text/plain", "application/jsonx", "application/x-www-form-urlencoded", "text/json", "json"])
      assert.ok(!isJsonMediaType(type), type);
  });
});
