// When the protection API cannot start inside the app (here: an unsupported DATABASE_URL), /api/v1/* answers in the
// API's own error shape (503 api_error, request id) instead of Remix's HTML error page, and retries on the next request.
import { it } from "vitest";
import assert from "node:assert/strict";

it("app: /api/v1/* answers 503 service_unavailable JSON when the API's configuration is unusable", async () => {
  process.env.DATABASE_URL = "mysql://localhost/protection";
  const originalError = console.error;
  const logged: unknown[][] = [];
  console.error = (...args: unknown[]) => void logged.push(args);
  try {
    const { loader, action } = await import("../../app/routes/api.v1.$.ts");
    const response = await loader({
      request: new Request("http://app.test/api/v1/openapi.json"),
      params: {},
      context: {},
    });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), "30");
    const requestId = response.headers.get("x-request-id");
    assert.match(requestId ?? "", /^req_[0-9A-Za-z]{24}$/);
    assert.deepEqual((await response.json()).error, {
      type: "api_error",
      code: "service_unavailable",
      message:
        "The protection API is not available: its configuration could not be loaded (the cause is in the server log). Retry later.",
      request_id: requestId,
    });
    const again = await action({
      request: new Request("http://app.test/api/v1/offers/quote", { method: "POST", body: "{}" }),
      params: {},
      context: {},
    });
    assert.equal(again.status, 503, "not cached as healthy; tried again");
    assert.equal(logged.length, 2, "the cause is logged once per failed attempt");
    assert.match(String(logged[0][0]), new RegExp(requestId!));
  } finally {
    console.error = originalError;
  }
});
