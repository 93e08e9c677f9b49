// A deprecated method or option keeps working and warns once per process, naming the date until which it works
// (src/deprecation.ts); the public-surface snapshot records that date (versioning.test.ts).
import { describe, it, vi, afterEach } from "vitest";
import assert from "node:assert/strict";
import path from "node:path";
import { warnDeprecated } from "../src/deprecation.ts";
import { currentSurface } from "./public-surface.ts";
import { Widgets } from "./fixtures/deprecated-resource.ts";

afterEach(() => vi.restoreAllMocks());

describe("deprecations", () => {
  it("a deprecated method keeps working and warns once per process, across calls and clients", () => {
    const emitWarning = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    for (let i = 0; i < 3; i++) assert.deepEqual(new Widgets().fetchAll(), ["a", "b"]);
    assert.deepEqual(emitWarning.mock.calls, [
      [
        "widgets.fetchAll() is deprecated since 2026-11-25 and keeps working until 2027-02-23; use widgets.list().",
        { type: "DeprecationWarning", code: "PP_SDK_DEP_TEST1" },
      ],
    ]);
  });

  it("a deprecated option keeps working and warns once; the current option does not warn", () => {
    const emitWarning = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    assert.equal(new Widgets({ timeoutMs: 5 }).timeoutMs, 5);
    assert.equal(emitWarning.mock.calls.length, 0);
    assert.equal(new Widgets({ timeout: 7 }).timeoutMs, 7);
    assert.equal(new Widgets({ timeout: 8 }).timeoutMs, 8);
    assert.equal(emitWarning.mock.calls.length, 1);
    assert.match(
      String(emitWarning.mock.calls[0]![0]),
      /^options\.timeout is deprecated .* until 2027-02-23; use options\.timeoutMs\.$/,
    );
  });

  it("is a real DeprecationWarning on Node", async () => {
    const warning = new Promise<Error & { code?: string }>((resolve) => process.once("warning", resolve));
    warnDeprecated({ code: "PP_SDK_DEP_TEST3", what: "x()", since: "2026-11-25", instead: "y()" });
    const emitted = await warning;
    assert.equal(emitted.name, "DeprecationWarning");
    assert.equal(emitted.code, "PP_SDK_DEP_TEST3");
  });

  it("falls back to console.warn once where there is no process.emitWarning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const emitWarning = process.emitWarning;
    Object.assign(process, { emitWarning: undefined });
    try {
      for (let i = 0; i < 2; i++)
        warnDeprecated({ code: "PP_SDK_DEP_TEST4", what: "x()", since: "2026-11-25", instead: "y()" });
    } finally {
      Object.assign(process, { emitWarning });
    }
    assert.deepEqual(warn.mock.calls, [
      [
        "DeprecationWarning [PP_SDK_DEP_TEST4]: x() is deprecated since 2026-11-25 and keeps working until 2027-02-23; use y().",
      ],
    ]);
  });

  it("the public surface records a deprecation with its dates", { timeout: 30_000 }, () => {
    const surface = currentSurface(path.join(import.meta.dirname, "fixtures/deprecated-resource.ts"));
    assert.ok(
      surface.includes("Widgets.fetchAll(): string[] @deprecated since 2026-11-25 until 2027-02-23"),
      surface.join("\n"),
    );
    assert.ok(
      surface.includes("WidgetOptions.timeout?: number | undefined @deprecated since 2026-11-25 until 2027-02-23"),
    );
    assert.ok(surface.includes("Widgets.list(): string[]"));
  });
});
