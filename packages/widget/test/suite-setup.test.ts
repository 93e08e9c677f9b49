// The widget suites' set-up when Chromium cannot start (not installed): it fails, and the stack it had started is
// closed, so the test process can exit. Left listening, it kept `npm test` running forever.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { startStack, type Stack } from "../../../test/support/widget/stack.ts";
import { startSuite } from "../../../test/support/widget/suite.ts";

const refused = (url: string) =>
  fetch(url).then(
    () => false,
    (error: Error) => (error.cause as NodeJS.ErrnoException | undefined)?.code === "ECONNREFUSED",
  );

describe("widget suite set-up", () => {
  it("rejects when Chromium does not launch, with the stack's servers closed", async () => {
    let stack: Stack | undefined;
    await assert.rejects(
      startSuite({
        stack: async () => (stack = await startStack()),
        browser: () => chromium.launch({ executablePath: "/nonexistent/chromium" }),
      }),
      /nonexistent\/chromium/,
    );
    assert.ok(stack, "the stack started");
    assert.equal(await refused(stack.scriptUrl), true, "the widget origin still answers");
    assert.equal(await refused(stack.pages.origin), true, "the page server still answers");
    assert.equal(await refused(`${stack.api.baseUrl}/openapi.json`), true, "the API still answers");
  }, 60_000);
});
