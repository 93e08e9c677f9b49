// What the dashboard's and the claims console's error boundaries say (app/ui/route-error.ts): a client's mistake in
// its own words, a page that is not there, and nothing of a server's failure but that it failed.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "@remix-run/router";
import { routeErrorText } from "../../app/ui/route-error.ts";

describe("a layout's error text", () => {
  it("says a refusal's own sentence", () => {
    assert.deepEqual(routeErrorText(new ErrorResponse(403, "Forbidden", "Only an admin can do that.")), {
      status: 403,
      sentence: "Only an admin can do that.",
    });
  });

  it("says there is no such page for a 404 without a sentence", () => {
    assert.deepEqual(routeErrorText(new ErrorResponse(404, "Not Found", null)), {
      status: 404,
      sentence: "There is no such page.",
    });
  });

  it("keeps a server error's details and any thrown error to itself", () => {
    const generic = "Something went wrong on our side. Try again in a moment.";
    assert.deepEqual(routeErrorText(new ErrorResponse(500, "Internal", "stack: at db.ts:12")), {
      status: 500,
      sentence: generic,
    });
    assert.deepEqual(routeErrorText(new Error("SQLITE_BUSY")), { status: 500, sentence: generic });
  });
});
